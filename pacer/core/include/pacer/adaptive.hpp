// pacer/adaptive.hpp - the adaptive render interval, display-aware (docs/pacing.md).
//
// Until the display is known it is the seed's loop (pacer/adaptive_literal.hpp). Once it
// is (a refresh period in the config, or the first observe_display() call), each frame
// gets a planned display time, the world is rendered for that time, and the present is
// held until it (FramePlan::present_at). The policy is a small state machine:
//
//   Mode     seed -> display            once, when the display becomes known
//   Cadence  even <-> mixed             even: whole refresh periods (a steady interval on a
//                                       free display); mixed: each frame at the first
//                                       vblank it can make (a free interval following the
//                                       mean busy time)
//            free                       VRR only (AdaptiveConfig::vrr_max_period > 0): no grid,
//                                       no mixed cadence; one steady interval that follows
//                                       the mean cost, steadier below the panel's
//                                       minimum rate (where it repeats frames)
//   Depth    deep <-> shallow           FIFO: frames start pipeline_frames intervals ahead
//                                       while a recent frame needed it, else one
//   Hitch    watching after a widen     forgiven (back to the old interval) when the frames
//                                       after it fit the old interval
//
// After every frame one decision is taken (AdaptivePolicy::Transition, each with its reason,
// readable as last_transition()): enter/leave/follow the mixed cadence, follow the cost (VRR),
// widen (misses in the miss window while the recent median cost needs it, or an overload), widen into the mixed cadence, forgive a hitch, shrink, or
// nothing. Every constant is a field of AdaptiveConfig (pacer/adaptive_config.hpp).
//
//   using namespace std::chrono_literals;  // the time literals below (ms, ns)
//   pacer::AdaptiveConfig cfg;              // every constant has a documented default
//   cfg.refresh_period = 16'666'667ns;      // a 60 Hz FIFO swapchain; 0 = unknown
//   cfg.pipeline_frames = 2;                // swapchain images - 1 (pacer::fit_to_display)
//   pacer::AdaptivePolicy pacer{cfg, {}};   // FixedStepConfig{} = 1/64 s steps, cap 8
//   auto plan = pacer.begin_frame(0ns);     // then the protocol of pacer/pacer.hpp;
//   // hold the present until plan.present_at when it is >= 0, and feed display
//   // times back with pacer.observe_display(frame, shown).
#pragma once

#include <algorithm>
#include <array>
#include <optional>
#include <string_view>
#include <deque>
#include <vector>

#include "pacer/adaptive_config.hpp"
#include "pacer/adaptive_literal.hpp"
#include "pacer/vblank_grid.hpp"

namespace pacer {

class AdaptivePolicy final : public AdaptiveLiteralPolicy {
 public:
  static constexpr std::string_view policy_name = "adaptive";

  enum class Mode { seed, display };
  enum class Cadence { even, mixed, free };
  enum class Depth { deep, shallow };
  /// What the decision after a frame did.
  enum class Transition {
    none,            ///< nothing changed
    enter_mixed,     ///< whole periods would cost more than mixed_cadence_loss of the rate
    follow_mean,     ///< the mixed cadence's interval moved with the mean busy time
    follow_cost,     ///< VRR: the steady interval moved with the mean busy time
    refollow_cost,   ///< VRR: the frames since a widen cost far less than it: down to their mean
    leave_mixed,     ///< whole periods cost less than half the allowed loss again
    widen,           ///< a lasting change (misses, and the recent median cost needs it), or an overload
    widen_to_mixed,  ///< a widen whose whole periods would cost too much: the mixed cadence
    absorb_misses,   ///< a lasting miss at the widest interval already: the count restarts
    forgive_hitch,   ///< the frames after a widen fit the old interval: back to it
    shrink,          ///< headroom held long enough: one period (or to the need) shorter
  };
  struct Decision {
    Transition kind = Transition::none;
    Nanos interval{0};        ///< the interval after it
    std::string_view reason;  ///< why, in words (a static string)
  };

  /// `name` is the policy name in records and logs (a string literal or other static string).
  /// Throws std::invalid_argument for a config validate() refuses (either part).
  AdaptivePolicy(AdaptiveConfig config, FixedStepConfig sim, std::string_view name = policy_name);

  Mode mode() const { return mode_; }
  Cadence cadence() const { return cadence_; }
  Depth depth() const;
  /// The last decision that changed something (Transition::none before the first).
  const Decision& last_transition() const { return last_transition_; }

  /// True once the display-aware mode runs (from the first frame with a refresh period).
  bool display_mode() const { return mode_ == Mode::display; }
  /// Planned display time of the current frame (display-aware mode).
  Nanos planned_display() const { return display_cur_; }
  /// Current render-time estimate (longest recent render + margin).
  Nanos render_estimate() const { return lead_; }
  /// How far the world shown lags its display time after late frames (caught up per catch_up).
  Nanos lag() const { return lag_ + pile_kept_; }
  /// True on a VRR panel (AdaptiveConfig::vrr_max_period > 0 and no fixed refresh).
  bool vrr() const { return config_.vrr_max_period > Nanos::zero() && config_.refresh_period <= Nanos::zero(); }
  /// VRR below the panel's minimum rate: it repeats frames (low-framerate compensation).
  bool below_vrr_range() const { return vrr() && interval_ > config_.vrr_max_period; }
  /// True on a VRR panel whose presents queue, with vrr_ceiling_lead on: a frame planned for
  /// the panel's earliest refresh is presented at once (AdaptiveConfig::vrr_ceiling_lead).
  bool vrr_queues() const { return vrr() && config_.queued_presents && config_.vrr_ceiling_lead > 0; }
  /// True while the mixed cadence runs (a free interval on a fixed-refresh display).
  bool mixed_cadence() const { return cadence_ == Cadence::mixed; }
  /// Failed shrinks so far (each doubles the wait before the next try, up to max_backoff).
  int backoff() const { return backoff_; }
  /// The vblank grid in use (phase and period, locked to observed displays).
  const VblankGrid& grid() const { return grid_; }
  /// How late a frame may be without counting as late (see AdaptiveConfig::late_tolerance).
  Nanos lateness_tolerance() const;

 protected:
  FramePlan on_begin_frame(Nanos now) override;
  void on_end_render(Nanos now) override;
  Action on_next(Nanos now) override;
  void on_end_update(Nanos now) override;
  void on_observe_display(std::int64_t frame, Nanos display) override;
  void on_observe_wake(Nanos deadline, Nanos woke) override;
  void on_present_call(Nanos call) override;
  /// The GPU time of the latest frame whose GPU work finished: a GPU-bound frame's render
  /// estimate is its GPU time, not the CPU's (docs/pacing.md, "GPU time").
  void on_observe_gpu(std::int64_t frame, Nanos gpu) override;
  /// Renders on a render thread: the next frame's render starts no earlier than this
  /// frame's present, so its planned display leaves the render estimate after that.
  void on_set_render_off_thread(bool on) override { off_thread_ = on; }
  Nanos frame_interval() const override { return mode_ == Mode::display ? planned_gap_ : interval_; }
  Nanos world_target() const override { return frame_end_ - clock_.dropped() - lag_ - pile_kept_; }

 private:
  /// What happened to the frame in flight (reset when a frame begins).
  struct FrameState {
    bool planned_next = false;  ///< the next frame's display and start are planned
    bool missed = false;        ///< this frame missed its planned display
    bool pushed = false;        ///< the next frame's display was pushed a slot later
    bool waited = false;        ///< the loop waited for the next start
    int pushes = 0;
    /// This frame's display as reported: always where a frame is shown when presented
    /// (immediate, VRR), only when later than planned on a latching display.
    Nanos observed_display = Nanos::min();
    Nanos update_cost{0};       ///< CPU time of this frame's updates
    Nanos update_started{0};
    Nanos present_call{0};
  };
  /// The display-aware hitch recovery: watching the frames after a widen.
  struct HitchWatch {
    Nanos pre_interval{0};
    int seen = 0;     ///< frames judged since the (latest) widen
    int misfits = 0;  ///< ... of which would not have fit pre_interval
  };

  // ---- per frame
  FramePlan display_begin(Nanos now);
  Action display_next(Nanos now);
  /// Plans the next frame: its display one interval (mixed: one period) after this one's,
  /// never before the shown time + a period, never before a late queue's floor.
  void plan_next_frame();
  /// The frame just planned for display_cur_ was shown at `shown`: its lateness joins the
  /// lag, which is dropped past its bounds and caught up a step per frame (caught_).
  void absorb_lag(Nanos shown);
  /// catch_up_p99: books the frame's |animation error| into the recent errors.
  void book_error(Nanos shown);
  /// Drops a stall's lateness beyond max_lag and a pile beyond max_pile_lag (on VRR up to
  /// vrr_pile_keep of the pile kept apart), for a frame that added `added`.
  void drop_excess(Nanos added);
  /// A frame that added stall_lag or more starts a stall's catch-up (stall_left_ frames).
  void start_stall(Nanos added);
  /// Counts a run of late frames; at its end on VRR, a lasting run that piled up
  /// stall_run_lag (or, with catch_up_p99, one a jump suits) is caught up as a stall.
  void end_late_run(Nanos added, double rate, Nanos within);
  /// The stall's step this frame (its lag over the frames left, within the step cap).
  Nanos stall_step();
  /// vrr_hold_bank: books a frame of `busy` CPU work that ran `period` from its start to
  /// the next frame's start into the hold bank.
  void bank_hold(Nanos period, Nanos busy);
  /// A late frame, for the catch-up's bursts and runs: one that added catch_up_late x the
  /// interval of lag or more.
  bool late_frame(Nanos added) const {
    return static_cast<double>(added.count()) >= config_.catch_up_late * static_cast<double>(interval_.count());
  }
  /// catch_up_p99: whether catching the lag up within catch_up_p99_frames leaves the
  /// recent frames' errors a lower p99 than the paced catch-up (paced_step at `rate`,
  /// `within`, as absorb_lag takes it) does.
  bool jump_leaves_lower_p99(double rate, Nanos within) const;
  /// The catch-up step for `lag` at `rate` of the interval per frame, or faster to be back
  /// on time within `within` (0: no bound), or at vrr_catch_up of the lag on VRR; on VRR
  /// with vrr_catch_up_cap, no more than its bound less the kept pile's step.
  Nanos paced_step(Nanos lag, double rate, Nanos within) const;
  /// The kept pile's catch-up this frame: vrr_pile_keep_pace of the interval, within
  /// vrr_catch_up_cap's bound, at most the pile.
  Nanos pile_step() const;
  /// VRR with vrr_catch_up_cap: the most a paced catch-up (the lag's and the kept pile's
  /// steps together) adds to a frame; 0: no bound.
  Nanos catch_up_cap() const;
  /// Books lag `added` at `shown` into the bursts of late frames that pace the catch-up.
  void note_lag(Nanos shown, Nanos added);
  /// Within how long the lag is to be back on time: vrr_catch_up_within on VRR,
  /// catch_up_within elsewhere, or sooner when late frames recur (catch_up_paced); 0: no
  /// bound, catch_up alone.
  Nanos catch_up_time() const;
  /// After a render: the estimates the next frames are planned on (lead_, longest_lead_,
  /// deep_lead_, typical_lead_).
  void update_render_estimates();
  /// estimate_hitch_memory: sorted_renders_ without a burst of hitches older than that.
  void leave_out_past_burst(Nanos median);
  /// deep_lead_: the second-longest render of the deep history with `sample`, at least lead_.
  void update_deep_lead(Nanos sample);
  /// The plan's index into sorted_renders_, raised from `lead_at` by the hold budget
  /// (vrr_hold_budget on VRR, mixed_hold_budget on immediate's mixed cadence).
  std::size_t raise_by_hold_budget(std::size_t lead_at) const;
  /// The mixed cadence on a FIFO queue: typical_lead_ raised to the deep history's
  /// percentile, capped by the median, then moved by the last render `sample`.
  void bound_queued_mixed_lead(Nanos sample, Nanos median);
  /// typical_lead_ within mixed_lead_ratio_queued x `median` and the mixed_lead_floor_percentile
  /// of `sorted` (the recent renders, ascending).
  void cap_mixed_lead(const std::vector<Nanos>& sorted, Nanos median);
  /// vrr_predict_gain: keeps `sample` (the render just measured) among the last
  /// vrr_predict_window (on VRR, and on immediate with vrr_predict_on_immediate, with the
  /// gain above 0; on a FIFO queue with mixed_predict_gain_queued above 0; nothing is kept
  /// otherwise).
  void book_render(Nanos sample);
  /// vrr_predict_gain (mixed_predict_gain_queued on a FIFO queue): how far the next frame's
  /// `plan` moves for the last render `sample` (0 where book_render keeps nothing, outside
  /// VRR's free cadence and the mixed one of immediate and of a FIFO queue, or with fewer
  /// than 16 renders kept).
  Nanos predicted_move(Nanos sample, Nanos plan) const;
  /// The mixed cadence on a FIFO queue: fixed refresh, presents latched and queued.
  bool queued_fifo() const { return latched() && config_.queued_presents; }
  /// Presents shown when made, with no refresh of their own: immediate (and offscreen), not
  /// VRR, not immediate:HZ (a known rate: its own rules), not a FIFO queue of unknown rate.
  bool immediate() const { return !vrr() && !config_.vblank_latch && config_.refresh_period <= Nanos::zero(); }

  // ---- after a frame: observations, then one decision, applied in one place
  /// The frame just ended; `now` is the next frame's start.
  void after_frame(Nanos now);
  void observe_frame(std::int64_t frame, Nanos busy);
  /// Frames among the last miss_window that missed.
  int recent_misses() const;
  std::optional<Decision> decide_cadence() const;
  /// VRR: follow the mean cost (Cadence::free).
  std::optional<Decision> decide_vrr() const;
  /// The median busy time of the last level_window frames x widen_factor exceeds the
  /// interval (on VRR by more than noise_margin, from noise_sigma's `sigma` x
  /// vrr_median_error): the frames missing are the level, not a burst (true when
  /// level_window is 0).
  bool level_shift(double sigma) const;
  /// The margin a widen puts over the cost: widen_factor; on VRR vrr_margin (a frame over
  /// the interval there is shown when ready, a little late, not a whole period late).
  double widen_margin() const { return cadence_ == Cadence::free ? config_.vrr_margin : config_.widen_factor; }
  std::optional<Decision> decide_widen(bool miss) const;
  /// The interval a widen goes to for a lasting busy time (measured at the interval in
  /// force): the widen margin over it, and with widen_counts_updates the updates the wider
  /// interval adds.
  Nanos widen_target(Nanos lasting) const;
  /// Recent update CPU time per simulated time (the spiral guard's measure); 0 before any update.
  double update_rate() const;
  /// VRR: the spread of the window's busy times, a robust sigma in ns (0 elsewhere or when
  /// vrr_noise_sigmas is off).
  double noise_sigma() const;
  /// How far a mean of n recent busy times may sit over the interval (the window's mean)
  /// by noise alone: vrr_noise_sigmas standard errors, sigma / sqrt(n) each.
  Nanos noise_margin(std::size_t n, double sigma) const;
  std::optional<Decision> decide_forgive();
  std::optional<Decision> decide_shrink() const;
  void apply(const Decision& d, std::int64_t frame);

  // ---- the grid and estimates
  /// The mixed cadence's interval for a mean busy time.
  Nanos free_interval(Nanos mean_busy) const;
  /// Whether the mixed cadence beats whole periods `even` with the free interval `free`.
  bool prefer_mixed(Nanos even, Nanos free) const;
  /// Mean of the last n busy times without the longest (a hitch among them).
  Nanos recent_busy_mean(std::size_t n) const;
  Nanos mean_busy() const;
  /// Mean busy time of the shrink window without its busiest vrr_trim share.
  Nanos trimmed_mean_busy() const;
  Nanos quantize_up(Nanos interval) const;
  /// The render estimate the next frame is planned on: a typical render in the mixed
  /// cadence and on VRR (a longer one is shown late or when ready), else lead_.
  Nanos render_lead() const;
  /// Renders on a render thread: the longest recent render + render_thread_margin (a late
  /// present there is an animation error; the render thread's idle time costs nothing).
  Nanos off_thread_lead() const { return longest_lead_ + config_.render_thread_margin; }
  /// A frame's busy time from its CPU work (render + updates): at least the latest GPU time
  /// where the renders run on the loop's thread (busy_counts_gpu).
  Nanos busy_with_gpu(Nanos cpu_busy) const {
    return config_.busy_counts_gpu && !off_thread_ ? std::max(cpu_busy, last_gpu_) : cpu_busy;
  }
  Nanos grid_at_or_after(Nanos t) const;
  /// The vblank a grid-derived time (a vblank plus whole periods) stands for.
  Nanos grid_snap(Nanos t) const;
  /// The period changed with the lock: the interval keeps its whole number of periods.
  void follow_grid();
  /// Where the frame about to be planned can be shown at the earliest when `frame` was shown
  /// at `display`, `ahead` frames before it (AdaptiveConfig::late_floor_in_flight).
  Nanos late_floor_after(std::int64_t frame, Nanos display, std::int64_t ahead) const;
  bool latched() const { return period_ > Nanos::zero() && config_.vblank_latch; }
  /// Frames are planned on the vblank grid: a fixed refresh, except the mixed cadence on a
  /// display that shows presents when made (immediate:HZ), which runs free as on a free
  /// display (a held present there would cost a whole extra period per long frame).
  bool on_grid() const { return period_ > Nanos::zero() && (config_.vblank_latch || cadence_ == Cadence::even); }
  Nanos start_lead() const;
  /// How far ahead of its planned display a held present is issued (present_call_lead).
  Nanos call_lead() const;
  /// Fixed refresh: how far ahead of its display a frame starts, `depth` intervals deep.
  Nanos fixed_lead(int depth) const;
  Nanos percentile_busy(double p) const;
  void set_display_interval(Nanos interval, unsigned event);

  Mode mode_ = Mode::seed;
  Cadence cadence_ = Cadence::even;
  Decision last_transition_{};
  bool display_seen_ = false;
  Nanos period_{0};
  VblankGrid grid_;
  Nanos planned_gap_{0};     ///< the current frame's planned display less the previous frame's
  FrameState frame_;

  // Plans.
  Nanos display_cur_{0};     ///< planned display of the current frame
  Nanos display_next_{0};    ///< planned display of the next frame (the world target)
  Nanos start_next_{0};      ///< planned start of the next frame
  Nanos shown_prev_{0};      ///< when the previous frame is (expected to be) shown
  Nanos late_floor_{0};      ///< no frame planned before this (displays seen late; late_floor_after)
  Nanos cap_ideal_{Nanos::min()};  ///< the mixed cadence under a cap: the next frame's ideal display (min: none)
  Nanos render_end_{0};
  Nanos present_at_{-1};     ///< the current frame's planned present (FramePlan::present_at)
  bool off_thread_ = false;  ///< renders run on a render thread (set_render_off_thread)
  Nanos render_free_{0};     ///< off thread: when the render thread is expected to be done with the current frame
  int stall_left_ = 0;       ///< frames left to catch a stall's lag up in
  std::deque<std::int64_t> stall_frames_;  ///< stall_catch_up_window: the recent stalls' frames
  Nanos run_add_{0};         ///< lag added by the current run of late frames (stall_run_lag)
  int run_frames_ = 0;       ///< late frames in that run
  std::vector<Nanos> gap_ring_;     ///< push_gap_guard: the last push_gap_window gaps between shown frames
  std::size_t gap_next_ = 0;
  bool shown_once_ = false;
  std::vector<Nanos> err_ring_;     ///< catch_up_p99: recent frames' |animation error|
  std::size_t err_next_ = 0;
  Nanos world_prev_{Nanos::min()};  ///< the world the previous frame showed (min: none yet)
  mutable std::vector<Nanos> p99_scratch_;
  Nanos lag_{0};             ///< the world shown runs this far behind the display (late frames)
  Nanos pile_kept_{0};       ///< ... and this much more: a pile's excess kept apart (vrr_pile_keep), caught up slowly
  Nanos caught_{0};          ///< the lag this frame's updates catch up (absorb_lag's step)
  // The catch-up's pace (absorb_lag): bursts of late frames, how often, how much lag.
  Nanos last_late_{Nanos::min()};  ///< when the last late frame was shown (min: none yet)
  std::int64_t last_late_index_ = -1'000'000'000;  ///< ... and its frame index (stall_isolated_frames)
  Nanos burst_start_{0};            ///< when the current burst's first late frame was shown
  Nanos burst_add_{0};              ///< the lag added since then
  Nanos late_spacing_{0};           ///< the recent time from one burst to the next (0: not yet two)
  Nanos late_add_{0};               ///< the recent lag added from one burst to the next
  static constexpr std::size_t kPlanSlots = 16;  ///< frames in flight remembered (pipeline_frames <= 15)
  std::array<Nanos, kPlanSlots> planned_{};                 ///< planned display by frame % slots
  std::array<std::int64_t, kPlanSlots> planned_frame_{};  ///< -1: none (set in the constructor)

  // Estimates.
  std::vector<Nanos> wakes_;  ///< recent wake errors (>= 0)
  std::size_t wakes_next_ = 0;
  Nanos wake_tolerance_{0};
  std::vector<Nanos> calls_;  ///< recent present calls (present_call_lead)
  std::size_t calls_next_ = 0;
  Nanos call_lead_{0};        ///< their median
  std::vector<Nanos> call_scratch_;  ///< reused for the median: no allocation per frame
  std::vector<Nanos> post_work_;  ///< recent present call + updates of a frame
  std::size_t post_next_ = 0;
  Nanos post_lead_{0};
  Nanos lead_{0};
  Nanos last_gpu_{0};        ///< GPU time of the latest finished frame (0: none reported)
  Nanos gpu_free_{0};        ///< when the GPU is expected to be done with the current frame (gpu_queue_plan)
  std::int64_t last_gpu_frame_ = -1;
  std::vector<Nanos> renders_;
  std::size_t renders_next_ = 0;
  std::vector<Nanos> deep_renders_;
  std::size_t deep_next_ = 0;
  Nanos deep_lead_{0};
  std::vector<Nanos> sorted_renders_, sorted_deep_;  ///< scratch for the estimates (kept: no allocation per frame)
  double hold_bank_ = 0;  ///< vrr_hold_bank's bank, ns of idle time (< 0: overspent)
  mutable std::vector<Nanos> noise_scratch_;          ///< scratch for noise_margin
  /// Scratch for the newest busy times (level_shift's median, recent_busy_mean), each using
  /// it only within its own call: no allocation per frame.
  mutable std::vector<Nanos> busy_scratch_;
  Nanos typical_lead_{0};
  /// The fewest renders a lag-1 correlation is read from: until then no plan moves (also
  /// vrr_predict_window's floor in validate()).
  static constexpr std::size_t kPredictMinRenders = 16;
  /// |r| is read at most this: however closely a window's renders follow each other, a plan
  /// never moves by the last render's whole distance from their mean (times the gain).
  static constexpr double kPredictMaxCorrelation = 0.9;
  std::vector<Nanos> predict_ring_;  ///< vrr_predict_window's renders, oldest at predict_next_ once full
  std::size_t predict_next_ = 0;
  Nanos longest_lead_{0};    ///< the longest render the estimates keep + present_margin
  std::vector<Nanos> busy_ring_;
  std::size_t busy_next_ = 0;

  // Decision state.
  unsigned miss_history_ = 0;       ///< bit i: the frame i frames ago missed
  std::vector<Nanos> missed_busy_;  ///< busy times of the current run of misses
  std::optional<HitchWatch> hitch_;
  int backoff_ = 0;
  std::int64_t last_shrink_frame_ = -1'000'000;
  std::int64_t last_deep_frame_ = 0;  ///< the last frame that needed pipeline_frames (or missed)
  Nanos update_cost_sum_{0};        ///< spiral detection: recent update CPU time ...
  Nanos update_sim_sum_{0};         ///< ... against the simulation time it covered
  bool spiral_ = false;
};

/// "none", "enter_mixed", ... (the enumerator's name).
std::string_view to_string(AdaptivePolicy::Transition t);

}  // namespace pacer
