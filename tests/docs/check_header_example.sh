#!/usr/bin/env bash
# check_header_example.sh SRC HEADER: the code between the two "// [example]" lines of SRC
# (a built test) appears word for word in HEADER's opening comment, each line as "//   CODE"
# (an empty line as "//"): a public header's usage example cannot drift from code that builds.
set -euo pipefail
src="$1" header="$2"
example="$(sed -n '/^\/\/ \[example\]$/,/^\/\/ \[example\]$/p' "$src" | sed '1d;$d' | sed -e 's|^|//   |' -e 's|^//   $|//|')"
[ -n "$example" ] || { echo "$src: no pair of '// [example]' lines" >&2; exit 1; }
comment="$(sed '/^#pragma once/,$d' "$header")"
if [[ "$comment" != *"$example"* ]]; then
  echo "$header does not quote the example of $src as it is" >&2
  exit 1
fi
echo "$header quotes $src"
