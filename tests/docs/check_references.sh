#!/usr/bin/env bash
# Every Markdown document a file of the repository names must be in the repository: the
# docs stand alone (ctest: doc_references). A name resolves against the repository root,
# the naming file's folder or docs/; out/ and DIR/ are outputs a script writes.
#   check_references.sh SOURCE_DIR
set -euo pipefail
cd "$1"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files() { git ls-files; }
else
  files() { find . -type f -not -path './build*' -not -path './.git/*' -not -path './out/*' | sed 's|^\./||'; }
fi
bad=0 seen=0
while IFS= read -r file; do
  case "$file" in traces/*|fuzz/corpus/*) continue ;; esac
  [ -f "$file" ] || continue
  dir="$(dirname "$file")"
  while IFS=: read -r line ref; do
    seen=$((seen + 1))
    ref="${ref#/}"   # a CMake "${PROJECT_SOURCE_DIR}/docs/<name>"; a path outside still fails
    case "$ref" in out/*|DIR/*) continue ;; esac
    if [ -f "$ref" ] || [ -f "$dir/$ref" ] || [ -f "docs/$ref" ]; then continue; fi
    echo "$file:$line: '$ref' is not a file of the repository" >&2
    bad=$((bad + 1))
  done < <(grep -noE '[A-Za-z0-9_./-]*[A-Za-z0-9_-]+\.md\b' "$file" 2>/dev/null || true)
done < <(files)
echo "doc references: $seen checked, $bad outside the repository"
[ "$bad" -eq 0 ]
