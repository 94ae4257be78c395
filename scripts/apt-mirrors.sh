# Sourced by scripts/dev.sh, scripts/check-fresh-root.sh and scripts/perf-oracle-7.sh: the Debian mirrors this machine's
# own apt configuration names, so that no mirror host is ever written into the repository.
# apt_mirrors sets `mirror` (the archive) and `security` (empty when the configuration names
# none); it fails, saying so, when the configuration names no archive mirror at all.
apt_mirrors() {
  local files=() f
  for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] && files+=("$f")
  done
  files+=(/dev/null)
  # One awk per kind: a deb822 "URIs:" line, or a one-line "deb [options] URI suite ..." entry.
  local find='($1 == "URIs:" && ($2 ~ /security/) == want) { print $2; exit }
    ($1 == "deb" && ($0 ~ /security/) == want) { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }'
  mirror=$(cat "${files[@]}" | awk -v want=0 "$find")
  security=$(cat "${files[@]}" | awk -v want=1 "$find")
  if [ -z "$mirror" ]; then
    echo "apt-mirrors: this machine's apt configuration names no Debian mirror" \
      "(/etc/apt/sources.list, /etc/apt/sources.list.d/); set one there or give MIRROR" >&2
    return 1
  fi
}
