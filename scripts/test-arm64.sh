#!/usr/bin/env bash
# tableref on 64-bit ARM (a Raspberry Pi 5's aarch64): cross-built with Debian 12's arm64 packages and its
# test suites run under qemu-user, on an x86-64 Debian 12 machine.
#
#   bash scripts/test-arm64.sh                 sysroot (once), cross build, every suite under qemu
#   bash scripts/test-arm64.sh SUITE...        only these meson suites (rules, vision, overlay, ...)
#   bash scripts/test-arm64.sh --test=NAME...  only these test programs (vision_rim, venue_load, ...); meson
#                                              takes either names or suites in one run, not both
#   bash scripts/test-arm64.sh --build-only    sysroot and cross build, no test
#   bash scripts/test-arm64.sh --list          the suites the cross build has
#   bash scripts/test-arm64.sh --summary       the table of suites of the last run again
#
# Environment: ARM64_DIR (default build-arm64/, ignored by git), DEBIAN12_MIRROR, ARM64_JOBS (compile, default 2),
# ARM64_TEST_JOBS (meson test's processes, default 2), ARM64_TIMEOUT_MULTIPLIER (meson test's, default 10: qemu
# runs arm64 code 5-20x slower than the machine runs its own; also Criterion's timeouts, through the exec shim,
# and the tests' own wall-clock waits, exported as TABLEREF_TEST_TIME_SCALE), ARM64_NICE (the niceness of meson
# test and the programs under qemu, default 19: the emulated suites take hours and should not slow the machine's
# own work).
#
# How it is made, and why so (docs/arm64.md says more):
# - The sysroot, $ARM64_DIR/sysroot, is Debian 12's arm64 packages unpacked with `dpkg-deb -x`. apt resolves
#   and downloads them with a private state directory ($ARM64_DIR/apt: its own sources, lists, cache and an
#   empty dpkg status, APT::Architecture=arm64), so the machine's dpkg is never touched: no
#   `dpkg --add-architecture`, nothing installed. No maintainer script runs (none could, without binfmt);
#   what they would have done that the build needs (the BLAS/LAPACK alternatives' links) is done here, and
#   every absolute symbolic link is made relative, so both the cross linker and qemu resolve it inside the
#   sysroot. mmdebstrap --variant=extract would do the same with one more tool to install; debootstrap
#   --foreign would unpack a whole base system we do not need.
# - Debian's cross compilers (gcc-aarch64-linux-gnu, g++-aarch64-linux-gnu) with --sysroot, and a meson cross
#   file ($ARM64_DIR/cross.ini) whose exe_wrapper is `qemu-aarch64 -L SYSROOT`: meson test runs each arm64
#   test program under qemu-user, with no binfmt_misc registration (which would change the machine's kernel).
# - An arm64 program that execs another (Criterion re-executes its test program for every test; a test
#   starts tableref or a driver with execv) would hand the kernel an arm64 file: the exec shim
#   (scripts/arm64-exec-shim.c, preloaded in every arm64 program) runs it under the same qemu instead.
#   A test that starts one through the shell (system(), popen()) or a build step that runs tableref gets
#   TABLEREF_BIN and the like pointing at small scripts that do the same (the cross file's run_wrapper,
#   tests/meson.build). Host tools a test calls (sh, ffprobe, mosquitto, pdftoppm, node, chromium) run
#   natively: the sysroot has no /bin/sh, so qemu's execve of /bin/sh reaches the machine's own.
# Idempotent: the sysroot is made once ($ARM64_DIR/sysroot/.ready marks it done; delete it to remake), the
# build is reconfigured, not remade.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${ARM64_DIR:-$repo/build-arm64}
mirror=${DEBIAN12_MIRROR:-http://deb.debian.org/debian}
jobs=${ARM64_JOBS:-2}
started=$(date +%s)

# Debian 12's arm64 packages the build needs (scripts/setup-debian.sh's -dev list). OpenCV: its five modules
# tableref links (meson.build) with their dependencies; libopencv-dev itself (opencv4.pc and the umbrella
# headers) is unpacked without its dependencies, which are every other OpenCV module (VTK, GStreamer, ...).
packages=(
  libc6-dev libstdc++-12-dev libcjson-dev libcriterion-dev libapriltag-dev
  libopencv-core-dev libopencv-imgproc-dev libopencv-calib3d-dev libopencv-features2d-dev libopencv-flann-dev
  libcairo2-dev libpango1.0-dev libcamera-dev libmosquitto-dev libturbojpeg0-dev libssl-dev
  libxml2-dev libzip-dev libpng-dev zlib1g-dev libx11-dev
  libavformat-dev libavcodec-dev libavutil-dev libswscale-dev
  fonts-dejavu-core
)
nodeps_packages=(libopencv-dev)

die() { echo "test-arm64: $*" >&2; exit 1; }

need_tools() {
  local missing=() t pkg
  for t in aarch64-linux-gnu-gcc:gcc-aarch64-linux-gnu aarch64-linux-gnu-g++:g++-aarch64-linux-gnu \
           qemu-aarch64:qemu-user meson:meson ninja:ninja-build apt-get:apt dpkg-deb:dpkg \
           pkg-config:pkg-config file:file python3:python3 realpath:coreutils; do
    pkg=${t#*:}; t=${t%%:*}
    command -v "$t" >/dev/null 2>&1 || missing+=("$t (apt-get install $pkg)")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    printf 'test-arm64: missing tool: %s\n' "${missing[@]}" >&2
    echo "test-arm64: apt-get install gcc-aarch64-linux-gnu g++-aarch64-linux-gnu qemu-user" >&2
    exit 1
  fi
}

apt_private() { # apt-get with its own state under $dir/apt, for arm64, the machine's dpkg untouched
  local a=$dir/apt
  apt-get -q -o APT::Architecture=arm64 -o APT::Architectures::=arm64 \
    -o Dir::State="$a/state" -o Dir::State::status="$a/status" -o Dir::Cache="$a/cache" \
    -o Dir::Etc::sourcelist="$a/sources.list" -o Dir::Etc::sourceparts="$a/sources.list.d" \
    -o Dir::Etc::preferences="$a/preferences" -o Dir::Etc::preferencesparts="$a/preferences.d" \
    -o APT::Install-Recommends=false -o Debug::NoLocking=true "$@"
}

relink_absolute() { # every absolute symbolic link in the sysroot made relative, so it stays inside it
  local root=$1 link target rel
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    [[ $target == /* ]] || continue
    rel=$(realpath -m --relative-to="$(dirname "$link")" "$root$target")
    ln -sfn "$rel" "$link"
  done < <(find "$root" -type l -print0)
}

make_sysroot() {
  local root=$dir/sysroot a=$dir/apt deb
  [ -f "$root/.ready" ] && return 0
  echo "test-arm64: making the arm64 sysroot in $root (Debian 12 packages, once)" >&2
  rm -rf "$root"
  mkdir -p "$a/state/lists/partial" "$a/cache/archives/partial" "$a/sources.list.d" "$a/preferences.d" \
    "$a/nodeps" "$root"
  : > "$a/status"
  : > "$a/preferences"
  cat > "$a/sources.list" <<EOF
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror bookworm-updates main
deb [arch=arm64 signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] ${mirror%/debian}/debian-security bookworm-security main
EOF
  [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] ||
    die "Debian's archive keys are missing: apt-get install debian-archive-keyring"
  apt_private update > "$dir/apt.log" 2>&1 || { tail -n 20 "$dir/apt.log" >&2; die "apt-get update failed"; }
  apt_private install -y --download-only "${packages[@]}" >> "$dir/apt.log" 2>&1 ||
    { tail -n 20 "$dir/apt.log" >&2; die "apt-get could not fetch the arm64 packages"; }
  (cd "$a/nodeps" && apt_private download "${nodeps_packages[@]}") >> "$dir/apt.log" 2>&1 ||
    { tail -n 20 "$dir/apt.log" >&2; die "apt-get could not fetch ${nodeps_packages[*]}"; }
  for deb in "$a"/cache/archives/*.deb "$a"/nodeps/*.deb; do
    dpkg-deb -x "$deb" "$root"
  done
  # What maintainer scripts would have done: the BLAS and LAPACK alternatives OpenCV links through.
  local lib=$root/usr/lib/aarch64-linux-gnu alt
  for alt in blas/libblas.so.3 lapack/liblapack.so.3 blas/libblas.so lapack/liblapack.so; do
    [ -e "$lib/$alt" ] && [ ! -e "$lib/${alt#*/}" ] && ln -s "$alt" "$lib/${alt#*/}"
  done
  relink_absolute "$root"
  # No arm64 shell: qemu's execve of /bin/sh (system(), popen()) must reach the machine's own.
  rm -f "$root/bin/sh" "$root/usr/bin/sh" "$root/bin/bash" "$root/usr/bin/bash" "$root/bin/dash" "$root/usr/bin/dash"
  ls "$a"/cache/archives/*.deb "$a"/nodeps/*.deb | sed 's#.*/##' > "$root/.packages"
  touch "$root/.ready"
  echo "test-arm64: sysroot ready: $(wc -l < "$root/.packages") packages, $(du -sh "$root" | cut -f1)" >&2
}

write_cross_file() {
  local root=$dir/sysroot
  # The wrapper the tests start arm64 programs through (tests/meson.build's run_wrapper property).
  local qemu shim=$dir/exec-shim.so
  qemu=$(command -v qemu-aarch64)
  # The exec shim (scripts/arm64-exec-shim.c says why): an arm64 program that execs another runs it under qemu.
  aarch64-linux-gnu-gcc --sysroot="$root" -shared -fPIC -O2 -Wall -Wextra -DSHIM_SYSROOT="\"$root\"" \
    -DSHIM_SELF="\"$shim\"" -DSHIM_QEMU="\"$qemu\"" -DSHIM_TIMEOUT_SCALE="${ARM64_TIMEOUT_MULTIPLIER:-10}" \
    "$repo/scripts/arm64-exec-shim.c" -o "$shim" -ldl ||
    die "could not build the exec shim"
  # The wrapper the tests start arm64 programs through (the cross file's run_wrapper, tests/meson.build).
  cat > "$dir/run-arm64" <<EOF
#!/bin/sh
# Runs an arm64 program of this build under qemu-user with the arm64 sysroot (scripts/test-arm64.sh).
exec '$qemu' -L '$root' -E 'LD_PRELOAD=$shim' "\$@"
EOF
  chmod +x "$dir/run-arm64"
  cat > "$dir/cross.ini" <<EOF
# Made by scripts/test-arm64.sh: Debian 12's aarch64 cross compilers, the arm64 sysroot, qemu-user.
[constants]
sysroot = '$root'

[binaries]
c = ['aarch64-linux-gnu-gcc', '--sysroot=' + sysroot]
cpp = ['aarch64-linux-gnu-g++', '--sysroot=' + sysroot]
ar = 'aarch64-linux-gnu-ar'
strip = 'aarch64-linux-gnu-strip'
pkgconfig = 'pkg-config'   # meson 1.0's name for it (1.3 also reads pkg-config)
exe_wrapper = ['$qemu', '-L', sysroot, '-E', 'LD_PRELOAD=$shim']

[properties]
sys_root = sysroot
pkg_config_libdir = [sysroot + '/usr/lib/aarch64-linux-gnu/pkgconfig', sysroot + '/usr/share/pkgconfig']
run_wrapper = '$dir/run-arm64'

[host_machine]
system = 'linux'
cpu_family = 'aarch64'
cpu = 'cortex-a76'
endian = 'little'
EOF
}

build() {
  local b=$dir/build
  write_cross_file
  if [ -f "$b/build.ninja" ]; then
    meson setup --reconfigure --cross-file "$dir/cross.ini" "$b" "$repo" > "$dir/setup.log" 2>&1 ||
      { tail -n 30 "$dir/setup.log" >&2; die "meson setup failed ($dir/setup.log)"; }
  else
    meson setup --cross-file "$dir/cross.ini" "$b" "$repo" > "$dir/setup.log" 2>&1 ||
      { tail -n 30 "$dir/setup.log" >&2; die "meson setup failed ($dir/setup.log)"; }
  fi
  grep -E "^  (vision|libcamera|overlay|venue|armylist)|Run-time dependency|NO$" "$dir/setup.log" | grep -i " NO" >&2 || true
  echo "test-arm64: cross build (-j$jobs), log in $dir/compile.log" >&2
  meson compile -C "$b" -j "$jobs" > "$dir/compile.log" 2>&1 ||
    { grep -E "error|Error" "$dir/compile.log" | head -n 30 >&2; die "the cross build failed ($dir/compile.log)"; }
  file -L "$b/cli/tableref" | grep -q "ARM aarch64" || die "$b/cli/tableref is not an arm64 program"
}

run_tests() { # SUITE... or --test=NAME...: meson test under qemu (all suites when none), then a summary per suite
  local b=$dir/build t0 rc=0 args=()
  for s in "$@"; do
    case $s in --test=*) args+=("${s#--test=}") ;; *) args+=(--suite "$s") ;; esac
  done
  # The judge page's MQTT client and the page tests' playwright-core (npm), as scripts/test.sh: without them the
  # venue suites' page tests fail on a fresh clone (the host's node runs them, not qemu).
  bash "$repo/scripts/setup-web.sh" >&2
  echo "test-arm64: meson test ${*:-(every suite)} under qemu-aarch64, log in $dir/test.log" >&2
  t0=$(date +%s)
  # The tests' own wall-clock limits (a reader refused "at once", a command's `timeout`) scale as meson's and
  # Criterion's do (tests/test_hostile_io.c); natively the variable is unset and they are what they say.
  TABLEREF_TEST_TIME_SCALE=${ARM64_TIMEOUT_MULTIPLIER:-10}
  export TABLEREF_TEST_TIME_SCALE
  rm -f "$b/meson-logs/testlog.json" # the summary is of this run, not of the last one
  nice -n "${ARM64_NICE:-19}" meson test -C "$b" --no-rebuild --num-processes "${ARM64_TEST_JOBS:-2}" \
    --timeout-multiplier "${ARM64_TIMEOUT_MULTIPLIER:-10}" "${args[@]}" > "$dir/test.log" 2>&1 || rc=$?
  summarize "$(( $(date +%s) - t0 ))"
  return $rc
}

summarize() { # [SECONDS]: the table of suites from meson test's log of the last run
  python3 - "$dir/build/meson-logs/testlog.json" "${1:-?}" "$(( $(date +%s) - started ))" <<'PY'
import collections, json, re, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
cases = re.compile(r"Synthesis: Tested: (\d+) \| Passing: (\d+) \| Failing: (\d+) \| Crashing: (\d+)")
per = collections.OrderedDict()
for r in rows:  # meson 1.0 names a test "project:suite / name"
    suite = r["name"].split(" / ")[0].split(":")[-1]
    c = per.setdefault(suite, collections.Counter())
    c[r["result"]] += 1
    c["time"] += r["duration"]
    for m in cases.finditer((r.get("stdout") or "") + (r.get("stderr") or "")):
        c["cases"] += int(m[1])
        c["cases_failed"] += int(m[3]) + int(m[4])
print("suite              tests  ok  fail  skip  timeout  criterion-cases(failed)  time(s)")
tot = collections.Counter()
for suite, c in per.items():
    n = sum(v for k, v in c.items() if k.isupper())
    bad = c["FAIL"] + c["ERROR"] + c["UNEXPECTEDPASS"]
    print(f"{suite:<18} {n:5d} {c['OK'] + c['EXPECTEDFAIL']:3d} {bad:5d} {c['SKIP']:5d} {c['TIMEOUT']:8d}"
          f" {c['cases']:10d} ({c['cases_failed']})            {c['time']:8.0f}")
    tot.update(c)
fails = [r["name"].split(":", 1)[-1] for r in rows if r["result"] not in ("OK", "SKIP", "EXPECTEDFAIL", "INTERRUPT")]
stopped = [r["name"].split(":", 1)[-1] for r in rows if r["result"] == "INTERRUPT"]
skips = [r["name"].split(":", 1)[-1] for r in rows if r["result"] == "SKIP"]
n = sum(v for k, v in tot.items() if k.isupper())
print(f"arm64: {len(per)} suites, {n} test programs ({tot['cases']} Criterion cases, {tot['cases_failed']} failed): "
      f"{tot['OK'] + tot['EXPECTEDFAIL']} passed, {len(fails)} failed, {len(skips)} skipped; "
      f"tests {sys.argv[2]} s, whole run {sys.argv[3]} s (wall clock)")
if fails:
    print("failed or timed out:", ", ".join(fails))
if stopped:
    print("stopped before the end (not counted as failed):", ", ".join(stopped))
if skips:
    print("skipped:", ", ".join(skips))
print(f"{tot['OK'] + tot['EXPECTEDFAIL']} passed, {len(fails)} failed, {len(skips)} skipped")
PY
}

main() {
  local build_only=0 list=0 summary_only=0 suites=()
  for a in "$@"; do
    case $a in
      --build-only) build_only=1 ;;
      --list) list=1 ;;
      --summary) summary_only=1 ;;
      -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
      --test=*) suites+=("$a") ;;
      -*) die "unknown option $a" ;;
      *) suites+=("$a") ;;
    esac
  done
  if [ $summary_only = 1 ]; then summarize; exit 0; fi
  need_tools
  mkdir -p "$dir"
  make_sysroot
  build
  if [ $list = 1 ]; then meson test -C "$dir/build" --list; exit 0; fi
  [ $build_only = 1 ] && { echo "test-arm64: built in $(( $(date +%s) - started )) s"; exit 0; }
  run_tests "${suites[@]}"
}

main "$@"
