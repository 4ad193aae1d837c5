#!/bin/sh
# Regenerates the bundled examples into a temporary folder and compares them
# with the committed ones. Usage: check_examples.sh MAKE_EXAMPLES EXAMPLES_DIR
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$1" "$tmp"
status=0
for f in "$tmp"/*/*.json; do
  rel=${f#"$tmp"/}
  if ! cmp -s "$f" "$2/$rel"; then
    echo "datasets/examples/$rel differs from what tests/make_examples.c generates;"
    echo "  regenerate with: build/tests/make_examples datasets/examples"
    status=1
  fi
done
[ $status -eq 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $status
