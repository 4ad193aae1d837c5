#!/usr/bin/env bash
# Installs the page scripts from the npm registry, as pinned in the lock files:
#   web/        mqtt.js (its browser bundle is served with the judge's page)
#   tests/web/  playwright-core (drives Debian's chromium in the page test)
# Needs node and npm (a Debian 12 machine without them gets Debian's nodejs
# and npm). Run once with internet; the venue then needs none (docs/venue.md).
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v npm >/dev/null 2>&1; then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y --no-install-recommends nodejs npm
fi

# Say now which is too old (the pinned packages' engines), rather than let a page test fail on it.
bash scripts/check-tools.sh web

for dir in web tests/web; do
  # npm ci installs exactly the lock file's versions, integrity-checked.
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
done
