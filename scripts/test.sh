#!/usr/bin/env bash
# The test command: installs what it needs, configures, builds and runs every test
# (the core in virtual time, the engine loop, and the Vulkan tests on lavapipe under Xvfb).
# Usage: scripts/test.sh            build dir: build/
#        FP_SANITIZE=address scripts/test.sh   (or thread) - a sanitizer build in build-address/ ...
#          address: ASan + UBSan (float-cast-overflow too), every test, Vulkan ones included;
#          lavapipe stays mapped in the Vulkan tests so LeakSanitizer sees its state (cmake/lsan.supp)
#        FP_CORE_ONLY=1 scripts/test.sh        - the pacer core alone, no graphics packages
set -euo pipefail
cd "$(dirname "$0")/.."
san="${FP_SANITIZE:-}"
core_only="${FP_CORE_ONLY:-0}"
if [ "$core_only" = 1 ]; then scripts/deps.sh core; else scripts/deps.sh all; fi
build="build${san:+-$san}"
[ "$core_only" = 1 ] && build="$build-core"
graphics=ON; [ "$core_only" = 1 ] && graphics=OFF
cmake -S . -B "$build" -DFP_SANITIZE="$san" -DFRAMEPACER_WITH_GRAPHICS=$graphics -DFRAMEPACER_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" -j2
cd "$build"
# address: the tests carry their ASan / LSan / UBSan options themselves (tests/CMakeLists.txt).
if [ "$san" = thread ]; then
  export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"
fi
if [ "$graphics" = ON ] && [ -z "${DISPLAY:-}" ]; then
  # The Vulkan tests open real GLFW windows: give them a virtual X server.
  exec xvfb-run -a -s "-screen 0 1280x720x24" ctest --output-on-failure
fi
exec ctest --output-on-failure
