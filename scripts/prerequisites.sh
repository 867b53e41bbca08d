# Sourced by ./derive and .ci/run, so a developer's machine and CI set themselves up the same way.
#   derive_prerequisites up|test
# Selects a JDK >= 25 (scripts/select-jdk.sh), then makes sure the system programs the purpose
# needs are there. A missing Debian package is installed with apt-get when this user may (root, or
# sudo without a password); otherwise it stops at once, naming the exact command to run.
# moto (pip) is named in the README as a prerequisite and looked for by the tests themselves.

# shellcheck source=scripts/select-jdk.sh
. "$(dirname "${BASH_SOURCE[0]}")/select-jdk.sh"

# What each purpose needs: "<command or dpkg:package>|<Debian packages>|<why>[|lean]", one per
# line; "lean" installs those packages without their recommended ones.
derive_needs() {
  # Both build the FFmpeg layer of each architecture (worker-functions/ffmpeg/src/build/layer.sh),
  # whose stand-in libraries are linked with that architecture's GNU as and ld.
  echo "aarch64-linux-gnu-ld|binutils-aarch64-linux-gnu|the arm64 FFmpeg layer (worker-functions/ffmpeg)|lean"
  echo "x86_64-linux-gnu-ld|binutils-x86-64-linux-gnu|the x86_64 FFmpeg layer (worker-functions/ffmpeg)|lean"
  case "$1" in
    up) derive_office_needs ;;
    test)
      echo "heif-convert|libheif-examples|HeicCorpusTest's reference decoder (libheif with libde265)|lean"
      echo "pdftotext|poppler-utils|PdfTextLikePdftotextTest's reference (pdftotext)|lean"
      echo "chromium|chromium|the console's browser tests (ConsoleEndToEndTest)"
      echo "chromedriver|chromium-driver|the console's browser tests (ConsoleEndToEndTest)"
      derive_office_needs
      ;;
  esac
}

# The office capability: LibreOffice (the full packages: the -nogui ones leave out .ui files that
# LibreOffice 7.4 aborts without when a document is loaded through UNO) and the fonts documents
# need: Latin metric-compatible (Arial, Times, Courier, Calibri, Cambria), Arabic and Hebrew, CJK.
# The same list as OfficeProcess.INSTALL and the office worker's Dockerfile.
derive_office_needs() {
  local package
  for package in libreoffice-writer libreoffice-calc libreoffice-impress libreoffice-draw \
    libreoffice-math fonts-liberation2 fonts-crosextra-carlito fonts-crosextra-caladea \
    fonts-noto-core fonts-noto-cjk; do
    echo "dpkg:$package|$package|the office capability (LibreOffice and its fonts)|lean"
  done
}

# True when $1 (a command, or dpkg:<package>) is present.
derive_present() {
  case "$1" in
    dpkg:*) dpkg-query -W -f='${Status}' "${1#dpkg:}" 2>/dev/null | grep -q 'install ok installed' ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

derive_prerequisites() {
  local purpose=$1 line check packages why lean_flag full=() lean=() reasons=() sudo=
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    IFS='|' read -r check packages why lean_flag <<<"$line"
    if ! derive_present "$check"; then
      # shellcheck disable=SC2206
      if [ "$lean_flag" = lean ]; then lean+=($packages); else full+=($packages); fi
      reasons+=("$why")
    fi
  done < <(derive_needs "$purpose")
  local all="${full[*]} ${lean[*]}"
  all=$(echo $all)
  [ -n "$all" ] || return 0
  local command="apt-get update && apt-get install -y $all"
  local why_all
  why_all=$(printf '%s\n' "${reasons[@]}" | sort -u | paste -sd ';' - | sed 's/;/; /g')
  if [ "$(id -u)" -ne 0 ]; then
    if sudo -n true 2>/dev/null; then sudo=sudo; else
      echo "derive: missing Debian packages $all, for $why_all" >&2
      echo "derive: install them with: sudo sh -c '$command'" >&2
      return 1
    fi
  fi
  echo "derive: installing $all (for $why_all)" >&2
  { $sudo apt-get update -qq &&
    derive_apt_install "$sudo" "" "${full[@]}" &&
    derive_apt_install "$sudo" --no-install-recommends "${lean[@]}"; } || {
    echo "derive: apt-get could not install $all; run: $command" >&2
    return 1
  }
}

# derive_apt_install SUDO FLAG PACKAGE...: apt-get install of the packages (none: nothing to do).
derive_apt_install() {
  local sudo=$1 flag=$2
  shift 2
  [ $# -gt 0 ] || return 0
  # shellcheck disable=SC2086
  $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $flag "$@" >/dev/null
}
