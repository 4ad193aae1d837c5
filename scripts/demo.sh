#!/usr/bin/env bash
# Installs what tableref needs, builds it, and runs the main job on the
# bundled demo data: the referee's verdict on one player turn in which one
# unit advances, one reforms and one marches 1" too far.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-debian.sh
if [ -f build/build.ninja ]; then meson setup --reconfigure build; else meson setup build; fi
meson compile -C build

echo
echo "== tableref check datasets/examples/turn/before.json datasets/examples/turn/after.json"
rc=0
./build/cli/tableref check datasets/examples/turn/before.json datasets/examples/turn/after.json || rc=$?
case $rc in
  0) echo "demo: every move legal" ;;
  1) echo "demo: the referee found an illegal move (exit status 1), as the demo turn intends" ;;
  *) echo "demo: tableref failed with exit status $rc" >&2; exit "$rc" ;;
esac
