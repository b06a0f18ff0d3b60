#!/usr/bin/env bash
# The system packages MCP Host's demo and tests need on Debian/Ubuntu, written down once.
#   bash scripts/prerequisites.sh code-server   what building code-server's native modules needs
#   bash scripts/prerequisites.sh chromium      the browser the end-to-end tests drive
#   bash scripts/prerequisites.sh sandbox       bubblewrap, which runs sandboxed stdio servers (Linux)
#   bash scripts/prerequisites.sh --print       the `sudo apt-get install …` line for all of them
# Checks what is missing (dpkg). As root on Debian/Ubuntu it installs that with apt-get;
# otherwise it stops at once and prints the exact command to run, so an install does not fail
# minutes later on a missing header. Elsewhere (no dpkg) it says what is needed and goes on.
set -euo pipefail

CODE_SERVER_PACKAGES=(build-essential python3 git libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev)
CHROMIUM_PACKAGES=(chromium)
SANDBOX_PACKAGES=(bubblewrap)

if [ "${1:-}" = "--print" ]; then
  echo "sudo apt-get install ${CODE_SERVER_PACKAGES[*]} ${CHROMIUM_PACKAGES[*]} ${SANDBOX_PACKAGES[*]}"
  exit 0
fi

wanted=()
for group in "$@"; do
  case "$group" in
    code-server) wanted+=("${CODE_SERVER_PACKAGES[@]}") ;;
    chromium) wanted+=("${CHROMIUM_PACKAGES[@]}") ;;
    sandbox) wanted+=("${SANDBOX_PACKAGES[@]}") ;;
    *) echo "prerequisites.sh: unknown group '$group' (code-server, chromium, sandbox or --print)" >&2; exit 2 ;;
  esac
done
[ ${#wanted[@]} -gt 0 ] || exit 0

if ! command -v dpkg-query > /dev/null; then
  echo "note: not Debian/Ubuntu; make sure the equivalents of these are installed: ${wanted[*]}" >&2
  exit 0
fi

missing=()
for package in "${wanted[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$package" 2> /dev/null || true)"
  [ "$status" = "install ok installed" ] || missing+=("$package")
done
[ ${#missing[@]} -gt 0 ] || exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
  echo "installing missing system packages: ${missing[*]}" >&2
  log="$(mktemp)"
  if ! { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"; } > "$log" 2>&1; then
    tail -30 "$log" >&2
    rm -f "$log"
    echo "apt-get install ${missing[*]} failed" >&2
    exit 1
  fi
  rm -f "$log"
  exit 0
fi

echo "missing system packages: ${missing[*]}" >&2
echo "install them first:" >&2
echo "" >&2
echo "    sudo apt-get install ${missing[*]}" >&2
echo "" >&2
exit 1
