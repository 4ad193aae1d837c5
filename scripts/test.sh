#!/usr/bin/env bash
# Installs what tableref needs, builds it, and runs every test suite twice:
# once in a normal build and once under AddressSanitizer and
# UndefinedBehaviorSanitizer (and the rules' suites once more in a build with
# a dummy rule added, -Dtest_rule=true); then fuzzes each reader once (tests/fuzz/run.sh,
# each fuzz target counted as one test). Ends with one line
# "tests: N passed, M failed".
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup-debian.sh
bash scripts/setup-web.sh    # the judge page's MQTT client and the page test's playwright-core (npm)

# The page tests run under the Node.js and Chromium a fresh Debian 12 machine has. On a machine
# whose node is not Debian's own (NodeSource's 20, say) they run in a minimal Debian 12 root
# (scripts/debian12-node.sh, as root), so a newer node here cannot hide what fails there.
if bash scripts/debian12-node.sh is-debian; then
  echo "page tests: this machine's Debian node $(node --version)"
elif [ "$(id -u)" -eq 0 ]; then
  TABLEREF_NODE=$(bash scripts/debian12-node.sh prepare build-debian12)
  export TABLEREF_NODE
  echo "page tests: Debian 12's node $("$TABLEREF_NODE" --version) ($TABLEREF_NODE)"
else
  echo "page tests: this machine's node $(node --version), not Debian 12's (run as root to test under Debian 12's)"
fi

summary=$(mktemp)
trap 'rm -f "$summary"' EXIT

run_build() {
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@"
  else
    rm -rf "$dir"
    meson setup "$dir" "$@"
  fi
  meson compile -C "$dir"
  local rc=0
  meson test -C "$dir" --print-errorlogs --num-processes "$(nproc)" || rc=$?
  python3 scripts/count_tests.py "$dir/meson-logs/testlog.json" >> "$summary"
  return $rc
}

# A test build with a dummy rule added as a file pair and a row (issue 27: tests/rule_dummy.c, its row of
# rules/rules_moves.def): the rules' suites, rule_table walking every row, the dummy's too.
run_rule_build() {
  local dir=build-rule
  if [ -f "$dir/build.ninja" ]; then meson setup --reconfigure "$dir" -Dtest_rule=true; else
    rm -rf "$dir"; meson setup "$dir" -Dtest_rule=true; fi
  meson compile -C "$dir"
  local rc=0
  meson test -C "$dir" --suite rules --print-errorlogs --num-processes "$(nproc)" || rc=$?
  python3 scripts/count_tests.py "$dir/meson-logs/testlog.json" >> "$summary"
  return $rc
}

status=0
run_build build || status=1
run_rule_build || status=1
# Leak checking stays on; the suppressions cover only third-party libraries.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}
# The closed-loop hard-set turn (tests/test_watch_loop_hard.c) renders a smaller crop under the sanitizers:
# the same units, hands and moves, less table around them.
export TABLEREF_LOOP_HARD_MARGIN=${TABLEREF_LOOP_HARD_MARGIN:-40}
run_build build-sanitize -Db_sanitize=address,undefined -Db_lundef=false || status=1

# Fuzzing (issue 10): every reader of outside input for FUZZ_SECONDS (60) each,
# once, in a third build (clang + libFuzzer); tests/fuzz/run.sh says how.
fuzz_targets=6
fuzz_failed=0
if bash tests/fuzz/run.sh; then :; else
  fuzz_failed=$(tail -n 1 build-fuzz/fuzz-summary.txt 2>/dev/null || echo "$fuzz_targets")
  status=1
fi
echo "$((fuzz_targets - fuzz_failed)) $fuzz_failed" >> "$summary"

awk '{p += $1; f += $2} END {printf "tests: %d passed, %d failed\n", p, f}' "$summary"
exit $status
