#!/usr/bin/env bash
# Are the synthetic tables bit for bit the same on x86-64 and on arm64? Prints one line per generated table:
# the sha256 of its truth (snapshot.json, truth.json, roster.json, calib.json) and of its picture (image.jpg),
# rendered by the native build and by the arm64 cross build under qemu-user (scripts/test-arm64.sh makes it).
#
#   bash scripts/arm64-generate-hash.sh                     hard:1..5 and minis:1..4, both machines
#   bash scripts/arm64-generate-hash.sh minis:1 hard:3      only these tables
#   ARM64_HASH_ONLY=native bash scripts/arm64-generate-hash.sh   one machine only (native or arm64)
#
# Environment: NATIVE_BUILD (default build/), ARM64_DIR (default build-arm64/), ARM64_HASH_CROP (the part of
# the frame rendered, default 800x800+1600+900, around the principal point of the
# 12 MP and the 4K webcam tables alike: the whole 12 MP frame takes minutes under qemu; the truth of every model
# is written whatever the crop), ARM64_HASH_TIMEOUT (seconds per table under qemu, default 1200).
# Exit status: 0 when every table's hashes agree (or only one machine was asked), 1 when one differs.
# Why: the generators' accept/reject loops turn a last bit of a libm result into another table
# (datasets/ds_math.h, docs/arm64.md); the tests that state exact counts on a generated table need the same
# table on both machines.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
native=${NATIVE_BUILD:-$repo/build}/cli/tableref
arm64=${ARM64_DIR:-$repo/build-arm64}/build/cli/tableref-run
crop=${ARM64_HASH_CROP:-800x800+1600+900}
limit=${ARM64_HASH_TIMEOUT:-1200}
only=${ARM64_HASH_ONLY:-}
tables=("$@")
[ ${#tables[@]} -gt 0 ] || tables=(hard:1 hard:2 hard:3 hard:4 hard:5 minis:1 minis:2 minis:3 minis:4)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

hashes() { # DIR -> "truth=HASH pixels=HASH"
  local t p
  t=$(cat "$1/snapshot.json" "$1/truth.json" "$1/roster.json" "$1/calib.json" | sha256sum | cut -c1-16)
  p=$(sha256sum "$1/image.jpg" | cut -c1-16)
  echo "truth=$t pixels=$p"
}

render() { # MACHINE BIN TABLE -> hashes, and the CPU seconds on stderr
  local out=$work/$1-${3/:/-} started
  rm -rf "$out"
  started=$(date +%s)
  if [ "$1" = arm64 ]; then
    nice -n 19 timeout "$limit" "$2" render --generate "$3" --crop "$crop" --out "$out" >/dev/null
  else
    "$2" render --generate "$3" --crop "$crop" --out "$out" >/dev/null
  fi || { echo "arm64-generate-hash: $1 render --generate $3 failed" >&2; echo "failed"; return 0; }
  echo "$(hashes "$out") $(($(date +%s) - started))s"
}

status=0
for table in "${tables[@]}"; do
  line="$table"
  a="" b=""
  if [ "$only" != arm64 ]; then
    [ -x "$native" ] || { echo "arm64-generate-hash: no $native (meson compile -C build)" >&2; exit 2; }
    a=$(render native "$native" "$table"); line="$line  x86-64 ${a}"
  fi
  if [ "$only" != native ]; then
    [ -x "$arm64" ] || { echo "arm64-generate-hash: no $arm64 (bash scripts/test-arm64.sh --build-only)" >&2; exit 2; }
    b=$(render arm64 "$arm64" "$table"); line="$line  arm64 ${b}"
  fi
  if [ -n "$a" ] && [ -n "$b" ]; then
    if [ "$a" = failed ] || [ "$b" = failed ]; then line="$line  FAILED"; status=1
    elif [ "${a% *}" = "${b% *}" ]; then line="$line  same"; else line="$line  DIFFERENT"; status=1; fi
  fi
  echo "$line"
done
exit $status
