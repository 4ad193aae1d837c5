#!/usr/bin/env bash
# Fuzzes every reader of outside input (tests/fuzz/fuzz_*.c) with libFuzzer
# for FUZZ_SECONDS each (default 60), from its corpus in
# tests/fuzz/corpus/NAME, under AddressSanitizer and UndefinedBehaviorSanitizer
# (every report aborts). Inputs that reach new code are merged into that
# corpus: commit them, and the corpus grows in the repository.
#
#   bash tests/fuzz/run.sh                 # all targets, 60 s each
#   FUZZ_SECONDS=600 bash tests/fuzz/run.sh roster image
#
# Builds with clang in build-fuzz (FUZZ_BUILD), the whole project
# instrumented for coverage (-fsanitize=fuzzer-no-link). A crash, a leak, a
# hang over 10 s or a sanitizer report fails the run; the input that did it
# is kept as build-fuzz/fuzz-NAME-crash-* (replay it with
# build/tests/fuzz/fuzz_replay_NAME FILE). Ends with one line
# "fuzz: N targets, M failed".
set -euo pipefail
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SECONDS:-60}
dir=${FUZZ_BUILD:-build-fuzz}
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(snapshot roster calibration scene image report)
fi
if ! command -v clang >/dev/null || ! command -v clang++ >/dev/null; then
  echo "fuzz: clang not found (scripts/setup-debian.sh installs clang and libclang-rt-14-dev)" >&2
  exit 1
fi

flags="-fsanitize=fuzzer-no-link -fno-sanitize-recover=all"
if [ ! -f "$dir/build.ninja" ]; then
  rm -rf "$dir"
  CC=clang CXX=clang++ meson setup "$dir" -Dfuzz=true -Db_sanitize=address,undefined -Db_lundef=false \
    -Dc_args="$flags" -Dcpp_args="$flags" >/dev/null
fi
meson compile -C "$dir" $(printf 'fuzz_%s ' "${targets[@]}")

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$PWD/tests/lsan.supp}

failed=0
for t in "${targets[@]}"; do
  corpus=tests/fuzz/corpus/$t
  found=$(mktemp -d)
  before=$(ls "$corpus" | wc -l)
  echo "fuzz: $t for ${seconds} s from $before inputs"
  if ! "$dir/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2560 -max_len=16384 \
       -print_final_stats=1 -artifact_prefix="$dir/fuzz-$t-" "$found" "$corpus" >"$dir/fuzz-$t.log" 2>&1; then
    failed=$((failed + 1))
    echo "fuzz: $t FAILED; the input is in $dir/fuzz-$t-*, the log in $dir/fuzz-$t.log" >&2
    grep -E "ERROR|SUMMARY|runtime error|==[0-9]+==" "$dir/fuzz-$t.log" | head -20 >&2 || true
  fi
  grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$dir/fuzz-$t.log" | sed "s/^/fuzz: $t /" || true
  # Keep what reached new code: merged (minimised by coverage) into the repository's corpus.
  "$dir/tests/fuzz/fuzz_$t" -merge=1 -timeout=10 -max_len=16384 "$corpus" "$found" >/dev/null 2>&1 || true
  echo "fuzz: $t corpus $before -> $(ls "$corpus" | wc -l) inputs"
  rm -rf "$found"
done
echo "$failed" >"$dir/fuzz-summary.txt"
echo "fuzz: ${#targets[@]} targets, $failed failed"
[ "$failed" -eq 0 ]
