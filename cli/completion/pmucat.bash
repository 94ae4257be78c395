# bash completion for pmuls and pmuencode: options, and PMU, event and format names read from
# the tree the command line selects (--sysfs DIR, else $PMUCAT_SYSFS, else /sys).

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

_pmuls() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
    COMPREPLY=()
    case $prev in
        --sysfs) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --pmu) COMPREPLY=($(compgen -W "$(_pmucat_pmus)" -- "$cur")); return ;;
        --event) COMPREPLY=($(compgen -W "$(_pmucat_all_events)" -- "$cur")); return ;;
    esac
    COMPREPLY=($(compgen -W '--sysfs --color --json --pmu --event --formats --long --help
        --version' -- "$cur"))
}

_pmuencode() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} i decode=0 positional=0
    COMPREPLY=()
    case $prev in
        --sysfs) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --color) COMPREPLY=($(compgen -W 'auto always never' -- "$cur")); return ;;
        --pmu) COMPREPLY=($(compgen -W "$(_pmucat_pmus)" -- "$cur")); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W '--sysfs --color --json --pmu --perf --c --decode
            --perf-semantics --help --version' -- "$cur"))
        return
    fi
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            --decode) decode=1 ;;
            --sysfs | --color | --pmu) ((i++)) ;;
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

complete -F _pmuls pmuls
complete -F _pmuencode pmuencode
