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
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

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

void print_row(const stats::SprtShape& shape, double alpha, double rise, int from, int target,
               const stats::ExpectedSeedsBound& bound) {
  std::vector<double> rises;
  if (rise > 0.0)
    for (const int n : shape.looks) rises.push_back(n >= from ? rise : 0.0);
  const stats::SprtCalibration c = stats::calibrate_sprt(shape, alpha, kBeta, rises);
  const stats::SprtOutcomes h0 = stats::sprt_outcomes(shape, c.boundaries, 0.0);
  const stats::SprtOutcomes h1 = stats::sprt_outcomes(shape, c.boundaries, shape.d);
  const Tail t = tail_of(shape, h0, target);
  fmt::print(
      "rise={:g} from={} upper={:.3f} lower={:.3f} mean_seeds_h0={:.2f} ratio_h0={:.3f} "
      "mean_seeds_h1={:.2f} ratio_h1={:.3f} p95_h0={} within_{}={:.4f} alpha={:.5f} "
      "power={:.4f} p95_h0<={:.1f} {}\n",
      rise, rise > 0.0 ? fmt::to_string(from) : "-", c.boundaries.upper, c.boundaries.lower,
      h0.expected_seeds, h0.expected_seeds / bound.h0, h1.expected_seeds,
      h1.expected_seeds / bound.h1, t.p95, target, t.within, c.alpha, c.power, 2.5 * bound.h0,
      t.p95 <= 2.5 * bound.h0 ? "met" : "missed");
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 7) {
    std::fprintf(stderr,
                 "usage: pass_rise_frontier D ALPHA [REFERENCE_SEEDS=0] [SPREAD_DF=0] "
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
    for (const int from : {target - 4, target - 2, target}) {
      if (from < shape.looks.front()) continue;
      for (const double rise : {1.0, 1.5, 1.75, 2.0, 2.5, 3.0})
        print_row(shape, alpha, rise, from, target, bound);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "pass_rise_frontier: %s\n", e.what());
    return 1;
  }
  return 0;
}
