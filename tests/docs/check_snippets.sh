#!/usr/bin/env bash
# Compiles every ```cpp block of a Markdown file against the framepacer core, so that the
# guide cannot drift from the code (ctest: doc_integration_snippets).
#   check_snippets.sh MARKDOWN_FILE OUT_DIR HARNESS.hpp CXX [compile flags...] -- [libraries...]
# A block that defines main() is compiled as a file of its own after the harness (syntax
# only: it may need the Vulkan engine). Any other block becomes the body of a function in
# namespace game (snippet_harness.hpp: the game's clock, swapchain, world, waiter and log on
# a virtual clock), is linked with the libraries and run; the harness's verdict() must pass.
# Compiler messages point at the Markdown lines (#line).
set -euo pipefail
doc="$1" out="$2" harness="$3" cxx="$4"
shift 4
flags=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do flags+=("$1"); shift; done
[ $# -gt 0 ] && shift
libs=("$@")
rm -rf "$out" && mkdir -p "$out"

# Each block to OUT/block_<first line>.txt.
awk -v out="$out" '
  /^```cpp[[:space:]]*$/ { inside = 1; start = NR + 1; file = sprintf("%s/block_%d.txt", out, start); printf "" > file; next }
  /^```[[:space:]]*$/ && inside { inside = 0; close(file); next }
  inside { print > file }
' "$doc"

name="$(basename "$doc")"
pass=0 fail=0
for block in $(ls "$out"/block_*.txt | sort -t_ -k2 -n); do
  line="${block##*_}" && line="${line%.txt}"
  src="$out/snippet_$line.cpp"
  if grep -q 'int main(' "$block"; then
    { echo "#include \"$harness\""; echo "#line $line \"$doc\""; cat "$block"; } > "$src"
    if "$cxx" "${flags[@]}" -fsyntax-only "$src" 2> "$out/snippet_$line.err"; then
      echo "$name:$line: compiles (a whole program: syntax only)"; pass=$((pass + 1))
    else
      cat "$out/snippet_$line.err" >&2; echo "$name:$line: FAILED to compile" >&2; fail=$((fail + 1))
    fi
    continue
  fi
  { echo "#include \"$harness\""; echo "namespace game {"; echo "void snippet() {"
    echo "#line $line \"$doc\""; cat "$block"
    echo "}"; echo "}  // namespace game"
    echo "int main() { game::snippet(); return game::verdict(); }"; } > "$src"
  if ! "$cxx" "${flags[@]}" "$src" "${libs[@]}" -o "$out/snippet_$line" 2> "$out/snippet_$line.err"; then
    cat "$out/snippet_$line.err" >&2; echo "$name:$line: FAILED to compile" >&2; fail=$((fail + 1))
    continue
  fi
  if result="$(timeout 20 "$out/snippet_$line" 2>&1)"; then
    echo "$name:$line: compiles and runs: $result"; pass=$((pass + 1))
  else
    echo "$result" >&2; echo "$name:$line: FAILED when run" >&2; fail=$((fail + 1))
  fi
done
echo "$name: $pass snippets ok, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
