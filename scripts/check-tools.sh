#!/usr/bin/env bash
# Checks the versions of the tools tableref's build and tests rely on, and
# says which is missing or too old and what to do, instead of letting a test
# fail on it later. Called by setup-debian.sh (build tools, chromium,
# mosquitto) and setup-web.sh (node, npm).
#
#   bash scripts/check-tools.sh debian   meson, chromium, mosquitto
#   bash scripts/check-tools.sh web      node, npm
#
# Exit 0 when all hold, 1 (after a line per problem) otherwise. The minimums
# are those of what the repository pins, each said where it comes from; each
# is at or below what Debian 12 ships, so a fresh Debian 12 passes.
set -euo pipefail
cd "$(dirname "$0")/.."

problems=0
say_problem() { echo "check-tools: $*" >&2; problems=$((problems + 1)); }

# version_at_least HAVE NEED: dotted numeric comparison (1.10 > 1.9).
version_at_least() {
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# check NAME HAVE NEED WHY FIX
check() {
  local name=$1 have=$2 need=$3 why=$4 fix=$5
  if [ -z "$have" ]; then
    say_problem "$name is missing ($why): $fix"
  elif ! version_at_least "$have" "$need"; then
    say_problem "$name $have is too old: $why needs $need or newer: $fix"
  fi
}

# The first dotted number in a command's version line.
version_of() { "$@" 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+)+' | head -n 1 || true; }

# Node.js: the oldest the pinned page packages accept (their lock files' "engines"); Debian 12 ships 18.
node_need() {
  local need=0 lock n
  for lock in web/package-lock.json tests/web/package-lock.json; do
    # "node": ">=18" (or ">=16.0.0") inside each package's engines.
    n=$(grep -oE '"node": *">= *[0-9]+' "$lock" | grep -oE '[0-9]+$' | sort -n | tail -n 1 || true)
    if [ -n "$n" ] && [ "$n" -gt "$need" ]; then need=$n; fi
  done
  echo "$need"
}

check_web() {
  local debian_fix="apt-get install nodejs npm (Debian 12's Node.js 18 and npm 9 are enough)"
  check node "$(version_of node --version)" "$(node_need)" \
    "the pinned page packages (engines in web/ and tests/web/package-lock.json)" "$debian_fix"
  # Lock files of version 3 need npm 7.
  check npm "$(version_of npm --version)" 7 "the lock files (lockfileVersion 3)" "$debian_fix"
}

check_debian() {
  check meson "$(version_of meson --version)" 1.0.0 "meson.build (meson_version)" "apt-get install meson"
  # Headless chromium driven over the DevTools protocol by playwright-core 1.61 (tests/web).
  check chromium "$(version_of chromium --version)" 120 "the page tests' playwright-core" \
    "apt-get install chromium (Debian 12 updates it with its security releases)"
  # Mosquitto 2.0: per-listener settings and no anonymous access by default, as venue setup writes.
  local mosq
  mosq=$( (mosquitto -h 2>&1 || true) | grep -oE 'version [0-9]+(\.[0-9]+)+' | head -n 1 | cut -d' ' -f2)
  check mosquitto "$mosq" 2.0 "the venue's broker configuration (tableref venue setup)" "apt-get install mosquitto"
}

case ${1:-} in
  web) check_web ;;
  debian) check_debian ;;
  *) echo "usage: $0 debian | web" >&2; exit 2 ;;
esac
[ "$problems" -eq 0 ]
