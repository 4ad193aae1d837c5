#!/usr/bin/env bash
# The page tests under the Node.js and Chromium a fresh Debian 12 machine has.
#
# A developer's or CI machine may carry a newer Node.js than Debian 12 ships
# (NodeSource's 20, say); a test that passes there can still fail for a user
# whose Debian 12 has only Debian's nodejs 18. This script builds a minimal
# Debian 12 root with Debian's own nodejs, npm and chromium (debootstrap,
# then apt-get from Debian's archive), and a `node` wrapper that runs inside
# it, so the page tests (tests/web/*.mjs) run under exactly those.
#
#   bash scripts/debian12-node.sh run ROOT ARGS  what DIR/node runs
#   bash scripts/debian12-node.sh is-debian    exit 0 when the machine's node is Debian 12's own package
#   bash scripts/debian12-node.sh prepare DIR  builds DIR/root (once; DIR/root/.ready marks it done),
#                                              runs Debian's npm ci for web/ and tests/web/ inside it,
#                                              writes DIR/node and prints its path
#
# DIR/node behaves like `node`: it runs /usr/bin/node of the Debian root in a
# private mount namespace (unshare -m: its mounts vanish with it) where this
# checkout and /tmp are bind-mounted at their own paths, so scripts and the
# files they write keep their names. It execs all the way down, so its pid is
# node's own and a test can stop it by pid. Needs root (chroot, mount).
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
mirror=${DEBIAN12_MIRROR:-http://deb.debian.org/debian}

is_debian_node() {
  command -v node >/dev/null 2>&1 || return 1
  local maint ver
  maint=$(dpkg-query -W -f '${Maintainer}' nodejs 2>/dev/null) || return 1
  ver=$(dpkg-query -W -f '${Version}' nodejs 2>/dev/null) || return 1
  # Debian's own build: maintained by the Debian JavaScript team, a +dfsg version.
  [[ $maint == *"Debian Javascript Maintainers"* && $ver == *+dfsg* ]]
}

in_root() { # ROOT CMD...: exec CMD inside ROOT with /proc, /dev, /sys, /tmp and the checkout mounted
  local root=$1; shift
  mkdir -p "$root$repo"
  exec unshare --mount --propagation private -- /bin/sh -c '
    root=$1 repo=$2; shift 2
    mount --rbind /proc "$root/proc" && mount --rbind /dev "$root/dev" &&
    mount --rbind /sys "$root/sys" && mount --bind /tmp "$root/tmp" &&
    mount --bind "$repo" "$root$repo" || exit 125
    exec chroot "$root" "$@"' sh "$root" "$repo" "$@"
}

run_node() { # ROOT ARGS...: Debian's node in ROOT, in the caller's working directory, as the same pid
  local root=$1; shift
  in_root "$root" /bin/sh -c 'cd "$0" || exit 125; exec /usr/bin/node "$@"' "$PWD" "$@"
}

prepare() {
  local dir=$1 root
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  root=$dir/root
  if [ ! -f "$root/.ready" ]; then
    rm -rf "$root"
    command -v debootstrap >/dev/null || { echo "debootstrap is missing: apt-get install debootstrap" >&2; exit 1; }
    echo "debian12-node: debootstrap bookworm (minbase) into $root" >&2
    debootstrap --variant=minbase bookworm "$root" "$mirror" > "$dir/debootstrap.log" 2>&1 ||
      { tail -n 20 "$dir/debootstrap.log" >&2; exit 1; }
    # A fresh Debian 12 machine also takes its security updates (nodejs 18.20.4 comes from there).
    cat > "$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
    cp /etc/resolv.conf "$root/etc/resolv.conf" 2>/dev/null || true
    # The machine's own local certificate authorities (a proxy's, on a network that has one) go
    # along, as they would on a machine of that network; Debian's ca-certificates adds them.
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/" 2>/dev/null || true
    (in_root "$root" /bin/sh -c 'export DEBIAN_FRONTEND=noninteractive;
      apt-get update -q && apt-get install -y -q --no-install-recommends nodejs npm chromium ca-certificates &&
      update-ca-certificates' \
      > "$dir/apt.log" 2>&1) || { tail -n 20 "$dir/apt.log" >&2; exit 1; }
    touch "$root/.ready"
  fi
  # Debian's npm (9.2) installs the lock files' pins, as it would on a fresh machine.
  local sub
  for sub in web tests/web; do
    (in_root "$root" /bin/sh -c 'cd "$1" && npm ci --no-audit --no-fund --loglevel=error' sh "$repo/$sub" >&2)
  done
  printf '#!/bin/sh\n# node from the Debian 12 root %s (scripts/debian12-node.sh)\nexec bash %s run %s "$@"\n' \
    "$root" "$repo/scripts/debian12-node.sh" "$root" > "$dir/node"
  chmod +x "$dir/node"
  echo "debian12-node: $("$dir/node" --version) and $( (in_root "$root" /usr/bin/chromium --version) 2>/dev/null | head -n 1)" >&2
  echo "$dir/node"
}

case ${1:-} in
  is-debian) is_debian_node ;;
  run) [ $# -ge 2 ] || exit 2; shift; run_node "$@" ;;
  prepare) [ $# -eq 2 ] || { echo "usage: $0 prepare DIR" >&2; exit 2; }; prepare "$2" ;;
  *) echo "usage: $0 is-debian | prepare DIR" >&2; exit 2 ;;
esac
