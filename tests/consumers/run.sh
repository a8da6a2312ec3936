#!/usr/bin/env bash
# The consumer tests (tests/consumers/CMakeLists.txt registers them with ctest):
#   run.sh subdirectory|install|fetchcontent SOURCE_DIR WORK_DIR VERSION [cmake args...]
# Each configures a small game project of this folder, builds it (-j2) and runs its
# programs: pace_frames paces the worked timeline with the core in virtual time and checks
# it; game_engine (where framepacer::engine was built) prints its --version.
#   install:      also needs FRAMEPACER_BUILD_DIR (the built framepacer to `cmake --install`)
#                 and checks framepacer.pc by compiling pace_frames with `pkg-config` alone.
#   fetchcontent: fetches the commit SOURCE_DIR's git HEAD points at (not uncommitted changes);
#                 exit 77 (skipped) where SOURCE_DIR is no git work tree.
set -euo pipefail
mode="$1" src="$2" work="$3" version="$4"
shift 4
here="$src/tests/consumers"
cmake="${CMAKE_COMMAND:-cmake}"
mkdir -p "$work"
build="$work/$mode"

# The libraries a game links read no environment variable that arms a fault: FP_FAULT is
# the samples' (renderer/README.md, "Fault injection"). Every framepacer archive under $1
# is checked; none found where game_engine was built is a failure.
check_no_fault_switch() {
  local found=0 lib
  while IFS= read -r lib; do
    found=1
    if grep -q FP_FAULT "$lib"; then echo "run.sh: $lib reads FP_FAULT" >&2; exit 1; fi
  done < <(find "$1" -name 'libframepacer_*.a' -o -name 'libframepacer_*.so*')
  if [ "$found" = 0 ] && [ -x "$build/game_engine" ]; then
    echo "run.sh: no framepacer library under $1 to check" >&2; exit 1
  fi
  [ "$found" = 0 ] || echo "consumer $mode: no FP_FAULT in the framepacer libraries"
}

run_programs() {
  local out
  "$build/pace_frames" "$version"
  [ ! -x "$build/pace_frames_sim" ] || "$build/pace_frames_sim" "$version"
  [ ! -x "$build/game" ] || "$build/game"
  if [ -x "$build/game_engine" ]; then
    out="$("$build/game_engine" --version)"
    echo "$out"
    [ "$out" = "game_engine $version" ] || { echo "run.sh: game_engine --version printed '$out'" >&2; exit 1; }
  fi
}

case "$mode" in
  subdirectory)
    "$cmake" -S "$here/subdirectory" -B "$build" -DFRAMEPACER_SOURCE_DIR="$src" "$@"
    "$cmake" --build "$build" -j2
    run_programs
    check_no_fault_switch "$build"
    ;;
  install)
    prefix="$work/install-prefix"
    rm -rf "$prefix" "$build"
    "$cmake" --install "$FRAMEPACER_BUILD_DIR" --prefix "$prefix" >/dev/null
    "$cmake" -S "$here/install" -B "$build" -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF \
      -DEXPECTED_VERSION="$version" "$@"
    "$cmake" --build "$build" -j2
    run_programs
    check_no_fault_switch "$prefix"
    # pkg-config alone: no CMake on the consumer's side.
    pc="$(find "$prefix" -name framepacer.pc)"
    case "$pc" in "$prefix"/lib*/pkgconfig/framepacer.pc) ;; *) echo "run.sh: framepacer.pc at '$pc'" >&2; exit 1 ;; esac
    export PKG_CONFIG_PATH="$(dirname "$pc")"
    pcver="$(pkg-config --modversion framepacer)"
    [ "$pcver" = "$version" ] || { echo "run.sh: pkg-config says version '$pcver'" >&2; exit 1; }
    flags="$(pkg-config --cflags --libs framepacer)"
    echo "pkg-config framepacer: $flags"
    # shellcheck disable=SC2086
    "${CXX:-c++}" -std=c++20 -DPACE_WITH_SIM_AND_FORMATS "$here/common/pace_frames.cpp" $flags -o "$build/pace_frames_pc"
    "$build/pace_frames_pc" "$version"
    ;;
  fetchcontent)
    commit="$(git -C "$src" rev-parse HEAD 2>/dev/null)" || { echo "run.sh: $src is not a git work tree: skipped"; exit 77; }
    if [ -n "$(git -C "$src" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
      echo "run.sh: note: uncommitted changes in $src are not part of the fetched commit $commit"
    fi
    "$cmake" -S "$here/fetchcontent" -B "$build" -DFRAMEPACER_GIT="file://$src" -DFRAMEPACER_COMMIT="$commit" \
      -DCMAKE_DISABLE_FIND_PACKAGE_Vulkan=ON -DCMAKE_DISABLE_FIND_PACKAGE_glfw3=ON \
      -DCMAKE_DISABLE_FIND_PACKAGE_spdlog=ON -DCMAKE_DISABLE_FIND_PACKAGE_CLI11=ON "$@"
    "$cmake" --build "$build" -j2
    run_programs
    ;;
  *) echo "usage: run.sh subdirectory|install|fetchcontent SOURCE_DIR WORK_DIR VERSION [cmake args...]" >&2; exit 2 ;;
esac
echo "consumer $mode: ok"
