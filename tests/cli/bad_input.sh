#!/usr/bin/env bash
# The bad-input table (docs/reliability.md): every program with bad flags, bad numbers,
# bad load specs, bad trace files and bad logs. Each case asserts the exit code and that
# stderr is ONE line "PROGRAM: ..." naming the culprit (the flag, the spec, file:line).
# No case runs more than a few frames; nothing here measures wall-clock time.
#
#   tests/cli/bad_input.sh PACER_SIM PACER_REPORT COMPARE REAL_LOOP_REPORT [BOUNCING_BALLS LOAD_SWEEP]
#
# The samples are optional (a build without graphics has none); every sample case fails in
# its flag table or load specs, before Vulkan or a window. Exit 0 when every case passes.
set -u
declare -A bin=([pacer-sim]=$1 [pacer-report]=$2 [compare]=$3 [real_loop_report]=$4
                [bouncing_balls]=${5:-} [load_sweep]=${6:-})
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

# Fixtures: traces and logs, good and bad.
printf 'frame_ms\n4\n5\n' > ok.csv
printf '\xef\xbb\xbfframe_ms\n4\n5\n' > bom.csv
cp ok.csv 'a,b.csv'
printf 'frame_ms\n4\n5\0\n6\n' > nul.csv
printf 'frame_ms\n4\n1e12\n' > big.csv
printf 'frame_ms\nnan\n' > nan.csv
printf 'frame_ms\n4\n-3\n' > negative.csv
printf 'frame_ms,busy_ms\n4\n' > short.csv
printf 'frame_ms\n20\n' > twenty.csv
: > empty.csv
printf 'present_ms\n4\n' > nocol.csv
truncate -s 65M huge.csv
mkdir -p adir empty_dir nul_dir
cp nul.csv nul_dir/
printf 'frame,policy\n' > bad_log.csv
printf 'frame,tick_us\n0,1000\n1,abc\n' > bad_ticks.csv

pass=0 fail=0 skipped=0
failures=""

# t CODE PROGRAM EXPECTED ARGS...: exit CODE, one line on stderr that starts "PROGRAM: "
# and holds EXPECTED.
t() {
  local code=$1 prog=$2 expect=$3
  shift 3
  local exe=${bin[$prog]}
  if [ -z "$exe" ]; then
    skipped=$((skipped + 1))
    return
  fi
  "$exe" "$@" > out.txt 2> err.txt < /dev/null
  local rc=$? lines
  lines=$(wc -l < err.txt)
  local first
  first=$(head -n 1 err.txt)
  if [ "$rc" -eq "$code" ] && [ "$lines" -eq 1 ] && [ "${first#"$prog: "}" != "$first" ] &&
     grep -qF -- "$expect" err.txt; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failures+="FAIL: $prog $* -> exit $rc (want $code), stderr ($lines lines): $(head -c 300 err.txt | tr '\n' '|') (want '$expect')"$'\n'
  fi
}

# ok PROGRAM ARGS...: exit 0, nothing on stderr (the good twins of some bad cases).
ok() {
  local prog=$1
  shift
  local exe=${bin[$prog]}
  if [ -z "$exe" ]; then
    skipped=$((skipped + 1))
    return
  fi
  "$exe" "$@" > out.txt 2> err.txt < /dev/null
  local rc=$?
  if [ "$rc" -eq 0 ] && [ ! -s err.txt ]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failures+="FAIL: $prog $* -> exit $rc (want 0), stderr: $(head -c 300 err.txt | tr '\n' '|')"$'\n'
  fi
}

S=pacer-sim
# Flags and numbers.
t 2 $S "unknown option '--frobnicate'" --frobnicate
t 2 $S "unexpected argument 'stray'" stray
t 2 $S "--render-ms: 1e9 is out of range [0, 10000]" --render-ms 1e9
t 2 $S "--render-ms: 'abc' is not a number" --render-ms abc
t 2 $S "--render-ms: nan is not a finite number" --render-ms nan
t 2 $S "--render-ms: inf is out of range [0, 10000]" --render-ms inf
t 2 $S "--render-ms: -1 is out of range [0, 10000]" --render-ms -1
t 2 $S "--render-ms: 1e308 is out of range [0, 10000]" --render-ms 1e308
t 2 $S "--render-ms: expected a number, got ''" --render-ms ''
t 2 $S "--update-ms: 1e5 is out of range [0, 10000]" --update-ms 1e5
t 2 $S "--update-ms: -0.5 is out of range" --update-ms -0.5
t 2 $S "--step-ms: 0 is out of range [0.001, 10000]" --step-ms 0
t 2 $S "--step-ms: 1e9 is out of range" --step-ms 1e9
t 2 $S "--interval-ms: 0 is out of range [0.01, 10000]" --interval-ms 0
t 2 $S "--interval-ms: nan is not a finite number" --interval-ms nan
t 2 $S "--min-interval-ms: 0 is out of range" --min-interval-ms 0
t 2 $S "--max-interval-ms: 1e12 is out of range" --max-interval-ms 1e12
t 2 $S "--min-interval-ms must not exceed --max-interval-ms" --min-interval-ms 50 --max-interval-ms 20
t 2 $S "--frames: 0 is out of range [1, 10000000]" --frames 0
t 2 $S "--frames: 1e8 is out of range [1, 10000000]" --frames 1e8
t 2 $S "--frames: -5 is out of range" --frames -5
t 2 $S "--frames: '2.5' is not a whole number" --frames 2.5
t 2 $S "--frames: 'abc' is not a whole number" --frames abc
# Decimal only: strtod read hex ("0x10", "0x1p2") where the docs and the sidecar reader say decimal.
t 2 $S "--frames: '0x10' is not a whole number (decimal only)" --frames 0x10
t 2 $S "--render-ms: '0x1p2' is not a number (decimal only)" --render-ms 0x1p2
t 2 $S "--display: expected none" --display fifo:0x3c
t 2 $S "constant:0x10" --render-load constant:0x10
t 2 $S "--frames: 99999999999999999999 is out of range" --frames 99999999999999999999
t 2 $S "--frames needs a value" --frames
t 2 $S "could pass the 100-year limit of virtual time" --frames 10000000 --render-ms 10000 --update-ms 10000 --max-steps 10000
ok $S --frames 100 --render-ms 10000 --update-ms 10000 --max-steps 10000 --quiet
t 2 $S "--seed: -1 is out of range [0, 9223372036854775807]" --seed -1
t 2 $S "--seed: 18446744073709551615 is out of range" --seed 18446744073709551615
t 2 $S "--seed: 'x' is not a whole number" --seed x
t 2 $S "--warmup: -1 is out of range" --warmup -1
t 2 $S "--warmup: nan is not a finite number" --warmup nan
t 2 $S "--max-steps: 0 is out of range [1, 10000]" --max-steps 0
t 2 $S "--max-steps: 100000 is out of range" --max-steps 100000
t 2 $S "--pipeline-frames: 0 is out of range [1, 8]" --pipeline-frames 0
t 2 $S "--pipeline-frames: 9 is out of range [1, 8]" --pipeline-frames 9
t 2 $S "--trace-scale: 0 is out of range [0.001, 1000]" --trace-scale 0
t 2 $S "--trace-scale: 1e9 is out of range" --trace-scale 1e9
t 2 $S "--policy: expected adaptive|" --policy bogus
t 2 $S "--compare: needs at least one policy" --compare ''
t 2 $S "--compare: unknown policy 'bogus'" --compare adaptive,bogus
t 2 $S "--adaptive: 'bogus=1' is not a known NAME=NUMBER" --adaptive bogus=1
t 2 $S "--adaptive: 'max_pushes' is not NAME=NUMBER (a decimal number)" --adaptive max_pushes
t 2 $S "--adaptive: 'max_lag_ms=0x10' is not NAME=NUMBER" --adaptive max_lag_ms=0x10
t 2 $S "--adaptive: 'refresh_period_ms=5' is not a known NAME=NUMBER" --adaptive refresh_period_ms=5
t 2 $S "--adaptive: AdaptiveConfig::catch_up_pile must be in (0, 1), got 2" --adaptive catch_up_pile=2
t 2 $S "--display: expected none" --display fifo:0
t 2 $S "--display: expected none" --display fifo:1e9
t 2 $S "--display: expected none" --display vrr:100-50
t 2 $S "--display: expected none" --display fifo:60,jitter=5s
t 2 $S "--display: expected none" --display fifo:nan
t 2 $S "--waiter: expected exact|precise|sleep, got 'fast'" --waiter fast
t 2 $S "--debt: expected discard|keep, got 'maybe'" --debt maybe
t 2 $S "--log: the file name is empty" --log ''
t 2 $S "--load-trace: the file name is empty" --load-trace ''
t 2 $S "--log: './ok.csv' is also the --load-trace file" --frames 3 --load-trace ok.csv --log ./ok.csv
# Load specs.
t 2 $S "load spec 'constant:1e9': value 1e9 is out of range [0, 10000]" --render-load constant:1e9
t 2 $S "load spec 'constant:1e308': value 1e308 is out of range" --render-load constant:1e308
t 2 $S "load spec 'constant:nan': value 'nan' is not a non-negative number" --render-load constant:nan
t 2 $S "load spec 'constant:-1'" --render-load constant:-1
t 2 $S "load spec 'bogus:1': unknown kind 'bogus'" --render-load bogus:1
t 2 $S "load spec 'spike:3,40': expected A,B/N" --render-load spike:3,40
t 2 $S "load spec 'step:1,2@0': FRAME '0' is not a positive whole number" --render-load step:1,2@0
t 2 $S "every part but the last needs N*SPEC" --render-load 'seq:constant:1;constant:2'
t 2 $S "load spec 'walk:5': expected walk:MEAN,STEP" --render-load walk:5
t 2 $S "load spec 'ramp:1,1e6@10': B 1e6 is out of range" --update-load ramp:1,1e6@10
t 2 $S "load spec 'sine:5,3/1e13'" --render-load sine:5,3/1e13
t 2 $S "load spec 'constant'" --render-load constant
# Trace files.
t 2 $S "trace '/nonexistent.csv': No such file or directory" --load-trace /nonexistent.csv
t 2 $S "trace 'adir': is a directory, not a file" --load-trace adir
t 2 $S "trace '/dev/zero': not a regular file" --load-trace /dev/zero
t 2 $S "nul.csv:3: binary content" --load-trace nul.csv
t 2 $S "big.csv:3: 1e12 is out of range [0, 10000] in column frame_ms" --load-trace big.csv
t 2 $S "nan.csv:2: 'nan' is not a number in column frame_ms" --load-trace nan.csv
t 2 $S "negative.csv:3: '-3' is not a number" --load-trace negative.csv
t 2 $S "short.csv:2: no value in column busy_ms" --render-load trace:short.csv,col=busy_ms
t 2 $S "empty.csv:1: empty trace" --load-trace empty.csv
t 2 $S "nocol.csv:1: no column 'frame_ms' in the header" --load-trace nocol.csv
t 2 $S "trace 'huge.csv': 68157440 bytes, more than the 64 MiB" --load-trace huge.csv
t 2 $S "scale=1000 makes a sample 20000, more than 10000" --load-trace twenty.csv --trace-scale 1000
t 2 $S "no column 'busy' in the header" --render-load trace:ok.csv,col=busy
t 2 $S "trace 'ok.csv,lop': No such file or directory" --render-load trace:ok.csv,lop
# The good twins.
ok $S --help
ok $S --version
ok $S --frames 3 --quiet --load-trace bom.csv
ok $S --frames 3 --quiet --load-trace 'a,b.csv'
ok $S --frames 3 --quiet --render-load 'trace:a,b.csv,scale=0.5,loop'
ok $S --frames 3 --quiet --load-trace capframex_judgment_gtx1070.csv
# --replay: a native log's costs; bad logs and flags that would contradict it.
"${bin[pacer-sim]}" --display immediate:60 --frames 5 --log good_log.csv --quiet 2> /dev/null
head -n 1 good_log.csv > header_only.csv
t 2 $S "cannot read --replay log '/nonexistent.csv': No such file or directory" --replay /nonexistent.csv
t 2 $S "--replay: 'adir' is a directory, not a log" --replay adir
t 2 $S "bad_log.csv:1: missing column timing_source" --replay bad_log.csv
t 2 $S "--replay log 'header_only.csv' has no frames" --replay header_only.csv
t 2 $S "--replay takes the costs from the log: drop --render-load" --replay good_log.csv --render-load constant:3
t 2 $S "--replay takes the costs from the log: drop --load-trace" --replay good_log.csv --load-trace ok.csv
t 2 $S "--log: 'good_log.csv' is also the --replay log" --replay good_log.csv --log good_log.csv
t 2 $S "--display-times: expected yes|no, got 'maybe'" --display-times maybe
t 2 $S "--replay takes the costs from the log: drop --present-load" --replay good_log.csv --present-load constant:1
t 2 $S "load spec 'bogus:1': unknown kind 'bogus'" --present-load bogus:1
ok $S --present-load constant:1 --display immediate --frames 10 --quiet
ok $S --replay good_log.csv --display immediate:60 --quiet
# Its settings come from the sidecar (LOG.meta.json) where there is one: a bad value names it.
cp good_log.csv side.csv
printf '{\n  "policy": "adaptive",\n  "config": {\n    "step_ms": "40.000000",\n    "display": "fifo:0"\n  }\n}\n' > side.meta.json
t 2 $S "--replay: sidecar 'side.meta.json': display 'fifo:0' is not one pacer-sim takes; give the flag instead" --replay side.csv
ok $S --replay side.csv --display immediate:60 --quiet
cp good_log.csv threaded.csv
printf '{\n  "config": {\n    "render_thread": "true"\n  }\n}\n' > threaded.meta.json
t 2 $S "--replay: 'threaded.csv' is a --render-thread run (its sidecar says so)" --replay threaded.csv
ok $S --frames 3 --quiet --frames 1e1 --seed 9223372036854775807 --render-ms 10000
# A sidecar read as a whole JSON object or not at all, each value as the engine writes it.
for name in notjson cut adirsc rt hex steps; do cp good_log.csv $name.csv; done
printf 'this is not json' > notjson.meta.json
printf '{\n  "policy": "adaptive",\n  "config": {\n    "step_ms": "40.000000",\n' > cut.meta.json
mkdir adirsc.meta.json
printf '{"config": {"render_thread": "maybe"}}\n' > rt.meta.json
printf '{"config": {"step_ms": "0x28"}}\n' > hex.meta.json
printf '{"config": {"max_steps_per_frame": "2.5"}}\n' > steps.meta.json
t 2 $S "--replay: sidecar 'notjson.meta.json' is not a whole JSON object (cut short?)" --replay notjson.csv
t 2 $S "--replay: sidecar 'cut.meta.json' is not a whole JSON object (cut short?)" --replay cut.csv
t 2 $S "--replay: sidecar 'adirsc.meta.json' is not a file" --replay adirsc.csv
t 2 $S "--replay: sidecar 'rt.meta.json': render_thread 'maybe' is not one pacer-sim takes" --replay rt.csv
t 2 $S "--replay: sidecar 'hex.meta.json': step_ms '0x28' is not one pacer-sim takes" --replay hex.csv
t 2 $S "--replay: sidecar 'steps.meta.json': max_steps_per_frame '2.5' is not one pacer-sim takes" --replay steps.csv
t 2 $S "--replay takes the costs from the log: drop --update-ms" --replay good_log.csv --update-ms 2
t 2 $S "--replay takes the costs from the log: drop --trace-scale" --replay good_log.csv --trace-scale 2
# The samples' other log formats are named, not read as broken native logs.
printf 'Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,TimeInSeconds,msInPresentAPI,msBetweenPresents\nx,1,0,VK,1,0,0,0.1,0.1,16.6\n' > pm.csv
printf 'os,cpu,gpu,ram,kernel,driver,cpuscheduler\nLinux,,gpu,,,,\n' > mh.csv
t 2 $S "pm.csv:1: a PresentMon log; this reads native pacing logs (--log-format native)" --replay pm.csv
t 2 pacer-report "mh.csv:1: a MangoHud log; this reads native pacing logs (--log-format native)" mh.csv
# With --compare every FILE.<policy>.csv is checked against the inputs.
cp good_log.csv Z.adaptive.csv
cp ok.csv T.flipcode.csv
t 2 $S "--log: 'Z.adaptive.csv' is also the --replay log" --replay Z.adaptive.csv --compare adaptive,flipcode --log Z
t 2 $S "--log: 'T.flipcode.csv' is also the --load-trace file" --load-trace T.flipcode.csv --compare adaptive,flipcode --log T

# Two flags for one thing (one was ignored without a word).
t 2 $S "--render-ms: --render-load is given too" --render-ms 50 --render-load constant:2
t 2 $S "--render-load: --load-trace is given too" --load-trace ok.csv --render-load constant:50
t 2 $S "--policy: --compare is given too" --compare adaptive --policy flipcode
t 2 $S "--timeline: --compare is given too" --compare adaptive,flipcode --timeline --frames 3
# Every trace a load spec reads, found as given or under traces/, is an input no log may overwrite.
cp ok.csv in1.csv && cp ok.csv in1.csv.flipcode.csv
t 2 $S "--log: 'in1.csv' is also a trace it reads ('in1.csv')" --render-load trace:in1.csv,loop --log in1.csv --frames 5
t 2 $S "--log: 'in1.csv' is also a trace it reads ('in1.csv')" --update-load trace:in1.csv --log in1.csv --frames 5
t 2 $S "--log: 'in1.csv.flipcode.csv' is also a trace it reads" --gpu-time trace:in1.csv.flipcode.csv --compare adaptive,flipcode --log in1.csv --frames 5
t 2 $S "is also a trace it reads" --present-load trace:in1.csv --log ./in1.csv --frames 5

R=pacer-report
t 2 $R "--json: './new_page.html' is also the --html file" good_log.csv --html new_page.html --json ./new_page.html
t 2 $R "no log given" 
t 2 $R "unknown option '--bogus'" --bogus ok.csv
t 2 $R "--warmup: nan is not a finite number" --warmup nan x.csv
t 2 $R "--warmup: -1 is out of range" --warmup -1 x.csv
t 2 $R "--warmup: '1.5' is not a whole number" --warmup 1.5 x.csv
t 2 $R "--refresh-hz: 1e9 is out of range [0, 1000]" --refresh-hz 1e9 --html r.html x.csv
t 2 $R "--refresh-hz: inf is out of range" --refresh-hz inf x.csv
t 2 $R "--refresh-hz: 'abc' is not a number" --refresh-hz abc x.csv
t 2 $R "--html: the file name is empty" --html '' x.csv
t 2 $R "--json needs a value" x.csv --json
t 2 $R "cannot read 'missing.csv': No such file or directory" missing.csv
t 2 $R "'adir' is a directory, not a log" adir
t 2 $R "is not a regular file: --html reads each log twice" /dev/stdin --html piped.html
t 2 $R "bad_log.csv:1: missing column timing_source" bad_log.csv
t 2 $R "nul.csv" nul.csv
t 2 $R "--html: 'bad_log.csv' is also an input log" bad_log.csv --html bad_log.csv
t 2 $R "--json: 'r.out' is also the --html file" bad_log.csv --html r.out --json r.out
ok $R --help
ok $R --version

C=compare
mkdir -p one_trace && cp twenty.csv one_trace/
t 2 $C "--traces: '/nonexistent' is not a folder" --traces /nonexistent
t 2 $C "--frames: 100 is out of range [200, 1000000]" --frames 100
t 2 $C "--adaptive: 'widen_factor=0x2' is not NAME=NUMBER" --traces one_trace --adaptive widen_factor=0x2
t 2 $C "--adaptive: 'widen_factor=2abc' is not NAME=NUMBER" --traces one_trace --adaptive widen_factor=2abc
t 2 $C "--adaptive: AdaptiveConfig::vrr_predict_window must be in [16, 4096], got 8" --traces one_trace --adaptive vrr_predict_window=8
t 2 $C "--frames: 'abc' is not a whole number" --frames abc
t 2 $C "--seed: -1 is out of range" --seed -1
t 2 $C "--other-seeds: 1e9 is out of range [0, 1000]" --other-seeds 1e9
t 2 $C "unknown option '--bogus'" --bogus
t 2 $C "--frames needs a value" --frames
t 2 $C "--out: the file name is empty" --out ''
t 2 $C "no workload matches --only zzz" --traces empty_dir --only zzz
t 2 $C "nul.csv:3: binary content" --traces nul_dir --only zzz
t 2 $C "no trace in 'empty_dir' (and --no-synthetic)" --traces empty_dir --no-synthetic
t 2 $C "no workload matches in --half tuning with --no-synthetic" --traces one_trace --half tuning --all-held-out --no-synthetic
t 2 $C "--traces: 'traces' is not a folder (run from the repository root" --frames 200
# The page and its CSV are checked before the suite runs (it wrote them after, or read a
# device given as --out without end).
t 2 $C "--out: '/dev/full' is not a regular file" --traces one_trace --no-synthetic --frames 200 --out /dev/full
t 2 $C "--out: 'r.csv' would be its own CSV" --traces one_trace --no-synthetic --frames 200 --out r.csv
t 2 $C "--out: its CSV 'one_trace/twenty.csv' is an input trace of --traces" --traces one_trace --no-synthetic --frames 200 --out one_trace/twenty.page
t 1 $C "cannot write 'no_dir/r.page': No such file or directory" --traces one_trace --no-synthetic --frames 200 --out no_dir/r.page
ok $C --traces one_trace --no-synthetic --frames 200
if grep -q ' twenty ' out.txt && ! grep -q 'level-load' out.txt; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  failures+="FAIL: compare --no-synthetic ran other workloads than the folder's one trace"$'\n'
fi
ok $C --traces one_trace --no-synthetic --all-held-out --frames 200
if grep -Eq '^held-out: [0-9]+ of 8 rows' out.txt && ! grep -q '^tuning' out.txt; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  failures+="FAIL: compare --all-held-out did not count the folder's trace as held out"$'\n'
fi
ok $C --help
ok $C --version

L=real_loop_report
t 2 $L "no input given"
t 2 $L "--refresh-hz: 0 is out of range [1, 1000]" --refresh-hz 0 x.csv
t 2 $L "--refresh-hz: nan is not a finite number" --refresh-hz nan x.csv
t 2 $L "--warmup: -3 is out of range" --warmup -3 x.csv
t 2 $L "unknown option '--bogus'" --bogus x.csv
t 2 $L "missing.csv" missing.csv
t 2 $L "bad_log.csv:1: missing column timing_source" bad_log.csv
t 2 $L "bad_ticks.csv:3" peer=bad_ticks.csv
ok $L --help

B=bouncing_balls
t 2 $B "unknown option '--frobnicate'" --frobnicate
t 2 $B "--frames: 0 is out of range [1, 10000000]" --headless --frames 0
t 2 $B "--size: 4294967312x100 is out of range (each 16 to 16384)" --headless --size 4294967312x100
t 2 $B "--size: 10x10 is out of range" --headless --size 10x10
t 2 $B "--size: expected WxH" --headless --size big
t 2 $B "--seed: -1 is out of range [0, 9223372036854775807]" --headless --seed -1
t 2 $B "--balls: 0 is out of range [1, 200000]" --headless --balls 0
t 2 $B "--balls: 1e9 is out of range" --headless --balls 1e9
t 2 $B "--logic-hz: nan is not a finite number" --headless --logic-hz nan
t 2 $B "load spec 'constant:1e9': value 1e9 is out of range [0, 10000]" --headless --frames 3 --render-load constant:1e9
t 2 $B "load spec 'constant:1e308': value 1e308 is out of range" --headless --frames 3 --render-load constant:1e308
t 2 $B "--trace: 'x.csv' is also the --log file" --headless --frames 3 --log x.csv --trace x.csv
t 2 $B "--log: the file name is empty" --headless --frames 3 --log ''
t 2 $B "--present-mode: expected fifo|fifo-relaxed|mailbox|immediate" --present-mode sideways
t 2 $B "--duration: -1 is out of range" --headless --duration -1
t 2 $B "--refresh-hz: 1e9 is out of range [0, 1000]" --headless --refresh-hz 1e9
t 2 $B "--refresh-hz: 0.0001 is not a refresh rate (0: off, or 1 to 1000)" --headless --frames 3 --refresh-hz 0.0001
t 2 $B "--pipeline-frames: 0 is out of range [1, 8]" --headless --pipeline-frames 0
t 2 $B "--adaptive: 'bogus=1' is not a known NAME=NUMBER" --headless --adaptive bogus=1
t 2 $B "--adaptive: AdaptiveConfig::misses_to_widen" --headless --adaptive miss_window=3 --adaptive misses_to_widen=4
t 2 $B "--gpu: 65 is out of range [0, 64]" --headless --gpu 65
t 2 $B "phase length 1e308s is out of range (0, 1000000] seconds" --headless --frames 3 --render-load 'seq:1e308s*constant:1;constant:2'
t 2 $B "trace '/dev/zero': not a regular file" --headless --frames 3 --render-load trace:/dev/zero
t 2 $B "nul.csv:3: binary content" --headless --frames 3 --render-load trace:nul.csv
t 2 $B "--capture-frame: -1 is out of range" --headless --capture-frame -1
# Flags that were ignored without a word.
t 2 $B "--capture-frame: needs --capture FILE" --headless --frames 3 --capture-frame 1
t 2 $B "--present-mode: a --headless run has no swapchain" --headless --frames 3 --present-mode mailbox
t 2 $B "--resize-at: a --headless run has no window to resize" --headless --frames 3 --resize-at 2
t 2 $B "--logic-hz: give --logic-hz or --step-ms, not both" --headless --frames 3 --logic-hz 10 --step-ms 5
t 2 $B "load spec 'constant:1e9': value 1e9 is out of range" --headless --gpu-load constant:1e9
ok $B --help
ok $B --version

W=load_sweep
t 2 $W "big.csv:3: 1e12 is out of range" --headless --frames 3 --render-load trace:big.csv
t 2 $W "load spec 'constant:nan'" --headless --frames 3 --update-load constant:nan
t 2 $W "--frames: 1e8 is out of range" --headless --frames 1e8
t 2 $W "--waiter: expected precise|sleep, got 'lazy'" --headless --waiter lazy
t 2 $W "--max-steps: 0 is out of range" --headless --max-steps 0
t 2 $W "trace 'adir': is a directory" --headless --frames 3 --render-load trace:adir
t 2 $W "PEAK 1e9 is out of range [0, 10000]" --headless --frames 3 --render-load 'spike:1,1e9/1s'
t 2 $W "period 1e308s is out of range" --headless --frames 3 --render-load 'spike:1,2/1e308s'

printf '%s' "$failures"
echo "bad input table: $pass passed, $fail failed, $skipped skipped$([ "$skipped" -gt 0 ] && echo " (samples not built)")"
[ "$fail" -eq 0 ]
