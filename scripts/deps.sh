#!/usr/bin/env bash
# Installs the Debian packages the project needs (only what is missing).
# Usage: scripts/deps.sh [core|all]   core: compiler, CMake, GoogleTest, Google Benchmark
#                                    all (default): plus Vulkan, GLFW, spdlog, lavapipe, Xvfb
set -euo pipefail
core=(g++ cmake make libgtest-dev libgmock-dev libbenchmark-dev)
graphics=(libvulkan-volk-dev libvulkan-dev libglfw3-dev libspdlog-dev glslang-tools
          mesa-vulkan-drivers vulkan-validationlayers xvfb xauth)
want=("${core[@]}")
[ "${1:-all}" = core ] || want+=("${graphics[@]}")
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "deps: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
