#!/usr/bin/env bash
# The libFuzzer targets of fuzz/: installs clang 14 and its libFuzzer runtime (scripts/deps.sh
# fuzz), configures build-fuzz/ (clang++-14, FP_BUILD_FUZZ=ON, no graphics, no tests),
# builds the fuzzers and runs each for a bounded time from its seed corpus (fuzz/corpus/<target>/)
# with its dictionary (fuzz/<target>.dict).
# Usage: scripts/fuzz.sh [SECONDS [TARGET...]]   SECONDS per target (default 30; FP_FUZZ_SECONDS too)
# A finding (a crash, a sanitizer report, an uncaught exception, a hang over 10 s, over 2 GB)
# makes the run exit 1 (the other targets still run); libFuzzer leaves the input in build-fuzz/findings/<target>/.
# New inputs the fuzzer finds go to build-fuzz/corpus/<target>/, never into the seed corpus.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-${FP_FUZZ_SECONDS:-30}}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(fuzz_trace_reader fuzz_load_spec fuzz_display_spec fuzz_native_log)
scripts/deps.sh fuzz
build=build-fuzz
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_C_COMPILER=clang-14 \
  -DFP_BUILD_FUZZ=ON -DFRAMEPACER_WITH_GRAPHICS=OFF -DFRAMEPACER_BUILD_TESTS=OFF -DFRAMEPACER_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2 --target "${targets[@]}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}"
status=0
for t in "${targets[@]}"; do
  work="$build/corpus/$t"; findings="$build/findings/$t"
  mkdir -p "$work" "$findings"
  dict=(); [ -f "fuzz/$t.dict" ] && dict=(-dict="fuzz/$t.dict")
  echo "== $t: ${seconds} s"
  if ! "$build/fuzz/$t" "$work" "fuzz/corpus/$t" "${dict[@]}" -max_total_time="$seconds" -timeout=10 \
       -rss_limit_mb=2048 -max_len=4096 -print_final_stats=1 -artifact_prefix="$findings/" \
       >"$build/$t.log" 2>&1; then
    echo "fuzz: $t found a problem (input in $findings/):"
    grep -E "ERROR|runtime error|SUMMARY|terminate|^fuzz_[a-z_]*: |Test unit written" "$build/$t.log" | head -20
    status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$build/$t.log" | tr '\n' ' '; echo
  fi
done
exit $status
