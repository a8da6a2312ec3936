#!/usr/bin/env bash
# The real-loop benchmark: the bouncing_balls sample on the real Vulkan swapchain (lavapipe
# under Xvfb when there is no display) under each pacing policy, and a Godot 3 peer
# (bench/godot: Engine.target_fps = 60, vsync off), back to back in one run; then the
# Markdown table of build/bench/real_loop_report over their logs.
#
# Usage: bench/real_loop.sh [--frames N] [--policies P1,P2,...] [--rounds R] [--out DIR] [--no-godot]
#   defaults: 600 frames; adaptive,accumulator-capped,accumulator,flipcode; 1 round; out/real_loop
# Installs what it needs (scripts/deps.sh all, godot3 with apt-get), builds bouncing_balls
# and real_loop_report in build/, writes DIR/<policy>.csv, DIR/godot3.csv (with --rounds R:
# DIR/<name>.rK.csv, rounds interleaved, a row per run and round), each run's output in
# DIR/<name>.out, and the table in DIR/table.md.
# Exit 0 when every run and the report succeed; 2 on a usage error; 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

frames=600
policies=adaptive,accumulator-capped,accumulator,flipcode
out=out/real_loop
godot=1
rounds=1
args=("$@")
while [ $# -gt 0 ]; do
  case "$1" in
    --frames) frames="${2:?--frames needs a value}"; shift 2 ;;
    --policies) policies="${2:?--policies needs a value}"; shift 2 ;;
    --rounds) rounds="${2:?--rounds needs a value}"; shift 2 ;;
    --out) out="${2:?--out needs a value}"; shift 2 ;;
    --no-godot) godot=0; shift ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "real_loop.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
done
for n in "frames:$frames" "rounds:$rounds"; do
  case "${n#*:}" in ''|*[!0-9]*|0) echo "real_loop.sh: --${n%%:*}: expected a whole number over 0, got '${n#*:}'" >&2; exit 2 ;; esac
done
command_line="bench/real_loop.sh${args[*]:+ ${args[*]}}"

# The X server for the runs: the session's display, else one Xvfb for the whole run.
if [ -z "${FP_REAL_LOOP_INNER:-}" ]; then
  scripts/deps.sh all
  if [ "$godot" = 1 ] && ! command -v godot3 >/dev/null; then
    SUDO=""
    [ "$(id -u)" -eq 0 ] || SUDO="sudo"
    echo "real_loop: installing godot3"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq godot3 >/dev/null
  fi
  cmake -S . -B build -DFRAMEPACER_BUILD_BENCH=ON >/dev/null
  cmake --build build -j2 --target bouncing_balls real_loop_report
  export FP_REAL_LOOP_INNER=1
  if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1280x720x24" "$0" "${args[@]}"
  fi
fi

mkdir -p "$out"
out_abs=$(cd "$out" && pwd)  # Godot runs with its project folder as the working directory
sample=build/samples/bouncing_balls/bouncing_balls
report=build/bench/real_loop_report
inputs=()
failed=0
load_before=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
IFS=, read -r -a policy_list <<<"$policies"
for ((k = 1; k <= rounds; k++)); do
  suffix="" label_suffix=""
  [ "$rounds" -gt 1 ] && suffix=".r$k" label_suffix=" #$k"
  for p in "${policy_list[@]}"; do
    cmd=("$sample" --present-mode immediate --refresh-hz 60 --size 640x360 --frames "$frames"
         --policy "$p" --log "$out/$p$suffix.csv" --quiet)
    echo "run: ${cmd[*]}"
    if "${cmd[@]}" >"$out/$p$suffix.out" 2>&1; then
      inputs+=("$p$label_suffix=$out/$p$suffix.csv")
    else
      echo "real_loop: $p failed (exit $?): $(tail -n 1 "$out/$p$suffix.out")" >&2
      failed=1
    fi
  done
  if [ "$godot" = 1 ]; then
    cmd=(godot3 --path bench/godot --video-driver GLES2 --audio-driver Dummy
         "--ticks=$out_abs/godot3$suffix.csv" "--frames=$frames")
    echo "run: ${cmd[*]}"
    if timeout 300 "${cmd[@]}" >"$out/godot3$suffix.out" 2>&1; then
      inputs+=("godot3-target_fps60$label_suffix=$out/godot3$suffix.csv")
    else
      echo "real_loop: godot3 failed (exit $?): $(tail -n 1 "$out/godot3$suffix.out")" >&2
      failed=1
    fi
  fi
done
[ ${#inputs[@]} -gt 0 ] || { echo "real_loop: no run succeeded" >&2; exit 1; }

load_after=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
device=$(grep -ho "device '[^']*'" "$out"/*.out 2>/dev/null | head -n 1 || true)
godot_renderer=$(grep -ho "OpenGL ES [0-9.]* Renderer: .*" "$out"/godot3*.out 2>/dev/null | head -n 1 || true)
{
  echo "Command: \`$command_line\` ($(date -u +%Y-%m-%d), $(nproc) CPU cores, ${device:-device unknown}${godot_renderer:+; Godot: $godot_renderer}; runs back to back, rounds interleaved; load average $load_before before, $load_after after)"
  echo
  "$report" --refresh-hz 60 --warmup 60 "${inputs[@]}"
} >"$out/table.md"
cat "$out/table.md"
exit "$failed"
