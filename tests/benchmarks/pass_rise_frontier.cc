// What a PASS boundary that rises (Seeds(...).pass_rise(rise, from)) buys and costs, computed
// exactly by the recursion the gate calibrates with (statistics/truncated_sprt.h), for one shape
// of the likelihood-ratio looks: per rise and look, the mean seeds under no change and at the
// shift against Wald's bound, the 95th percentile under no change against the target (2.5 x the
// bound) and its floor, the chance to stop within the target, alpha and the power.
//
//   pass_rise_frontier D ALPHA [REFERENCE_SEEDS=0] [SPREAD_DF=0] [SLOPE_SEEDS=0] [SKEW=0]
//
// D: the shift the looks weigh, in sds of one seed; ALPHA: the metric's level; REFERENCE_SEEDS:
// the baseline's seeds fresh seeds are measured against (0: paired differences); SPREAD_DF: the
// degrees of freedom of the sd (a stored spread of 52 pairs: 51); SLOPE_SEEDS: the baseline's
// seeds a covariate's slope came from (0: none); SKEW: the seeds' skew toward a degradation. The
// default design's looks (blocks of 2 up to 52) at power 0.8. Seconds for paired shapes, a few
// minutes for fresh ones (the baseline's error adds two integrals to every calibration).
//
// For paired shapes (REFERENCE_SEEDS 0) the last line is a search beyond the declarable steps: the
// PASS boundary may rise by its own amount at every look up to 3 past the target's (a rise of any
// shape, never falling), and a pattern search from four starts (the best step from each of the
// three looks above, and 2 at the target; steps of 0.5 down to 1/16, each point calibrated
// exactly) finds the shape with the smallest larger ratio of the two among those that stop 95% of
// unchanged runs by the target.
// A local search, so an upper bound on the best such shape's cost, not a proof of it; it tells
// whether the step `.pass_rise` declares leaves much on the table.
//
//   pass_rise_frontier --chosen D ALPHA [REFERENCE_SEEDS=0] [SPREAD_DF=0] [SLOPE_SEEDS=0] [SKEW=0]
//
// prints only the raise the default design chooses for the shape (statistics/pass_rise_choice.h:
// `at` a PASS look, `from` a step), the look by which it stops 95% of unchanged runs against 2.5 x
// the bound, and its ratios: what the gate's looks take when no rise is declared.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "statistics/pass_rise_choice.h"
#include "statistics/sequential_bound.h"
#include "statistics/truncated_sprt.h"

namespace {

namespace stats = mlregress::internal::stats;

constexpr double kBeta = 0.2;

double number(const char* text, const char* what) {
  char* end = nullptr;
  const double value = std::strtod(text, &end);
  if (end == text || *end != '\0') {
    throw std::invalid_argument(fmt::format("{} must be a number, got '{}'", what, text));
  }
  return value;
}

// The chance to have stopped by the look at `seeds` (stop_at summed), and the 95th percentile.
struct Tail {
  double within = 0.0;
  int p95 = 0;
};

Tail tail_of(const stats::SprtShape& shape, const stats::SprtOutcomes& o, int seeds) {
  Tail t;
  double stopped = 0.0;
  for (std::size_t k = 0; k < shape.looks.size(); ++k) {
    stopped += o.stop_at[k];
    if (shape.looks[k] <= seeds) t.within = stopped;
    if (t.p95 == 0 && stopped >= 0.95) t.p95 = shape.looks[k];
  }
  return t;
}

// A rise of any shape: what it costs and whether it stops 95% of unchanged runs by the target.
struct ShapedRise {
  std::vector<double> increments;  // at looks 1 .. increments.size() (the first look's is 0)
  stats::SprtBoundaries boundaries;
  double mean_h0 = 0.0, mean_h1 = 0.0, ratio_h0 = 0.0, ratio_h1 = 0.0;
  double alpha = 0.0, power = 0.0;
  Tail tail;
  bool feasible = false;

  double cost() const { return feasible ? std::max(ratio_h0, ratio_h1) : 1e9 - tail.within; }
};

// The shape calibrated exactly and measured under no change and at the shift.
ShapedRise evaluate_shape(const stats::SprtShape& shape, double alpha, int target,
                          const stats::ExpectedSeedsBound& bound, std::vector<double> increments) {
  ShapedRise r;
  r.increments = std::move(increments);
  std::vector<double> rise(shape.looks.size(), 0.0);
  for (std::size_t k = 1; k < rise.size(); ++k)
    rise[k] = rise[k - 1] + (k <= r.increments.size() ? r.increments[k - 1] : 0.0);
  if (std::all_of(rise.begin(), rise.end(), [](double x) { return x == 0.0; }))
    rise.clear();  // the constant boundary
  const stats::SprtCalibration c = stats::calibrate_sprt(shape, alpha, kBeta, rise);
  const stats::SprtOutcomes h0 = stats::sprt_outcomes(shape, c.boundaries, 0.0);
  const stats::SprtOutcomes h1 = stats::sprt_outcomes(shape, c.boundaries, shape.d);
  r.boundaries = c.boundaries;
  r.mean_h0 = h0.expected_seeds;
  r.mean_h1 = h1.expected_seeds;
  r.ratio_h0 = h0.expected_seeds / bound.h0;
  r.ratio_h1 = h1.expected_seeds / bound.h1;
  r.tail = tail_of(shape, h0, target);
  r.alpha = c.alpha;
  r.power = c.power;
  // The calibration holds alpha and beta to about 0.01%: the 95% must hold past that.
  r.feasible = r.tail.within >= 0.9501 && r.power >= 0.799;
  return r;
}

// One step of `rise` from the look at `from` seeds (none when rise is 0), or with `only` a PASS
// look (the rise at that look alone), printed; returned as a shape for the search to start from.
ShapedRise print_row(const stats::SprtShape& shape, double alpha, double rise, int from, int target,
                     const stats::ExpectedSeedsBound& bound, bool only = false) {
  std::vector<double> increments;
  for (std::size_t k = 1; k < shape.looks.size(); ++k) {
    const bool up = rise > 0.0 && shape.looks[k] == from;
    const bool down = only && rise > 0.0 && shape.looks[k - 1] == from;
    increments.push_back(up ? rise : down ? -rise : 0.0);
  }
  const ShapedRise r = evaluate_shape(shape, alpha, target, bound, std::move(increments));
  fmt::print(
      "rise={:g} {}={} upper={:.3f} lower={:.3f} mean_seeds_h0={:.2f} ratio_h0={:.3f} "
      "mean_seeds_h1={:.2f} ratio_h1={:.3f} p95_h0={} within_{}={:.4f} alpha={:.5f} "
      "power={:.4f} p95_h0<={:.1f} {}\n",
      rise, only ? "at" : "from", rise > 0.0 ? fmt::to_string(from) : "-", r.boundaries.upper,
      r.boundaries.lower, r.mean_h0, r.ratio_h0, r.mean_h1, r.ratio_h1, r.tail.p95, target,
      r.tail.within, r.alpha, r.power, 2.5 * bound.h0,
      r.tail.p95 <= 2.5 * bound.h0 ? "met" : "missed");
  std::fflush(stdout);
  return r;
}

// A pattern search from `start`: each increment moved by a step while that lowers the cost, the
// step halved from 0.5 to 1/16.
ShapedRise pattern_search(const stats::SprtShape& shape, double alpha, int target,
                          const stats::ExpectedSeedsBound& bound, ShapedRise best) {
  for (double step = 0.5; step >= 1.0 / 16; step /= 2) {
    for (bool improved = true; improved;) {
      improved = false;
      for (std::size_t i = 0; i < best.increments.size(); ++i) {
        for (const double by : {step, -step}) {
          std::vector<double> x = best.increments;
          x[i] = std::max(0.0, x[i] + by);
          if (x[i] == best.increments[i]) continue;
          const ShapedRise r = evaluate_shape(shape, alpha, target, bound, x);
          if (r.cost() < best.cost() - 1e-5) best = r, improved = true;
        }
      }
    }
  }
  return best;
}

// The search, local, from several starts (the best step of each look the rows tried, and a step
// of 2 at the target): the cheapest shape any of them reaches.
void print_search(const stats::SprtShape& shape, double alpha, int target,
                  const stats::ExpectedSeedsBound& bound, std::vector<ShapedRise> starts) {
  std::size_t free = 0;
  while (free + 1 < shape.looks.size() && shape.looks[free] <= target) ++free;
  free = std::min(free + 3, shape.looks.size() - 1);
  std::vector<double> at_target(free, 0.0);
  for (std::size_t k = 1; k <= free; ++k)
    if (shape.looks[k] == target) at_target[k - 1] = 2.0;
  starts.push_back(evaluate_shape(shape, alpha, target, bound, at_target));
  ShapedRise best;
  best.tail.within = -1.0;
  for (ShapedRise start : starts) {
    start.increments.resize(free);
    const ShapedRise found = pattern_search(shape, alpha, target, bound, start);
    if (found.cost() < best.cost()) best = found;
  }
  std::string increments;
  for (std::size_t i = 0; i < best.increments.size(); ++i) {
    if (best.increments[i] > 0.0)
      increments += fmt::format("{}{:g}@{}", increments.empty() ? "" : ",", best.increments[i],
                                shape.looks[i + 1]);
  }
  fmt::print(
      "search: rise by look {} ratio_h0={:.3f} ratio_h1={:.3f} within_{}={:.4f} alpha={:.5f} "
      "power={:.4f} {}\n",
      increments.empty() ? "none" : increments, best.ratio_h0, best.ratio_h1, target,
      best.tail.within, best.alpha, best.power, best.feasible ? "met" : "missed");
}

}  // namespace

// The choice the gate makes for the shape, on one line, with the figures of the looks the gate
// then calibrates (for fresh seeds the choice weighs a shape with the sd and slope known; the
// figures here are the exact shape's).
void print_chosen(const stats::SprtShape& shape, double alpha) {
  const stats::PassRiseChoice c = stats::choose_pass_rise(shape, alpha, kBeta);
  if (c.ratio_h0 == 0.0) {
    fmt::print("chosen: none (fresh seeds against a baseline no larger than the cap)\n");
    return;
  }
  const stats::ExpectedSeedsBound bound = stats::wald_expected_seeds(alpha, kBeta, shape.d);
  const stats::SprtCalibration cal =
      stats::calibrate_sprt(shape, alpha, kBeta, c.rise_by_look(shape));
  const stats::SprtOutcomes h0 = stats::sprt_outcomes(shape, cal.boundaries, 0.0);
  const stats::SprtOutcomes h1 = stats::sprt_outcomes(shape, cal.boundaries, shape.d);
  const Tail tail = tail_of(shape, h0, c.target);
  fmt::print(
      "chosen: rise={:.4g} {}={} ratio_h0={:.3f} ratio_h1={:.3f} p95_h0={} target={:.2f} {} "
      "stopped_by_{}={:.4f} alpha={:.5f} power={:.4f}\n",
      c.rise, c.to == c.from ? "at" : "from", c.from, h0.expected_seeds / bound.h0,
      h1.expected_seeds / bound.h1, tail.p95, c.target_bound,
      tail.p95 > 0 && tail.p95 <= c.target_bound ? "met" : "missed", c.target, tail.within,
      cal.alpha, cal.power);
}

int main(int argc, char** argv) {
  const bool chosen_only = argc > 1 && std::string(argv[1]) == "--chosen";
  if (chosen_only) {
    --argc;
    ++argv;
  }
  if (argc < 3 || argc > 7) {
    std::fprintf(stderr,
                 "usage: pass_rise_frontier [--chosen] D ALPHA [REFERENCE_SEEDS=0] [SPREAD_DF=0] "
                 "[SLOPE_SEEDS=0] [SKEW=0]\n");
    return 64;
  }
  try {
    stats::SprtShape shape;
    shape.d = number(argv[1], "D");
    const double alpha = number(argv[2], "ALPHA");
    shape.reference_seeds = argc > 3 ? static_cast<int>(number(argv[3], "REFERENCE_SEEDS")) : 0;
    shape.spread_df = argc > 4 ? number(argv[4], "SPREAD_DF") : 0.0;
    shape.slope_seeds = argc > 5 ? static_cast<int>(number(argv[5], "SLOPE_SEEDS")) : 0;
    shape.skew = argc > 6 ? number(argv[6], "SKEW") : 0.0;
    for (int n = 2; n <= 52; n += 2) shape.looks.push_back(n);
    if (chosen_only) {
      print_chosen(shape, alpha);
      return 0;
    }
    const stats::ExpectedSeedsBound bound = stats::wald_expected_seeds(alpha, kBeta, shape.d);
    const stats::PercentileSeedsBound floor =
        stats::percentile_seeds_bound(alpha, kBeta, shape.d, 0.95, shape.reference_seeds);
    // The largest look within the target: where the 95th percentile must be.
    int target = shape.looks.front();
    for (const int n : shape.looks)
      if (n <= 2.5 * bound.h0) target = n;
    fmt::print(
        "# d {} alpha {} power {}; reference {} seeds, spread df {}, slope seeds {}, skew {}; "
        "Wald's bound {:.2f} under no change, {:.2f} at d; the 95th percentile under no change: "
        "target 2.5 x {:.2f} = {:.1f}, floor {}\n",
        shape.d, alpha, 1.0 - kBeta, shape.reference_seeds, shape.spread_df, shape.slope_seeds,
        shape.skew, bound.h0, bound.h1, bound.h0, 2.5 * bound.h0,
        floor.h0 == stats::kNoSeedsSuffice ? std::string("none") : fmt::to_string(floor.h0));
    print_row(shape, alpha, 0.0, 0, target, bound);
    std::vector<ShapedRise> best_per_look;
    for (const int from : {target - 4, target - 2, target}) {
      if (from <= shape.looks.front()) continue;
      best_per_look.push_back(print_row(shape, alpha, 1.0, from, target, bound));
      for (const double rise : {1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 3.0}) {
        const ShapedRise row = print_row(shape, alpha, rise, from, target, bound);
        if (row.cost() < best_per_look.back().cost()) best_per_look.back() = row;
      }
    }
    // A PASS look at the target (the boundary raised there only): what the design chooses from.
    for (const double rise : {1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0})
      print_row(shape, alpha, rise, target, target, bound, /*only=*/true);
    // Each point of the search is a calibration: seconds for a paired shape, too long for a fresh
    // one's hundreds.
    if (shape.reference_seeds == 0) print_search(shape, alpha, target, bound, best_per_look);
    print_chosen(shape, alpha);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pass_rise_frontier: %s\n", e.what());
    return 1;
  }
  return 0;
}
