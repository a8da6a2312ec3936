// pacer/adaptive_config.hpp - every constant of the adaptive policies, named, with its
// default and its reason (docs/pacing.md explains the rules that use them).
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::AdaptiveConfig cfg;          // the defaults are the tuned ones (docs/results.md)
//   cfg.refresh_period = 6'944'444ns;   // a 144 Hz FIFO swapchain (pacer::fit_to_display)
//   pacer::validate(cfg);               // std::invalid_argument naming a field it refuses
//   pacer::set_knob(cfg, "max_lag_ms", 500);  // a field by name, as the tools' --adaptive NAME=VALUE
#pragma once

#include <cstdint>
#include <string_view>

#include "pacer/time.hpp"

namespace pacer {

struct AdaptiveConfig {
  /// The interval the first frame is planned with: 1/60 s ("a nice high starting interval").
  Nanos initial_interval{16'666'667};
  /// Frame-rate cap: the interval never shrinks below this (240 fps); in the mixed cadence
  /// on a grid, frames average it in whole periods (2 and 3 for 60 fps at 144 Hz).
  Nanos min_interval{4'166'667};
  /// Frame-rate floor: the interval never widens past this (10 fps).
  Nanos max_interval{100'000'000};
  /// On overrun the interval becomes widen_factor x the time the frame has taken so far.
  double widen_factor = 1.2;
  /// A widen (of the display-aware policy; adaptive-literal keeps the seed's overrun rule above)
  /// counts the updates the wider interval brings: a frame steps the simulation once
  /// per fixed step it covers, so at a longer interval it runs more updates and costs more
  /// than the missed frames did at the old one. With this on, the widen target is the
  /// interval I with I = margin x (lasting cost + r x (I + one step - interval)), r the
  /// recent update CPU time per simulated time (the spiral guard's measure; one step more
  /// because a frame steps until just past its end); off, margin x the lasting cost as
  /// measured. A render that triples from 8 to 24 ms on VRR (no margin there) with 0.5 ms
  /// updates per 5 ms step widened to 25 ms, where frames cost 26.5-27 ms: six more late
  /// frames, each later than the one before, then a second widen to 32 ms; counted, it
  /// widens once, to 27.27 ms, where follow_cost settles (test
  /// `Vrr.AWidenCountsTheUpdatesTheWiderIntervalBrings`). Was off; on chosen on the tuning
  /// half and fresh sets A-Q (rows over seeds 7 and 1-4: 16368 -> 16372; without the one step
  /// more 16366) and confirmed on fresh set R (221 -> 223) (docs/results.md, issue 11's
  /// twenty-sixth part).
  bool widen_counts_updates = true;
  /// false holds the interval (it still widens on overrun): --no-shrink.
  bool shrink = true;
  /// Headroom must last this many frames without an interval change before a shrink,
  /// and the shrink target is judged on the busiest of the last this-many frames.
  int shrink_window = 30;
  /// Each shrink moves the interval this fraction of the way to its target
  /// (widen_factor x the busiest recent frame), so shrinking is slow and geometric.
  double shrink_fraction = 0.5;
  /// After a widen, if most of this many following frames would have fit the old interval
  /// (their render plus the updates the old interval needs, x widen_factor <= old
  /// interval), the widen was a one-off hitch: restore the old interval at once. With 3,
  /// one straggler after the hitch is forgiven; two mean a lasting change.
  int hitch_frames = 3;

  // ---- display-aware mode (docs/pacing.md, "Displays, quantization, planned presents")
  /// false keeps the seed's display-blind loop above whatever the display is.
  bool display_aware = true;
  /// Refresh period of a fixed-refresh display (FIFO, mailbox): intervals become whole
  /// periods on the vblank grid. 0: unknown or free (immediate, VRR); the mode then
  /// starts at the first observe_display() and plans free intervals.
  Nanos refresh_period{0};
  /// A vblank time: the grid is vblank_phase + k x refresh_period. Replaced by the
  /// first observed display time; on a latching display the grid then locks its phase
  /// and period to every observed display time (pacer/vblank_grid.hpp).
  Nanos vblank_phase{0};
  /// true: a present is shown at the first vblank at or after it (FIFO, mailbox), so a
  /// held present waits for the vblank before its planned one. false: it is shown when
  /// made (immediate on a monitor of refresh_period), so it is held until its planned
  /// display time itself and frames start a render estimate ahead of it.
  bool vblank_latch = true;
  /// A held present goes out this long after the vblank before its planned one (at
  /// least, and more when the observed vblanks scatter: 4 x their mean residual), never
  /// more than a quarter period: a present right on the vblank may latch to it.
  Nanos vblank_margin{50'000};
  /// A frame counts as late only past this tolerance (at least), or past the waiter's
  /// measured wake error (the second-worst of the last 32 wakes, plus this): a wake a few
  /// microseconds late is not a miss.
  Nanos late_tolerance{20'000};
  /// Render-time estimate = the longest of this many recent renders, the second-longest
  /// once estimate_outlier_after are in (+ present_margin): how long before its planned
  /// display a frame starts.
  int render_history = 32;
  /// Fixed refresh: each frame starts at least this many intervals before its planned
  /// display (a swapchain of N images lets N - 1 frames queue): a frame that runs long
  /// uses the slack of the queue instead of missing its vblank, as a blocking FIFO loop
  /// does; the cost is this many intervals of latency. 1: start one interval ahead.
  int pipeline_frames = 2;
  /// ... but only until this many frames in a row have rendered within one interval (none
  /// needed the depth, none missed); then shallow_pipeline intervals ahead (less latency)
  /// until the next frame that needs it. <= 0: always pipeline_frames.
  std::int64_t shallow_after = 600;
  /// How many intervals ahead frames start while shallow (at least 1; at most
  /// pipeline_frames, which wins when smaller). 1.5: a rare render of up to 2.5 intervals is
  /// shown one vblank late (a gap of two intervals) where one interval ahead showed it two
  /// late (a gap of three: a stutter by CapFrameX's rule, over 2.5 x the mean), for half an
  /// interval of latency. Was 1; 1.5 chosen on the tuning half and fresh sets A-D (1.25,
  /// 1.4 and 1.75 met fewer rows) and confirmed on fresh set E (docs/results.md, issue 11's
  /// eleventh part).
  double shallow_pipeline = 1.5;
  /// Presents queue in order, one per vblank (FIFO): a frame planned one period after the
  /// previous one is presented at once (the queue holds it). false (mailbox, where a newer
  /// present replaces a queued one): every present is held until its planned vblank.
  bool queued_presents = true;
  /// Mixed cadence: when whole refresh periods would cost more than this share of the
  /// frame rate the loop sustains (its mean busy time x mixed_margin, at least one
  /// period), each frame is shown at the first vblank it can make after the previous one
  /// (judged with a typical render, mixed_lead_percentile below), with the world of that
  /// vblank: frames alternate between n and n + 1 periods (no animation error) at the
  /// rate the costs allow, and the interval reports that free time. On a free display it
  /// is the interval itself, and the even cadence's interval is the seed's (widened to 1.2 x
  /// a frame's cost, shrunk only while the p95 busy time x 1.2 fits), which can settle 5-10%
  /// over the mean busy time: a steady loss of rate. <= 0 or >= 1: whole periods always
  /// (Swappy's choice: steady, at up to half the rate). Was 0.1; 0.05 (half the 10% of rate
  /// the criteria allow) chosen on the tuning half and fresh sets A-F (0.08, 0.03 and 0.02
  /// met as many rows; only immediate rows change) and confirmed on fresh set G, which has
  /// captures of other machines (docs/results.md, issue 11's thirteenth part).
  double mixed_cadence_loss = 0.05;
  /// ... and only while whole periods would be longer than this (0: at every rate; issue 5
  /// had 20 ms, below 50 fps only): above it an even cadence is worth more than the frames a
  /// mixed one adds.
  Nanos mixed_cadence_over{0};
  /// The mixed cadence plans each frame for the first vblank after the render estimate at
  /// this percentile of render_history (+ present_margin): higher shows fewer frames a
  /// vblank late (each a period of animation error), lower starts them closer to their vblank.
  double mixed_lead_percentile = 85;
  /// ... and on a display that shows presents when made (immediate), higher, up to the
  /// longest recent render, while planning on it would hold presents no more than this share
  /// of the mean busy time on average (vrr_hold_budget's rule, below, on the mixed cadence of
  /// a free display): costs that vary little are planned on their longest render, so none is
  /// shown late (a late present there is an animation error, and a peer that runs whole
  /// periods showed less of it); widely varying ones stay on mixed_lead_percentile. 0: off.
  /// 0.05 (vrr_hold_budget's value) chosen on the tuning half and fresh sets A-J (0.03 and 0.08
  /// met about as many rows, 0.12 far fewer; only immediate rows change) and confirmed on fresh
  /// set K: as many rows, its immediate rows' median p99 animation error 0.76 -> 0.39 ms for
  /// 1-2% of their rate (docs/results.md, issue 11's seventeenth part).
  double mixed_hold_budget = 0.05;
  /// ... on a display whose presents queue (FIFO): there a later planned vblank costs
  /// latency, not rate (the next frame starts at once), so plan on a longer render.
  double mixed_lead_percentile_queued = 95;
  /// ... and no shorter than this percentile of the last deep_history (128) renders (the
  /// 4th-longest at 97): a render common over the last two seconds but over the short
  /// history's p95 then makes its vblank, where it was shown a vblank late (a period of
  /// animation error; at 30 fps caps on 144 Hz just over 1% of the frames, so the p99 was a
  /// whole period). The short history's longest render (its p97 and over) did that too, but
  /// moved the plan by whole periods as a hitch came into or left those 32 renders (a gap:
  /// a stutter). 0: off. 97 chosen on the tuning half and fresh sets A-D (96 and 98 met
  /// fewer rows in all) and confirmed on fresh set F (docs/results.md, issue 11's twelfth part).
  double mixed_lead_deep_percentile = 97;
  /// ... and there (and on immediate, with mixed_lead_cap_immediate below) no longer than
  /// this x the median of render_history (+ present_margin), nor shorter than
  /// mixed_lead_floor_percentile of it (below): a storm of long renders
  /// among short ones (shader compilation: a third of the frames 3-10 x longer) put the deep
  /// history's p97 on the long ones, and every short frame then held its present for them
  /// (the loop idling, the rate lost) until they left the 128 renders of the deep history,
  /// long after the storm. With the cap a long render is shown late (an animation error) or
  /// a vblank later. 0: no cap. 2 (estimate_hitch_ratio's value: a render over it is a
  /// hitch) chosen on the tuning half and fresh sets A-O (rows over five seeds 15753 ->
  /// 15765; 1.5, 2.5 and 3 met 15737, 15761 and 15752) and confirmed on fresh set P (325 ->
  /// 325 rows: it has no storm; docs/results.md, issue 11's twenty-third part).
  double mixed_lead_ratio_queued = 2;
  /// ... the percentile of render_history (+ present_margin) under which that cap does not
  /// go. Where more of the recent renders than 100 minus this are long (a storm), the plan is
  /// on a long one: every short frame holds its present for it, the rate of a long render at
  /// each frame. Lower lets the cap plan on the short ones through a denser storm (a long
  /// render is then shown late or a vblank later: an animation error and lag to catch up).
  /// Was 85 (mixed_lead_percentile's value); 75 chosen on traces/probe-storm (rows over five
  /// seeds 336 -> 375; 80: 373, 70: 363) with the tuning half and fresh sets A-R (16638 ->
  /// 16644, none losing), and confirmed on storm probe B (94 -> 110) and fresh set W (115 ->
  /// 115), both written down before they existed (docs/results.md, issue 11's thirty-second
  /// part).
  double mixed_lead_floor_percentile = 75;
  /// The same cap and floor on the mixed cadence of a display that shows a present when it
  /// is made (immediate, immediate:HZ), where the plan is mixed_lead_percentile (85) of the
  /// recent renders raised by mixed_hold_budget: in a storm where more than 15% of them are
  /// long, every frame was planned on a long render, each short one holding its present for
  /// it. traces/probe-storm's `storm_14ms_share0.5_300frames` x1.0 immediate showed its
  /// storm at 7.4 fps, frames planned 125-150 ms apart, where the capped loop showed 15.7.
  /// false: off (no cap there). On, with no constant of its own (the FIFO rule's 2 and p75;
  /// 1.5 and 3 met 454 and 452 on traces/probe-storm), chosen on traces/probe-storm (rows over
  /// five seeds 417 -> 449) with the tuning half and fresh sets A-R (16646 -> 16646, no set
  /// changing; it changes only storms) and confirmed on traces/probe-storm-e (80 -> 95; below
  /// both peers at seed 7 16 -> 19), written down before it existed (docs/results.md, issue
  /// 11's thirty-fifth part). Test
  /// StateMachine.ADenseStormOnImmediateIsPlannedOnItsShortRendersWithTheCap.
  bool mixed_lead_cap_immediate = true;
  /// The mixed cadence's interval: mean busy time x this (the queue absorbs the variance).
  /// 1: no margin, the loop runs at the rate its costs allow; more keeps a free display's
  /// long frames on time at the cost of rate (every frame waits). Was 1.07; 1.0 chosen on
  /// the tuning half and fresh sets A and B and confirmed on fresh set C (docs/results.md,
  /// issue 11's ninth part).
  double mixed_margin = 1.0;
  /// Free displays (immediate, VRR): frames start this deep render estimate ahead of their
  /// present (the second-longest of this many recent renders + present_margin), so a rare
  /// long render seen in that history still makes its planned present.
  int deep_history = 128;
  /// Added to the render estimate: the waiter's wake error and clock noise.
  Nanos present_margin{250'000};
  /// Renders on a render thread (Pacer::set_render_off_thread): each frame's present is
  /// planned the longest of the last render_history renders (the render thread's work:
  /// drawing and the present call) after the render can start, plus this margin, not a
  /// typical render after. A render thread's present that comes late is an animation error,
  /// while its idle time costs the loop's thread nothing (the updates run on); the render
  /// thread's work stretches whenever it shares the cores. Measured on the render-thread
  /// benchmark (two cores, lavapipe; docs/results.md, "A render thread"): planned on a typical
  /// render, the threaded p99 animation error was 3.7 ms at 1.6 x one thread's frame rate;
  /// on the longest + 1, 1.5 and 2 ms it was 1.7, 1.2 and 1.0 ms (one thread: 1.1) at 1.45,
  /// 1.38 and 1.29 x.
  Nanos render_thread_margin{2'000'000};
  /// This many frames among the last miss_window that miss their planned display are a
  /// lasting change (widen); fewer are a hitch (re-plan at the next slot, keep the interval).
  int misses_to_widen = 3;
  /// Shrink when the p-th percentile of recent busy times x widen_factor fits the
  /// shorter interval.
  double shrink_percentile = 95;
  /// A widen within this many frames after a shrink marks the shrink as failed: the
  /// frames required before the next shrink double (up to 2^max_backoff x shrink_window).
  int failed_shrink_frames = 60;
  int max_backoff = 4;
  /// Spiral guard: when updates cost at least this share of the time they simulate,
  /// the updates of a frame get the time left before the next frame's start (at least
  /// one update) and the rest is debt (dropped or kept per FixedStepConfig::debt).
  double spiral_ratio = 0.9;
  /// A frame shown later than planned showed an older world than its display time. The
  /// frames after it continue from it (their animation advances by the display gap, so
  /// the late frame costs one error, not a freeze then a jump), and the world catches up
  /// by at most this fraction of the interval per frame: 0.006 is 0.1 ms per 60 Hz frame,
  /// the world running 0.6% fast until it is back on time, which no eye sees and which
  /// keeps the catch-up far below any frame's animation error. <= 0 with discard debt: the
  /// lag is dropped at once as debt (the world pauses through the hitch); with keep debt
  /// the lag is always caught up, at 0.25 when this is <= 0.
  double catch_up = 0.006;
  /// Lag beyond this is dropped at once as debt (discard debt only): a stall the world
  /// could take seconds to catch up is let go, as the stall clamp (also 0.25 s) lets a long one go.
  Nanos max_lag{250'000'000};
  /// ... but only a single frame's lateness beyond max_lag is a stall: lag piled up by many
  /// late frames (a shader-compile storm on VRR, each frame late by tens of ms) is caught up,
  /// as criterion 5 asks (the world keeps real time), up to this much in all; beyond it the
  /// excess is dropped all the same (a world a second behind has stopped keeping time).
  /// 0: any lag beyond max_lag is dropped, however it came (the rule until issue 11's
  /// eighteenth part). 1 s: on the tuning half and fresh sets A-J adaptive dropped 4.5 s of
  /// world time in 34 of 2656 rows (seed 7) with 0 and none with it, meeting as many rows;
  /// fresh set L, written down before it was opened, met as many rows (it has no such pile).
  Nanos max_pile_lag{1'000'000'000};
  /// A frame that adds this much lag or more by itself (a loading frame, a long hitch) is a
  /// stall: its lag (what is left of it under max_lag) is caught up within
  /// stall_catch_up_frames frames, a short jump where the stall ends, rather than at the
  /// catch-up pace above, which puts a small error into every frame for seconds (hundreds of
  /// frames: the run's p99 then is that error). No faster than the step cap lets a frame
  /// simulate (the rest would be dropped as debt): then the stall takes more frames. 0 or
  /// stall_catch_up_frames 0: off. 100 ms and 3 frames chosen on the tuning half and fresh
  /// sets A-L (1 and 2 frames cost the tuning half's periodic hitches rows, 8 frames a set;
  /// 60 and 80 ms counted shorter hitches as stalls and met fewer rows, 130 and 200 ms fewer
  /// stalls and fewer rows) and confirmed on fresh set M (as many rows: it has no stall;
  /// docs/results.md, issue 11's nineteenth part).
  Nanos stall_lag{100'000'000};
  int stall_catch_up_frames = 3;
  /// ... or within one frame while the stalls of the last this many frames (this one
  /// included) are at most 1% of them over two: caught up in one frame, each stall is two
  /// large errors (its own lateness, then the jump), and while they are that few the run's
  /// p99 passes them all; more stalls than that set the p99 anyway, and then the smaller
  /// errors of stall_catch_up_frames frames set a lower one. 0: off. Was off; 1000 (as
  /// catch_up_p99_window) chosen on the seen sets, after fresh set AB's 13 stalls of about
  /// 220 ms put its p99 on the three frames' steps (rows over five seeds 20676 -> 20699, 2000
  /// the same; set AB 5 -> 15), and confirmed on the held-out half as written down before it
  /// was run (1099 -> 1099 rows; docs/results.md, issue 11's fifty-second part).
  int stall_catch_up_window = 1000;
  /// ... and only when no late frame came in this many frames before it: a storm's long
  /// renders come among other late frames, and each read as a stall would put a third of its
  /// lag into each of the next three frames (tens of ms apiece), where the catch-up pace and
  /// the pile rules (max_pile_lag, pile_catch_up_lag) spread it. A loading frame or a lone
  /// hitch still is a stall. 0: off (every frame over stall_lag is one; the rule until issue
  /// 11's sixty-first part). 8 chosen on the seen sets (rows over five seeds 21366 -> 21431,
  /// all on the storm probes, no set fewer; 16: 21442, probe-storm fewer, more world time
  /// dropped) and confirmed on storm probe I, written down before it existed (131 -> 155),
  /// and the held-out half (1102 -> 1102; docs/results.md, issue 11's sixty-first part).
  /// The storms' piles then reach max_pile_lag more often: at seed 7 adaptive dropped 9.2 ->
  /// 15.1 s of world time over the seen sets' 4864 rows, 0.3 -> 2.3 s over probe I's 64.
  int stall_isolated_frames = 8;
  /// A frame whose updates reach the step cap before its catch-up is done keeps the part of
  /// this frame's catch-up it could not simulate as lag, for the frames after to catch up,
  /// rather than dropping it as debt. It happens after a stall caught up in one frame (the
  /// catch-up is planned up to the cap, then a push moves the frame's display a period
  /// later: the held-out level-load x1.0 rows dropped 25-42 ms more that way). Not under
  /// the spiral guard (updates that cannot keep up with real time drop their debt), and any
  /// other debt past the cap is dropped as before. Not on VRR: there the kept lag joins the next
  /// late run's, whose catch-up jumps (catch_up_p99), and on the seen sets it met 8 rows
  /// fewer (VRR storm rows' p99 up to 3x). Off: dropped. Was off; on since issue 11's
  /// fifty-third part: on the seen sets (tuning half, sets A-AB, eight probes) 20699 ->
  /// 20700 rows over five seeds, dropped world time at seed 7 43.2 -> 36.1 s; confirmed on
  /// the held-out half as written down before it was run (1099 -> 1099 rows, level-load's
  /// three x1.0 rows off VRR drop 133-146 ms again where they dropped 158-188; docs/results.md).
  bool step_cap_keeps_lag = true;
  /// ... and so is a run of late frames (each adding catch_up_late x the interval of lag or
  /// more, one after another) that adds this much or more in all: a lasting change of cost
  /// (a level loads heavier) misses several frames before the interval widens, and its lag
  /// is caught up within stall_catch_up_frames frames once the run ends, rather than over
  /// seconds at the catch-up pace (an error in each of hundreds of frames). VRR only, and
  /// the run must be misses_to_widen frames or longer (hitches in a burst come and go);
  /// elsewhere the pace is slow enough to be no error worth the name. 0: off, the default:
  /// on the tuning half and fresh sets A-Q (five seeds) 80 ms met 2 rows fewer than off (a
  /// shader storm's runs of hitches jump), 50 ms 9 fewer; without the run length, VRR only,
  /// 8 and 35 fewer; on every display, 50 ms 87 fewer (issue 11's twenty-fifth part). With
  /// widen_counts_updates on, 80 ms: 4 fewer (16368 against 16372; twenty-sixth part).
  Nanos stall_run_lag{0};
  /// VRR: when a run of late frames (misses_to_widen or more) ends, its lag is caught up
  /// within catch_up_p99_frames frames (a jump) rather than at the paced catch-up above,
  /// when that leaves the lower p99: the p99 of the last catch_up_p99_window frames' own
  /// animation errors with the jump's steps added, against with the paced catch-up's steps
  /// (frame by frame, until the lag is gone). A run's p99 is the error 1% of its frames pass,
  /// so a few large steps can cost it nothing where a catch-up over seconds puts its step
  /// into hundreds of frames. Not before the window is full. false: off. On: on the tuning
  /// half and fresh sets A-T it changes no row at any of five seeds (they hold no such
  /// change), so it was chosen on the level-change probe (traces/probe-level: 660 -> 687
  /// rows over five seeds, none lost) and confirmed on fresh set U, written down before it
  /// was opened, which could not tell (110 -> 110; docs/results.md, issue 11's thirtieth
  /// part). Test Vrr.ALevelChangesLagJumpsWhenThatLeavesTheLowerP99.
  bool catch_up_p99 = true;
  int catch_up_p99_window = 1000;
  int catch_up_p99_frames = 3;
  /// ... and, for a larger lag, fast enough to be back on time within about this long
  /// (lag x interval / catch_up_within per frame, an exponential approach), on displays
  /// other than VRR (fixed refresh, immediate: vrr_catch_up_within there). 0: no such bound,
  /// catch_up's pace alone until late frames recur (catch_up_paced below). There a late
  /// frame is a missed display, rare, and each catch-up step is an animation error in every
  /// frame it takes: a 50 ms lag caught up within 4 s put 0.2 ms in each of 240 frames at
  /// 60 Hz, the p99 of the run, where catch_up alone puts 0.1 ms in each of 500. Was 4 s; 0
  /// chosen on the tuning half and fresh sets A, B and C and confirmed on fresh set D
  /// (docs/results.md, issue 11's tenth part).
  Nanos catch_up_within{0};
  /// ... and, on those displays, a lag that has piled up past this (late frames one after
  /// another: a shader-compile storm shown on its short renders, every long one late) is back
  /// on time within about pile_catch_up_within, however catch_up_within reads: at catch_up's
  /// pace it grew past max_pile_lag and was dropped, the world then running behind for good
  /// (criterion 5). Each frame then simulates lag x interval / pile_catch_up_within more, a
  /// larger animation error in frames that already have one. 0: off. Was off; 750 ms (1 s
  /// within) chosen on traces/probe-storm (rows over five seeds 375 -> 405; 250, 500 and 900
  /// ms: 385, 397 and 390), changing no row of the tuning half or sets A-W nor of
  /// traces/probe-level, and confirmed on storm probe C (66 -> 92) and fresh set X (95 -> 95),
  /// both written down before they existed (docs/results.md, issue 11's thirty-third part).
  /// Within 2 s since the forty-fifth part (was 1 s: each frame's step, 12.5-17 ms a frame
  /// at 60 Hz, lands among the storm's late frames and raises the p99): on
  /// the seen sets 19710 -> 19715 rows over five seeds, all on the storm probes and mixed
  /// (probe-storm 444 -> 445, -b 145 -> 140, -c 96 -> 110, -d 161 -> 156), confirmed on storm
  /// probe F, written down before it existed (108 -> 113). The held-out half: 1098 -> 1097
  /// (seed 1).
  Nanos pile_catch_up_lag{750'000'000};
  Nanos pile_catch_up_within{2'000'000'000};
  /// Late frames that recur would pile their lags up past max_lag at the catch_up_within
  /// pace (the excess dropped at each). With catch_up_paced the pace follows them: a late
  /// frame (one that adds catch_up_late x the interval of lag or more) more than
  /// catch_up_burst after the last one starts a burst; with s the recent time from one burst
  /// to the next and A the lag added in it (running averages, the newest weighing half), the
  /// lag is caught up within at most (s - A) / -ln(1 - A / (catch_up_pile x max_lag)): the
  /// pile stays under catch_up_pile x max_lag. Never within less than catch_up_burst; until
  /// two bursts have been seen, catch_up_within. A burst that fills that by itself is dropped
  /// down to max_lag anyway: A / (catch_up_pile x max_lag) is then taken at catch_up_pile,
  /// so at most 1 - catch_up_pile of it is left when the next comes. Chosen on the tuning
  /// half (docs/pacing.md, "A late frame costs one error, not two"; docs/results.md, issue
  /// 11's fifth part). Turned off in the sixty-first part's test of each rule, the seen sets
  /// met 21007 -> 21036 rows over five seeds and the held-out half 1102 -> 1108; kept on
  /// because traces/probe-recur, written down first, met 359 -> 354.
  bool catch_up_paced = true;
  Nanos catch_up_burst{1'000'000'000};
  double catch_up_pile = 0.9;
  double catch_up_late = 0.5;

  // ---- the constants the display-aware rules used to hard-code, named (docs/pacing.md)
  /// Render estimates leave out the single longest sample once they hold this many (one
  /// hitch in the history does not start every frame early for a whole history).
  int estimate_outlier_after = 8;
  /// Wake errors kept for the lateness tolerance (its second-worst sets it).
  int wake_history = 32;
  /// Post-present work (present call + updates) kept for the immediate:HZ start lead.
  int post_work_history = 32;
  /// On a display that shows a present when its call returns (immediate, VRR), a held
  /// present is issued ahead of its planned display by the median of the last
  /// present_call_history present calls (none on one call alone, the shortest until
  /// estimate_outlier_after are known: a first present can take ten times the rest), and
  /// the frame starts that much earlier: a call that takes time no longer makes every frame
  /// late by it (its lateness piled up as lag and pushed the cadence: a 1 ms call on
  /// immediate ran 56.6 fps with a p99 animation error of 11.5 ms). Not offscreen, where a
  /// frame is done when issued (fit_to_display). No tuned number: the median is the call's
  /// expected time. false: the old rule, presents issued at their planned display
  /// (docs/pacing.md, "Present calls on a free display").
  bool present_call_lead = true;
  int present_call_history = 32;
  /// Misses are counted over this many recent frames; misses_to_widen of them widen.
  int miss_window = 4;
  /// A miss while the mean busy time of this many recent frames (the longest quarter left
  /// out with level_window > 0, else the longest) exceeds the interval is an overload:
  /// widen at once.
  int overload_window = 8;
  /// A free-display shrink smaller than this is not worth making.
  Nanos min_shrink_step{50'000};
  /// The spiral detector's sums halve once they cover this much simulated time.
  Nanos spiral_window{1'000'000'000};
  /// With keep debt and catch_up <= 0, the lag is caught up at this fraction per frame.
  double keep_debt_catch_up = 0.25;
  /// A held FIFO present goes out vblank_margin, or this many mean grid residuals, after
  /// the vblank before its planned one (whichever is more; never over a quarter period).
  int vblank_margin_residuals = 4;
  /// The mixed cadence follows the mean busy time only when the interval would move by
  /// more than this share (no flapping).
  double mixed_follow = 0.02;
  /// ... and leaves for whole periods when they would lose less than this share of
  /// mixed_cadence_loss (hysteresis: enter above the loss, leave below half of it).
  double mixed_leave_share = 0.5;
  /// A frame whose render cannot make its planned display is re-planned (pushed) for the
  /// first display it can make, before it renders, at most this many times (a push's
  /// updates can make it miss again). The mixed cadence on a fixed refresh relies on it:
  /// each frame is planned for the vblank after the last and pushed from there. 0: never.
  int max_pushes = 2;
  /// A push never plans a frame's display more than this x the mean of the last
  /// push_gap_window gaps between shown frames after the previous frame's (on a fixed
  /// refresh: at the last vblank within that): a longer gap is a stutter by CapFrameX's rule
  /// (over 2.5 x that mean), made by the plan rather than by a render. A frame whose render
  /// then needs more is shown late (an animation error, its lag caught up), as it would have
  /// been with no plan. Where a burst of hitches turns into a storm (more than
  /// estimate_hitch_burst of them), the render estimate jumps to a hitch's and the cheap
  /// frame after one was planned whole periods after it: at 144 Hz a 20.8 ms gap among 6.9 ms
  /// ones. 0: off. Was off; 2.5 (the rule's own ratio) chosen on the seen sets (rows over
  /// five seeds 20622 -> 20671, below both peers at seed 7 4040 -> 4050; 2.0 and 2.4: 20672,
  /// 3.0: 20617, its pushes then reaching three periods at 144 Hz); fresh set AB, written down
  /// before it was extracted, could not tell (its 8 rows the same either way;
  /// docs/results.md, issue 11's fifty-first part).
  double push_gap_guard = 2.5;
  /// ... the gaps that mean is taken over: CapFrameX's stutter rule reads the 20 before.
  int push_gap_window = 20;
  /// A frame shown late (a queue behind the display) makes the frames in flight late too:
  /// the next frame is planned no earlier than where they will be shown. Off, that is the
  /// late display plus the current interval for each frame after it. On, each in-flight
  /// frame is taken at its own planned display, or one queue slot after the one before
  /// (a period on a display with a known refresh, else min_interval, or the GPU's time per
  /// frame where longer), if later; then one interval for the next frame, never later than
  /// off. On is earlier where a frame in flight can still make its own plan (the late frame
  /// delayed it less than off assumes), and right after an interval change, where off counts
  /// the new interval for frames planned with the old one: on a 144 Hz FIFO, renders going
  /// from 4 to 12 ms widened the mixed cadence to 12.5 ms while frames planned a period
  /// apart were in flight, and off counted 12.5 ms for each of them, so the next frame was
  /// planned three periods after the last (a stutter) where two would do (test
  /// `StateMachine.AFrameLateAfterAnIntervalChangeCountsTheInFlightFramesAsPlanned`). On
  /// chosen on the tuning half and fresh sets A-Y and the six probes (rows over seeds 7 and
  /// 1-4: 18991 -> 19000; the tuning half 742 -> 747), the best of four forms tried there,
  /// and confirmed on the held-out half (218 / 217 / 218 / 217 / 217 -> 221 / 219 / 219 /
  /// 220 / 219 at seeds 7, 1-4; docs/results.md, issue 11's forty-third part).
  bool late_floor_in_flight = true;

  // ---- hitch bursts against lasting changes (docs/pacing.md, "Hitch bursts")
  /// A miss widens the interval only when it is a lasting change: the median busy time of
  /// the last level_window frames exceeds the interval (most recent frames need more), or
  /// the overload test below. A burst of fewer than half the window's frames, long, then
  /// cheap ones, leaves the median where it was: no widen, the late frames are re-planned.
  /// A lasting increase moves the median after (level_window + 1) / 2 frames. 0: the old
  /// rule, misses_to_widen misses in the miss window.
  int level_window = 5;
  /// A render over estimate_hitch_ratio x the median of render_history is a hitch. While
  /// render_history holds at most estimate_hitch_burst of them (a burst), each counts in the
  /// render estimates only while it is among the last estimate_hitch_memory renders: a burst
  /// stops starting frames early (and planning them late) that many frames after it ends,
  /// where the whole history would hold it for render_history frames. More of them are a
  /// storm, not a burst (a shader-compile storm: a third of the frames): they all count, and
  /// frames are planned for them. A lasting level moves the median and counts anyway.
  /// estimate_hitch_memory 0 (or >= render_history), or estimate_hitch_burst 0: off.
  /// 1: only the newest render's hitch counts, and the estimates take the second-longest
  /// render, so the cheap frame after two hitches in a row is not planned (and held) for a
  /// third; the price is one late frame at the start of a lasting rise. Was 2; 1 chosen on
  /// the tuning half and fresh set A and confirmed on fresh set B (docs/results.md, issue
  /// 11's eighth part).
  int estimate_hitch_memory = 1;
  double estimate_hitch_ratio = 2.0;
  int estimate_hitch_burst = 4;

  // ---- VRR (docs/pacing.md, "VRR")
  /// A variable-refresh panel's longest refresh period (1 / its minimum rate); > 0 marks the
  /// display as VRR (fit_to_display sets it, and min_interval to 1 / its maximum rate). A
  /// frame is shown when presented within [min_interval, vrr_max_period] of the previous
  /// one; below the minimum rate the panel repeats frames (low-framerate compensation).
  /// VRR has no vblank grid and no mixed cadence: one steady interval that follows the
  /// measured cost (Cadence::free). 0: not VRR.
  Nanos vrr_max_period{0};
  /// VRR: the steady interval is the mean busy time of the shrink window (the busiest
  /// vrr_trim share left out) x this. 1: no margin; a frame over the interval is presented
  /// when ready (a little late) rather than every frame idling in a held present (tuning
  /// half: 1.0, 1.03 and 1.07 tried; 1.0 met the most rows; 1.02 with vrr_trim 0 met fewer).
  double vrr_margin = 1.0;
  /// VRR: the share of the busiest recent frames left out of the mean the interval follows.
  /// 0: the plain mean. Was 0.1: the interval then sat under the mean cost, the recent mean
  /// was often over it (an overload), and a late frame widened it (below the panel's range
  /// by a whole shortest refresh) until follow_cost brought it down a window later, a cycle
  /// that cost rate. 0 met the most rows on the tuning half and sets A-M over five seeds
  /// (0.2: 14857 rows, 0.1: 14917, 0.05: 14930, 0: 14948) and was confirmed on set N
  /// (docs/results.md, issue 11's twentieth part).
  double vrr_trim = 0;
  /// VRR: a widen needs the recent cost over the interval by more than noise. The interval
  /// is the window's mean cost, so about half the frames run over it and the median of the
  /// last level_window (or the mean of the last overload_window) is over it half the time:
  /// on widely varying costs (renders uniform in 9-15 ms, say) that read as a level shift or
  /// an overload every 10-30 frames, widened, and the wider interval held until follow_cost
  /// came back a window later: the interval sat 10-12% over the mean cost. With this > 0
  /// the median or mean must exceed the interval by this many of its standard errors (a
  /// robust sigma of the window's busy times, 1.4826 x their median absolute deviation, over
  /// sqrt(n) for n frames); a real level shift passes at once, steady noise does not (test
  /// Vrr.NoiseAroundTheMeanIsNoLevelShiftARealShiftStillIs). 0: off. 1.5 chosen
  /// on the tuning half and sets A-P (rows over five seeds 16090 -> 16099; 1, 1.25, 2 and 3
  /// met 16095, 16100, 16098 and 16083; it trades rate on widely varying costs against a few
  /// more late frames on uncapped captures) and confirmed, weakly, on set Q: 269 -> 269 rows
  /// (docs/results.md, issue 11's twenty-fourth part).
  double vrr_noise_sigmas = 1.5;
  /// VRR: the standard error of the median of the last level_window busy times (the
  /// level-shift test's), in standard errors of their mean. A median of n draws is noisier
  /// than their mean: for normal noise its standard error is sqrt(pi / 2) = 1.2533 times the
  /// mean's (asymptotically; about 1.2 at n = 5), for the uniform spread of straddle-144's
  /// renders about 1.46 at n = 5. 1: the median tested as if it were a mean (the rule before
  /// issue 11's twenty-eighth part). 1.2 (normal noise at n = 5) chosen on the tuning half
  /// and sets A-R (rows over five seeds 16595 -> 16604; sqrt(pi / 2) and 1.46 met 16600 and
  /// 16591) and confirmed on set S, which could not tell: 120 -> 120, every row met either
  /// way (docs/results.md, issue 11's twenty-eighth part). Test
  /// Vrr.TheMediansTestCountsAMediansOwnNoise.
  double vrr_median_error = 1.2;
  /// VRR: the interval follows the cost when it would move by more than mixed_follow; below
  /// the panel's minimum rate (interval > vrr_max_period, where the panel repeats frames at
  /// a multiple of the frame rate it predicts from the recent intervals) only by more than
  /// this share: a steady interval keeps the repeats out of the way of new frames.
  double vrr_lfc_follow = 0.1;
  /// VRR: a frame whose render would end after its planned present is re-planned when the
  /// render estimate at this percentile of render_history says so (as the mixed cadence
  /// does with mixed_lead_percentile); a longer render is presented as soon as it is ready
  /// (a little late) instead of every frame idling in a present held for the worst case.
  /// Was 25 (tuning half: 10, 25, 35 and 50 met 139, 139, 139 and 137 rows; 85: 134; 100:
  /// 122), chosen while a frame late within the lateness tolerance was booked as on time
  /// (its lateness then came back as a jump in the next frame). With that fixed, 50 (the
  /// median render) met as many rows or more on the tuning half and each of fresh sets A-C
  /// over five seeds (25: 4266 rows in all, 50: 4286, 75: 4266, 90: 4254) and was confirmed
  /// on fresh set D (docs/results.md, issue 11's tenth part).
  double vrr_lead_percentile = 50;
  /// VRR within the panel's range: ... and higher, up to the longest recent render, while
  /// planning on it would idle the loop no more than this share of the mean busy time on
  /// average (the mean over render_history of how much shorter each render was than the
  /// plan, the time its present is held), plus the time the loop idles anyway where the
  /// interval exceeds the mean busy time (at the panel's fastest rate, say): costs that vary
  /// little are planned on their longest render (a render over the plan is shown late by the
  /// excess, an animation error), widely varying ones stay on vrr_lead_percentile (there
  /// every frame would idle). Below the range (interval > vrr_max_period) only with
  /// vrr_hold_below_range. 0: off, vrr_lead_percentile alone. 0.05 (half the 10% of rate
  /// the criteria allow, as mixed_cadence_loss) chosen on the tuning half and fresh sets A-G
  /// (0.065 and 0.08 met a few more rows, 0.1 and 0.12 far fewer) and confirmed on fresh set
  /// H; the idle time counted since, chosen on the tuning half and sets A-H and confirmed,
  /// narrowly, on set I (docs/results.md, issue 11's fourteenth and fifteenth parts).
  double vrr_hold_budget = 0.05;
  /// VRR below the panel's range (interval > vrr_max_period): the hold budget applies there
  /// too, as its share of the mean busy time alone, without the idle time counted within the
  /// range. Below the range the interval's excess over the busy time is the margin the policy
  /// put over the cost (vrr_margin), which a held present spends, not idle time the panel
  /// forces; counted as free, holds cost about 9% of the rate (Control 4K x1.0 on fresh set A:
  /// 42.8 -> 38.8 fps, 3.7 ms of waiting per 22 ms frame where the budget counted 1.1), which
  /// is why the budget was off there. false: off below the range (the rule until issue 11's
  /// fifty-seventh part). On: on the seen sets (tuning half, sets A-AB, the ten probes; five
  /// seeds) 20815 -> 20824 rows, 4079 -> 4084 below both peers at seed 7 (sets C and G +5,
  /// R and V +1; the tuning half, set D and storm probe C -1); with the idle time counted
  /// below the range too, 20746 (30 fps caps under their rate limit). Confirmed on the
  /// held-out half as written down before it was run (1099 -> 1101 rows over five seeds, 217
  /// -> 217 below both peers at seed 7; docs/results.md). Test
  /// Vrr.BelowTheRangeTheHoldBudgetCountsOnlyItsShareOfTheBusyTime.
  bool vrr_hold_below_range = true;
  /// VRR within the panel's range: the hold budget above is spent on an estimate (the
  /// window's renders against a plan), and what the loop really idles differs: calm
  /// stretches idle less than the budget, noisy ones more or less than counted. With this > 0
  /// a bank keeps the difference: each frame adds what it could have idled (vrr_hold_budget of
  /// its busy time, plus the interval's excess over its busy time, the wait of a frame held to
  /// the interval) less what it did idle (from its start to the next frame's start, less its
  /// busy time), bounded by this many frames' budgets either way; the plan's budget per frame
  /// is raised (or lowered) by the bank over this many frames. Calm stretches save for noisy
  /// ones, and a stretch that overspends pays it back. 0: off. 10 met the most rows on the
  /// tuning half and sets A-R (rows over five seeds 16604 -> 16638; 30 and 100: 16635 and
  /// 16616) but was not confirmed on set T: 115 -> 110 (a capture's VRR x1.0 row fell under
  /// the rate limit), so it stays off (docs/results.md, issue 11's twenty-ninth part). Test
  /// Vrr.TheHoldBankSavesInCalmStretchesForNoisyOnes.
  double vrr_hold_bank = 0;
  /// VRR: how much the plan for the next render (the render estimate above, which sets when
  /// the frame is shown) follows what the last render says of it. In many captures one render
  /// is not independent of the one before: a long one is often followed by a short one (a
  /// frame limiter or the driver making up the time), or costs drift, so a long one is
  /// followed by another. Over the last vrr_predict_window renders the policy measures how
  /// each render follows the one before, their lag-1 autocorrelation r (clamped to [-0.9,
  /// 0.9]); each frame's plan then moves by vrr_predict_gain x r x (the last render - those
  /// renders' mean), at most vrr_predict_clamp of the plan either way. Where renders do not
  /// follow each other, r is near 0 and so is the move. Applies on VRR, within and below the
  /// panel's range (and on immediate with vrr_predict_on_immediate, below; off by default);
  /// the fixed-refresh plans are unchanged, and so is a render thread's (planned on its
  /// longest recent render). At a lasting change of cost the renders after it follow each
  /// other too, so the plan moves up for a while (up to the clamp) before the window takes
  /// the new level in. 0: off. 0.5 over 128 renders chosen on
  /// the tuning half, sets A-Z and the eight probes (rows over five seeds 19828 -> 19882;
  /// gain 1: 19879; 256 renders: 19867); the held-out half could not tell (no row met or
  /// lost at any seed; docs/results.md, issue 11's forty-eighth part); confirmed on
  /// traces/probe-corr, written down before it existed (its VRR rows over five seeds 41 -> 45;
  /// forty-ninth part). Tests
  /// Vrr.ThePlanFollowsWhatTheLastRenderSaysOfTheNext,
  /// Vrr.AWidenCountsTheUpdatesTheWiderIntervalBrings (the lasting change).
  double vrr_predict_gain = 0.5;
  /// ... over this many renders (16 to 4096; until 16 are in, no move).
  int vrr_predict_window = 128;
  /// ... and by at most this share of the plan.
  double vrr_predict_clamp = 0.25;
  /// ... and on a display that shows presents when made without a refresh of its own
  /// (immediate), in the mixed cadence, where a render over the plan is shown late by its
  /// overrun, as on VRR (mixed_lead_cap_immediate's floor then still holds the plan up).
  /// false: off (the default). On: the tuning half, sets A-Z and the eight probes met 19882
  /// -> 19896 rows over five seeds; the held-out half could not tell (no row met or lost at
  /// any seed); traces/probe-corr, written down before it existed to decide it, met as many of
  /// its immediate rows (115 -> 115 over five seeds; the p99 lower on its drifting rows, which
  /// miss on rate or, by 0.09 ms, on animation error either way), so it stays off
  /// (docs/results.md, issue 11's forty-ninth part). Test
  /// Vrr.OnImmediateThePlanFollowsTheLastRenderWhenAsked.
  bool vrr_predict_on_immediate = false;
  /// The same rule on the mixed cadence of a FIFO queue (fixed refresh, presents queued),
  /// with this gain, over vrr_predict_window renders and within vrr_predict_clamp: the plan
  /// (mixed_lead_percentile_queued, raised to mixed_lead_deep_percentile, within
  /// mixed_lead_ratio_queued and mixed_lead_floor_percentile) moves by
  /// mixed_predict_gain_queued x r x (the last render - the renders' mean) after those
  /// bounds. There a frame's present can be issued no earlier than one period before its
  /// vblank (the queue would show it a vblank early), and the next frame starts after it:
  /// with costs between one and two periods at 144 Hz, a plan on the p95-p97 render puts
  /// every frame two periods after the last (72 fps on one capture where the capped loop
  /// shows 84). Where a long render is followed by a short one, the plan after a long one is
  /// lower and the frame makes the next vblank. 0: off (the default). 2 met the most seen
  /// rows (the tuning half, sets A-AB and the ten probes, five seeds: 21007 -> 21039, 4121 ->
  /// 4127 below both peers at seed 7; gain 1: 20996, 1.5: 21030, 3: 20910; 2 lowering the
  /// plan only: 21015) but was not confirmed on the held-out half, by the rule written down
  /// before it was run: 1102 -> 1090 rows over five seeds, 218 -> 216 below both peers at
  /// seed 7, where both rows it cost missed on stutters (a hitch after a frame the lower plan
  /// showed a period sooner), so it stays off (docs/results.md, issue 11's sixtieth part). Test
  /// Vrr.OnAFifoQueueThePlanFollowsTheLastRenderWhenAsked.
  double mixed_predict_gain_queued = 0;
  /// VRR: a frame presented later than planned leaves the world that far behind (lag); the
  /// frames after it catch up this share of the lag per frame (at least catch_up's step).
  /// Lateness is routine on VRR (frames are presented when ready): the slow catch-up of
  /// fixed refresh would let it pile up past max_lag and be dropped.
  double vrr_catch_up = 0;
  /// VRR: lag piled up past max_pile_lag by many late frames (a shader-compile storm, each
  /// compile shown tens of ms late) is kept, up to this much more, rather than dropped, and
  /// caught up apart from the rest: vrr_pile_keep_pace x the interval a frame (the world runs
  /// that much fast until it is back), never in a jump (catch_up_p99, a stall's frames) nor
  /// at vrr_catch_up_within's pace, which both put the whole pile into a few frames or into
  /// frames already far apart (a storm's end widens the interval). Beyond it the excess is
  /// dropped as before; a single frame's lateness beyond max_lag (a stall) is dropped as
  /// before. 0: off, every excess past max_pile_lag dropped (the rule until issue 11's
  /// fifty-fourth part). Was off; 1 s since that part. On the seen sets (tuning half, sets
  /// A-AB, eight probes; five seeds) 1 s met as many rows, set by set (20700), and the world
  /// time adaptive dropped at seed 7 fell from 36.1 to 7.9 s (93 -> 48 rows dropping any); of
  /// 56 VRR rows whose p99 moved, 32 went down and 3 up (at most x1.19). The pace: 0.025
  /// and 0.1 met as many rows and dropped 9.5 and 6.9 s, 0.1 raising one row's p99 x1.39;
  /// 2 s kept at 0.05 dropped 6.1 s, p99s as at 1 s, with the world up to 3 s behind.
  /// Confirmed on storm probe G, written down before it existed (rows over five seeds
  /// 114 -> 115, below both peers at seed 7 22 -> 23, dropped at seed 7 3.73 -> 0.37 s), and on
  /// the held-out half (1099 -> 1099 rows; shader-storm x1.0 VRR drops nothing where it
  /// dropped 462 ms, and misses on its p99 instead: 23.65 ms against 21.31;
  /// docs/results.md). Test Vrr.APilePastMaxPileLagIsKeptAndCaughtUpAtItsOwnPace.
  Nanos vrr_pile_keep{1'000'000'000};
  double vrr_pile_keep_pace = 0.05;
  /// VRR: a paced catch-up (the lag's step at vrr_catch_up_within's pace and the kept pile's
  /// at vrr_pile_keep_pace, together) adds at most this many of the panel's longest refreshes
  /// (vrr_max_period) to a frame: each such step is that frame's animation error. The paces
  /// are shares of the interval, and after a storm the interval stays wide for a few frames
  /// (the widen read from its compiles, followed down after vrr_refollow_frames): the held-out
  /// `shader-storm` x1.0 on vrr:48-144 caught up 23-26 ms in each of nine frames 88.6 ms apart.
  /// A jump the stall rules choose (stall_catch_up_frames, catch_up_p99) is not paced and not
  /// bounded. 0: no bound. 1 (one longest refresh, 20.83 ms on vrr:48-144): found by
  /// reading that held-out row, so the held-out half is not blind to it; 0.75 and 1.5,
  /// run after, meet as many seen rows (the value rests on that row alone).
  /// On the seen sets (tuning half, sets A-AB, ten probes; five seeds) it met as many rows,
  /// set by set (20824), and as many below both peers at seed 7 (4084); dropped world time at
  /// seed 7 8.4 -> 8.9 s; the p99 moved on 15 VRR storm rows, down on 11 (at most x0.73), up
  /// on 4 (at most x1.07). Confirmed as written down first on storm probe H (rows over five
  /// seeds 183 -> 183, below both peers 37 -> 37: it could not tell) and the held-out half
  /// (1101 -> 1102 rows over five seeds, 217 -> 218 below both peers at seed 7: that
  /// `shader-storm` row now meets, p99 20.83 ms) (docs/results.md, issue 11's fifty-eighth
  /// part; traces/probe-storm-h/README.md). Test
  /// Vrr.APacedCatchUpAddsAtMostThePanelsLongestRefreshToAFrame.
  double vrr_catch_up_cap = 1;
  /// VRR: the lag is back on time within about this long (catch_up_within's rule, on VRR):
  /// frames late by a little are routine there, and their lags would pile up past max_lag
  /// at catch_up's pace alone. 0: no bound.
  Nanos vrr_catch_up_within{4'000'000'000};
  /// VRR at the panel's fastest refresh (the interval at min_interval, 1 / its maximum
  /// rate): the panel shows no frame sooner than one shortest refresh after the previous
  /// one, so a frame planned for then is presented at once and the panel holds it (as a
  /// FIFO queue does; with queued_presents), and frames start this many intervals ahead of
  /// their display (at least the deep render estimate; at most one interval more than it,
  /// which bounds the latency, and at most pipeline_frames): a long render uses the slack
  /// of the frame queued before it instead of showing as a gap, as a blocking loop's queue
  /// absorbs it. Below the ceiling presents are held to their planned time as before.
  /// 0: off (every present held, frames start the deep render estimate ahead). 1.5 (as
  /// shallow_pipeline: a render of up to 2.5 intervals is shown at most one refresh late)
  /// chosen on the tuning half and fresh sets A-N (rows over five seeds 15333 -> 15394, no
  /// set losing; 1, 1.25, 1.75 and 2 met 15361, 15379, 15385 and 15324, and 1.5 without the
  /// bound of one interval over the deep estimate 15379: it put the latency over its limit
  /// where renders take 2 ms) and confirmed on fresh set O (359 -> 359 rows: it has no such
  /// miss; docs/results.md, issue 11's twenty-second part).
  double vrr_ceiling_lead = 1.5;
  /// VRR: when the mean busy time is under the panel's shortest refresh (follow_cost's target
  /// is min_interval) and the interval is above it, follow_cost takes the interval there
  /// however small the move. Off, a move within mixed_follow (2%) is not made: renders of 5.4
  /// ms on vrr:48-144 (test Vrr.ACostUnderTheShortestRefreshTakesTheIntervalToIt) had the
  /// interval follow the first window (frames 16.7 ms apart, so more updates each) to 7.017
  /// ms, 1% over the ceiling, and stay there for the whole run: 142.5 fps, and every present
  /// held to its own planned time instead of queueing at the ceiling (vrr_ceiling_lead).
  /// Chosen on the tuning half and fresh sets A-R (rows over five seeds 16604 -> 16638; below
  /// both peers at seed 7 3245 -> 3251) and confirmed on set V, which could not tell (114 ->
  /// 114: no capture there runs near 144 fps) (docs/results.md, issue 11's thirty-first part).
  bool vrr_snap_ceiling = true;
  /// VRR: a widen (and a forgiven hitch) restarts the window of busy times that follow_cost
  /// reads, and follow_cost waits until it is full (shrink_window frames). In a dense
  /// shader-compile storm the widen's level is a compile's (every missed frame was one):
  /// traces/probe-storm's `storm_10ms_share0.5_300frames` x1.0 widened to 88 ms, and the
  /// 10 ms frames after it each waited 68 ms for 30 frames, 2.7 s at 11 fps. With this > 0,
  /// once that many frames are in the window and their mean busy time (with vrr_margin) is
  /// under vrr_refollow_share of the interval, follow_cost takes it without waiting for the
  /// rest (a transition of its own, refollow_cost): only that far down, never up (a lasting
  /// change's frames cost about the widened level, so they do not move it). 0: off,
  /// follow_cost waits for the full window. 8 frames and a share of 0.5 chosen on
  /// traces/probe-storm (rows over five seeds 405 -> 417; 4, 6, 12 and 16 frames 417, 412,
  /// 409 and 416) with the tuning half and fresh sets A-R (16644 -> 16646; 4 frames 16640, 16
  /// frames and a share of 0.6 16646) and confirmed on traces/probe-storm-d (143 -> 146) and
  /// set Y (40 -> 40: it could not tell), both written down before they existed
  /// (docs/results.md, issue 11's thirty-fourth part). Test
  /// Vrr.AWidenReadFromAStormsCompilesIsFollowedDownBeforeTheWindowRefills.
  int vrr_refollow_frames = 8;
  double vrr_refollow_share = 0.5;
  /// A frame's busy time (the shrink and widen rules, the cadences, VRR's follow_cost, the
  /// hold budgets) is the longer of its CPU work (render + updates) and the GPU time of
  /// the latest frame reported (observe_gpu), where the renders run on the loop's thread.
  /// The GPU works through the frames one after another, so an interval shorter than its
  /// time per frame cannot last: with the CPU's time alone, a GPU-bound loop shrank below
  /// it, the GPU's queue filled until the acquire's fence wait made a render overrun, the
  /// widen drained the queue, and the shrink came back: a sawtooth. Seen on an NVIDIA H200
  /// (headless load_sweep, 1 ms of CPU and 9.8 ms of GPU a frame: interval 9.3 ms, 40 widens
  /// in 10 s, p99 animation error 2.41 ms; now 11.75 ms, no widen, 0.38 ms, where flipcode
  /// gave 0.56 and the capped loop 0.30; docs/gpu-check.md) and reproduced by the
  /// simulator's GPU model (pacer-sim --gpu-time). Not a tuned constant: false is the earlier
  /// behaviour. The simulator without a GPU cost, the comparison and every trace run are
  /// unchanged. Tests StateMachine.AGpuBoundLoopHoldsAnIntervalItsGpuCanKeep and
  /// EquivalenceGpu.AGpuBoundLoopIsTheSameInBoth. With renders on a render thread
  /// (set_render_off_thread) busy time stays the loop thread's.
  bool busy_counts_gpu = true;
  /// A frame's GPU work queues behind the previous frame's: the push rule counts the next
  /// frame's render estimate from when the GPU is expected to be done with the current one
  /// (the later of its render's end and the previous frame's work, plus the latest GPU
  /// time; its render's end where its present is held, the host having waited for the GPU
  /// then), when that is later than now, so a frame that cannot make its vblank is planned
  /// for the one it can make before it starts. Without it, on fifo:144 with 1.5 ms of CPU
  /// and 9.77 ms of GPU a frame (the simulator's GPU model) the mixed cadence planned frames
  /// one period after one whose work was still queued: shown a vblank late, p99 animation
  /// error 6.94 ms; with it 0.067 ms at 73.1 fps. Only with GPU times reported, with the
  /// renders on the loop's thread; held presents are unchanged. Not a tuned constant.
  /// Test StateMachine.AGpuBoundFrameIsPlannedBehindTheFrameBeforesGpuWork.
  bool gpu_queue_plan = true;
};

/// Throws std::invalid_argument naming the field and its value for a config no policy can
/// run: intervals <= 0 or over an hour, max_interval < min_interval, widen_factor <= 1,
/// shrink_fraction outside (0, 1], windows and histories < 1, shrink_percentile outside
/// (0, 100], max_backoff outside [0, 20], misses_to_widen above miss_window, miss_window
/// outside [1, 32], pipeline_frames above 15, shallow_pipeline outside [1, 15], non-finite
/// factors, negative margins or estimate_hitch_* counts, estimate_hitch_ratio below 1,
/// vrr_hold_budget or mixed_hold_budget outside [0, 1), max_pile_lag above 0 but under
/// max_lag, a negative stall_lag, stall_run_lag, stall_catch_up_frames,
/// stall_catch_up_window or stall_isolated_frames, vrr_ceiling_lead
/// outside [0, 15], mixed_lead_ratio_queued neither 0 nor >= 1, mixed_lead_floor_percentile
/// outside [0, 100], vrr_noise_sigmas outside [0, 10], vrr_median_error outside [1, 3],
/// vrr_hold_bank outside [0, 10000], a negative pile_catch_up_lag or a pile_catch_up_within
/// not above 0, a negative vrr_refollow_frames or vrr_refollow_share outside (0, 1],
/// vrr_predict_gain outside [0, 2], mixed_predict_gain_queued outside [0, 4],
/// vrr_predict_window outside [16, 4096], vrr_predict_clamp outside [0, 1], push_gap_guard
/// neither 0 nor >= 1, push_gap_window outside [1, 1024], a negative vrr_pile_keep,
/// vrr_pile_keep_pace outside (0, 1], vrr_catch_up_cap outside [0, 100]; and
/// overload_window under 2, catch_up_p99_window under 100, level_window negative or above
/// shrink_window, mixed_margin or vrr_margin under 1, vrr_trim outside [0, 1),
/// mixed_lead_percentile, mixed_lead_percentile_queued or vrr_lead_percentile outside
/// (0, 100], mixed_lead_deep_percentile outside [0, 100], vrr_catch_up or mixed_leave_share
/// outside [0, 1], catch_up_pile outside (0, 1), spiral_ratio, keep_debt_catch_up or
/// catch_up_late not above 0 (each refusal names the field, its value and its range).
/// The initial interval only has to be > 0: it is clamped to [min_interval, max_interval]
/// (fit_to_display raises min_interval to a slow VRR panel's period).
void validate(const AdaptiveConfig& config);

/// Sets the field of `config` named `name` to `value`, as `bench/compare` and `pacer-sim`
/// take `--adaptive NAME=VALUE`: a numeric field by its name (an integer field takes the
/// value truncated), a boolean field true for any value but 0, a duration field by its name
/// with `_ms` appended and the value in milliseconds (`max_lag_ms`). Every field but the
/// display's own (refresh_period, vrr_max_period, vblank_phase, vblank_latch,
/// queued_presents: fit_to_display sets them). `min_interval_ms` only raises min_interval
/// (the display's fastest refresh stays a bound). Returns false, changing nothing, for a
/// name it does not take or a value that is not finite; the value is not checked against
/// the field's range here: validate() checks the config it makes.
bool set_knob(AdaptiveConfig& config, std::string_view name, double value);
/// The same for a setting as the tools take it, "NAME=VALUE" (VALUE a plain decimal number:
/// pacer::parse_decimal). False, changing nothing, for a text it does not take.
bool set_knob(AdaptiveConfig& config, std::string_view setting);

}  // namespace pacer
