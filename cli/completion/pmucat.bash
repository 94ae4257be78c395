# bash completion for the eight pmucat tools (pmuls, pmuencode, pmucheck, pmudiff, pmusnap,
# pmudata, pmumetric, pmustat): options, their values, and PMU, event and format names read from the tree the command
# line selects (--sysfs DIR, else $PMUCAT_SYSFS, else /sys; a .tar.gz capture offers no names).

# The devices folder for a root, discovered the way the library does it.
_pmucat_devices_dir() {
    local root=$1
    if [[ -d $root/bus/event_source/devices ]]; then
        printf '%s\n' "$root/bus/event_source/devices"
    elif [[ -d $root/sys/bus/event_source/devices ]]; then
        printf '%s\n' "$root/sys/bus/event_source/devices"
    else
        printf '%s\n' "$root"
    fi
}

# The tree named on the command line so far.
_pmucat_tree() {
    local root=${PMUCAT_SYSFS:-/sys} i
    for ((i = 1; i < COMP_CWORD; i++)); do
        if [[ ${COMP_WORDS[i]} == --sysfs && $((i + 1)) -lt COMP_CWORD ]]; then
            root=${COMP_WORDS[i + 1]}
        elif [[ ${COMP_WORDS[i]} == --sysfs=* ]]; then
            root=${COMP_WORDS[i]#--sysfs=}
        fi
    done
    _pmucat_devices_dir "${root/#\~/$HOME}"
}

_pmucat_pmus() {
    local dir entry
    dir=$(_pmucat_tree)
    for entry in "$dir"/*; do
        [[ -e $entry/type || -d $entry/format || -d $entry/events ]] && printf '%s\n' "${entry##*/}"
    done
}

# Event names of one PMU, without the .unit/.scale/.per-pkg/.snapshot metadata files.
_pmucat_events() {
    local dir entry name
    dir=$(_pmucat_tree)
    for entry in "$dir/$1"/events/*; do
        [[ -e $entry ]] || continue
        name=${entry##*/}
        case $name in
            ?*.unit | ?*.scale | ?*.per-pkg | ?*.snapshot) ;;
            *) printf '%s\n' "$name" ;;
        esac
    done
}

_pmucat_formats() {
    local dir entry
    dir=$(_pmucat_tree)
    for entry in "$dir/$1"/format/*; do
        [[ -e $entry ]] && printf '%s\n' "${entry##*/}"
    done
}

_pmucat_all_events() {
    local pmu
    while read -r pmu; do _pmucat_events "$pmu"; done < <(_pmucat_pmus) | sort -u
}

# Completes an event spec: `pmu/` first, then the PMU's events and format terms after the `/`.
_pmucat_complete_spec() {
    local cur=$1 pmu rest done_part word
    if [[ $cur == */* ]]; then
        pmu=${cur%%/*}
        rest=${cur#*/}
        [[ $rest == */* ]] && return
        done_part=""
        [[ $rest == *,* ]] && done_part=${rest%,*},
        word=${rest##*,}
        local -a items=()
        while read -r name; do items+=("$name/"); done < <(_pmucat_events "$pmu")
        while read -r name; do items+=("$name="); done < <(_pmucat_formats "$pmu")
        local item
        for item in "${items[@]}"; do
            [[ $item == "$word"* ]] && COMPREPLY+=("$pmu/$done_part$item")
        done
    else
        local name
        while read -r name; do
            [[ $name == "$cur"* ]] && COMPREPLY+=("$name/")
        done < <(_pmucat_pmus)
    fi
    compopt -o nospace 2>/dev/null
}

# A tree: directories, and pmusnap captures (*.tar.gz, *.tgz).
_pmucat_complete_tree_path() {
    local cur=$1
    COMPREPLY+=($(compgen -d -- "$cur"))
    COMPREPLY+=($(compgen -f -X '!*.tar.gz' -- "$cur"))
    COMPREPLY+=($(compgen -f -X '!*.tgz' -- "$cur"))
}

# Completes the value of an option every tool takes; returns 1 when `prev` is none of them.
_pmucat_complete_common() {
    local prev=$1 cur=$2
    case $prev in
        --sysfs) _pmucat_complete_tree_path "$cur" ;;
        --events-dir | --tracefs) COMPREPLY=($(compgen -d -- "$cur")) ;;
        --cpuid) ;;
        --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")) ;;
        *) return 1 ;;
    esac
    return 0
}

_pmuls() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    case $prev in
        --pmu) COMPREPLY=($(compgen -W "$(_pmucat_pmus)" -- "$cur")); return ;;
        --event) COMPREPLY=($(compgen -W "$(_pmucat_all_events)" -- "$cur")); return ;;
        --kind)
            # A comma list: complete the item after the last comma.
            local prefix=${cur%"${cur##*,}"}
            COMPREPLY=($(compgen -P "$prefix" -W 'hw sw tool cache pmu all' -- "${cur##*,}"))
            return ;;
        -j | --jobs | --topic | --search | --metric | --metric-group) return ;;
        --compile-index) COMPREPLY=($(compgen -d -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W '--sysfs --events-dir --no-events-dir --cpuid --verbose --tracefs --color --json --pmu
        --event --kind --topic --search --deprecated --long-desc --no-desc --formats --long --jobs
        --metrics --metric-groups --metric-group --metric --details --compile-index
        --perf-semantics --perf-semantics=6.1 --perf-semantics=6.12 --perf-semantics=7.3 --perf-semantics=auto
        --help --version' -- "$cur"))
}

_pmuencode() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} i decode=0 positional=0
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    case $prev in
        --pmu) COMPREPLY=($(compgen -W "$(_pmucat_pmus)" -- "$cur")); return ;;
        -o | --output) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --for) COMPREPLY=($(compgen -W 'stat record' -- "$cur")); return ;;
        --nmi-watchdog) COMPREPLY=($(compgen -W 'on off' -- "$cur")); return ;;
        --extended-type) COMPREPLY=($(compgen -W 'supported unsupported probe' -- "$cur")); return ;;
        --host-root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --cpu) return ;;
        --literal) COMPREPLY=($(compgen -W 'smt_on= num_cpus= num_cores= num_dies= num_packages= num_cpus_online= core_wide= system_tsc_freq= has_pmem= slots= target_cpu=' -- "$cur")); return ;;
        --counters) COMPREPLY=($(compgen -W "$(_pmucat_pmus | sed 's/$/=/')" -- "$cur")); compopt -o nospace 2>/dev/null; return ;;
        -M | --metrics) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--sysfs --events-dir --no-events-dir --cpuid --verbose --tracefs --color --json
            --pmu --perf --c --decode --perf-semantics --perf-semantics=6.1 --perf-semantics=6.12
            --perf-semantics=7.3 --perf-semantics=auto --extended-type --for --output --metrics --metric-no-group
            --metric-no-merge --metric-no-threshold --nmi-watchdog --literal --plan --counters
            --explain --host-root --all-cpus --cpu --detailed --help --version' -- "$cur"))
        return
    fi
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --decode) decode=1 ;;
            --sysfs | --events-dir | --cpuid | --tracefs | --color | --pmu | --for | -o | --output | -M | --metrics | --nmi-watchdog | --literal | --extended-type | --counters | --host-root | --cpu) ((i++)) ;;
            -*) ;;
            *) ((positional++)) ;;
        esac
    done
    if ((decode)); then
        if ((positional == 0)); then
            COMPREPLY=($(compgen -W "$(_pmucat_pmus)" -- "$cur"))
        else
            COMPREPLY=($(compgen -W 'config= config1= config2= config3=' -- "$cur"))
            compopt -o nospace 2>/dev/null
        fi
        return
    fi
    _pmucat_complete_spec "$cur"
}

# pmucheck's rule ids, as the installed pmucheck lists them.
_pmucat_rule_ids() {
    "${COMP_WORDS[0]}" --list-rules 2>/dev/null | while read -r id _; do printf '%s\n' "$id"; done
}

_pmucheck() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    case $prev in
        --pmu) COMPREPLY=($(compgen -W "$(_pmucat_pmus)" -- "$cur")); return ;;
        --format) COMPREPLY=($(compgen -W 'text ktap json junit kcidb' -- "$cur")); return ;;
        --disable | --enable) COMPREPLY=($(compgen -W "$(_pmucat_rule_ids)" -- "$cur")); return ;;
        -o | --output | --baseline | --write-baseline) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -j | --jobs | --kcidb-origin | --kcidb-build-id | --kcidb-run-id) return ;;
    esac
    COMPREPLY=($(compgen -W '--sysfs --events-dir --no-events-dir --cpuid --tracefs --color --json --pmu
        --format --output --werror --disable
        --enable --baseline --write-baseline --live --live-any-tree --jobs --kcidb-origin
        --kcidb-build-id --kcidb-run-id --list-rules --help --version' -- "$cur"))
}

_pmudiff() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    if [[ $prev == --tables ]]; then
        COMPREPLY=($(compgen -W '6.1 6.12 7.3' -- "$cur"))
        return
    fi
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--color --json --tables --cpuid --help --version' -- "$cur"))
        return
    fi
    _pmucat_complete_tree_path "$cur"
}

_pmusnap() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--sysfs --events-dir --no-events-dir --cpuid --tracefs --color --json
            --allow-partial --force --help --version' -- "$cur"))
        return
    fi
    _pmucat_complete_tree_path "$cur"
}

_pmudata() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} i command=
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    case $prev in
        --to) COMPREPLY=($(compgen -W 'perf file pipe pb pbtxt pprof' -- "$cur")); return ;;
        --max-input-size) return ;;
    esac
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            info | check | convert) command=${COMP_WORDS[i]}; break ;;
            --sysfs | --events-dir | --cpuid | --tracefs | --color | --max-input-size) ((i++)) ;;
        esac
    done
    if [[ $cur == -* ]]; then
        local options='--sysfs --events-dir --no-events-dir --cpuid --tracefs --color --json
            --max-input-size --help'
        [[ -z $command ]] && options+=' --version'
        [[ $command == convert ]] && options+=' --to'
        COMPREPLY=($(compgen -W "$options" -- "$cur"))
    elif [[ -z $command ]]; then
        COMPREPLY=($(compgen -W 'info check convert' -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}

_pmumetric() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    _pmucat_complete_common "$prev" "$cur" && return
    case $prev in
        -M | --metrics) return ;;
        --host-root) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --literal)
            COMPREPLY=($(compgen -W 'smt_on= num_cpus= num_cores= num_dies=
                num_packages= num_cpus_online= core_wide= system_tsc_freq= has_pmem= slots=' -- "$cur"))
            compopt -o nospace 2>/dev/null
            return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--sysfs --events-dir --no-events-dir --cpuid --verbose --tracefs --color --json
            -M --metrics --literal --host-root --help --version' -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -f -- "$cur"))
}

_pmustat() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} i
    COMPREPLY=()
    # After the command's name, its own arguments: complete files as a shell would.
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --) COMPREPLY=($(compgen -f -- "$cur")); return ;;
            -e | --event | -M | --metrics | -C | --cpu | -p | --pid | -t | --tid | -x | --field-separator | \
                -I | --interval-print | -r | --repeat | --events-dir | --cpuid | --color) ((i++)) ;;
            -*) ;;
            *) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        esac
    done
    _pmucat_complete_common "$prev" "$cur" && return
    case $prev in
        -e | --event) _pmucat_complete_spec "$cur"; return ;;
        -p | --pid) COMPREPLY=($(compgen -W "$(ls /proc 2>/dev/null | grep -E '^[0-9]+$')" -- "$cur")); return ;;
        -M | --metrics | -C | --cpu | -t | --tid | -x | --field-separator | -I | --interval-print | -r | --repeat) return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '-e --event -M --metrics -a --all-cpus -C --cpu -p --pid -t --tid -A --no-aggr
            --per-core --per-socket
            -x --field-separator -I --interval-print -r --repeat --no-inherit --fallback --plan --explain --events-dir
            --no-events-dir --cpuid --color --json --help --version' -- "$cur"))
        return
    fi
    COMPREPLY=($(compgen -c -- "$cur"))
}

complete -F _pmuls pmuls
complete -F _pmuencode pmuencode
complete -F _pmucheck pmucheck
complete -F _pmudiff pmudiff
complete -F _pmusnap pmusnap
complete -F _pmudata pmudata
complete -F _pmumetric pmumetric
complete -F _pmustat pmustat
