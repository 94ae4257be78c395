# Sourced by the scripts that need Debian packages (the perf oracle builds):
#   install_missing_packages WHO PACKAGE...
# installs those not installed (as root; apt-get update first), or, when not root or with
# PMUCAT_NO_INSTALL=1, names them and exits 2. WHO prefixes the message.
install_missing_packages() {
  local who=$1 p missing=()
  shift
  for p in "$@"; do
    grep -q "ok installed" <<<"$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  if [ "${PMUCAT_NO_INSTALL:-0}" = 1 ] || [ "$(id -u)" != 0 ]; then
    echo "$who: missing Debian packages: ${missing[*]}" >&2
    exit 2
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
