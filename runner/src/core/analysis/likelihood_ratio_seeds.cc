#include "analysis/likelihood_ratio_seeds.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include "analysis/sequential_look_steps.h"
#include "statistics/chi_square.h"
#include "statistics/moments.h"
#include "statistics/pass_rise_choice.h"
#include "statistics/seed_law.h"
#include "statistics/truncated_sprt.h"
#include "statistics/welch.h"

namespace mlregress::internal {
namespace {

// The grid the tested shift d = margin / sd is rounded to: steps of 2% (so the alternative is the
// margin to within 1%), whose boundaries are computed once per process.
constexpr double kShiftGridStep = 0.02;

double rounded_shift(double d) {
  return std::exp(std::round(std::log(d) / kShiftGridStep) * kShiftGridStep);
}

// Calibrations take from a few milliseconds to a few seconds (a baseline's error adds two
// integrals); the gate, promote's simulation and the benchmarks ask for the same ones again.
stats::SprtCalibration calibrated(const stats::SprtShape& shape, double alpha, double beta,
                                  const std::vector<double>& rise) {
  using Key = std::tuple<double, std::vector<int>, int, double, int, double, double, double,
                         std::vector<double>, double>;
  static std::mutex mutex;
  static std::map<Key, stats::SprtCalibration> cache;
  const Key key{shape.d,
                shape.looks,
                shape.reference_seeds,
                shape.spread_df,
                shape.slope_seeds,
                alpha,
                beta,
                shape.skew,
                rise,
                shape.mean_spread_correlation};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  const stats::SprtCalibration c = stats::calibrate_sprt(shape, alpha, beta, rise);
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(key, c).first->second;
}

// Each candidate seed's degradation (in the metric's units, positive: worse), and the sd and
// reference that measure it.
struct SeedScale {
  std::vector<double> degradations;  // per candidate seed that ran, in order
  double sd = 0.0;
  double df = 0.0;
  int reference_seeds = 0;  // 0 for paired differences
  int slope_seeds = 0;      // the baseline's, when the seeds are adjusted by its covariate slope
  double skew = 0.0;       // fresh: the baseline's seeds' skewness toward a degradation (seed_skew)
  bool stored = false;     // paired: the baseline's stored spread (analysis/paired_spread.h)
  double magnitude = 1.0;  // of the metric's values: an sd below 1e-12 of it is rounding
  std::string source;
  std::optional<CovariateUse> covariate;
};

// Paired looks without a stored spread scale by their first look's differences, frozen, and look
// from this many seeds on whatever the plan's first block: an sd on 1 degree of freedom (a first
// look at 2 seeds) weighs every later look so loosely that the default design took 3.5 times the
// bound's seeds on the fixture, against 2.0 from 8 (seeded-tests.md, "What the scale costs").
constexpr int kFewestScalePairs = 8;

bool usable_stored_spread(const SeedSamples& baseline, int first_look) {
  return usable_spread(baseline.paired_spread) && baseline.paired_spread->pairs > first_look;
}

// Whether any seed that ran differs from the baseline's value of the same seed: a metric no seed
// of which moved (a covariate of the data alone) is settled exactly at the plan's first look.
bool any_seed_moved(const SeedSamples& ran, const SeedSamples& baseline) {
  const SeedSamples b = *samples_of_seeds(baseline, ran.seeds);
  for (std::size_t i = 0; i < ran.values.size(); ++i)
    if (ran.values[i] != b.values[i]) return true;
  return false;
}

// The plan's looks, from kFewestScalePairs seeds on when paired looks have no stored spread (the
// cap, at least, stays a look).
std::vector<int> looks_for_scale(std::vector<int> looks, bool scale_from_first_look) {
  if (!scale_from_first_look || looks.front() >= kFewestScalePairs) return looks;
  std::vector<int> kept;
  for (const int n : looks)
    if (n >= kFewestScalePairs) kept.push_back(n);
  return kept.empty() ? std::vector<int>{looks.back()} : kept;
}

// The plan's looks for these seeds: from kFewestScalePairs on when paired seeds that moved have
// no stored spread to be weighed by.
std::vector<int> looks_of(const SequentialPlan& plan, bool paired, const SeedSamples& ran,
                          const SeedSamples& baseline) {
  const std::vector<int> planned = sequential_looks(plan);
  return looks_for_scale(planned, paired && !usable_stored_spread(baseline, planned.front()) &&
                                      any_seed_moved(ran, baseline));
}

// Paired: the per-seed differences; the sd is the baseline's stored spread of paired differences
// when it has one on more degrees of freedom than the first look, else the first look's.
SeedScale paired_scale(Direction direction, const SeedSamples& ran, const SeedSamples& baseline,
                       int first_look) {
  const SeedSamples b = *samples_of_seeds(baseline, ran.seeds);
  SeedScale s;
  for (std::size_t i = 0; i < ran.values.size(); ++i) {
    s.degradations.push_back(degradation_of(direction, ran.values[i] - b.values[i]));
  }
  for (const double v : b.values) s.magnitude = std::max(s.magnitude, std::abs(v));
  if (usable_stored_spread(baseline, first_look)) {
    const std::optional<PairedSpread>& stored = baseline.paired_spread;
    s.sd = stored->sd;
    s.df = stored->pairs - 1;
    s.stored = true;
    s.source = fmt::format("the baseline's {} stored paired differences", stored->pairs);
    return s;
  }
  const std::vector<double> first(s.degradations.begin(), s.degradations.begin() + first_look);
  s.sd = stats::summarize_samples(first).sd;
  s.df = first_look - 1;
  s.source = fmt::format(
      "the first look's {} paired differences (the baseline stores no spread of paired "
      "differences on more seeds: promote --paired-spread a run of its seeds after a change that "
      "moved them)",
      first_look);
  return s;
}

// The skewness the boundaries are calibrated for (statistics/seed_law.h): the baseline's seeds'
// sample skewness in the direction of a degradation, rounded to steps of 0.25 (so that
// calibrations are shared, as the shift's grid shares them), 0 when they skew the other way (a
// long tail of better seeds makes no false REGRESSION; the normal's boundaries stay) and at most
// 2. Real seeds can skew: the XOR study's test accuracy after its covariate skews -0.62 over 5,200
// seeds, and boundaries calibrated on the normal then judged REGRESSION on 0.51% (a pool) to
// 0.75% (52 seeds) of unchanged fresh candidates against a level of 0.33% (seeded-tests.md, "Real
// seeds are not normal"). On normal
// seeds the estimate is noise (sd about sqrt(6 / m)) and, clamped at 0, only ever makes the
// boundaries stricter.
constexpr double kSkewStep = 0.25;

double seed_skew(Direction direction, const std::vector<double>& residuals) {
  std::vector<double> toward_degradation;
  for (const double r : residuals) toward_degradation.push_back(degradation_of(direction, r));
  const double skew = stats::sample_skewness(toward_degradation);
  return std::clamp(std::round(skew / kSkewStep) * kSkewStep, 0.0, stats::kLargestSeedSkew);
}

// Fresh seeds against the baseline arm: its mean is the reference and its sd the scale, after
// the covariate by the baseline's own slope when every seed of both arms has it and it varies in
// the baseline (the scale then has one degree of freedom fewer).
SeedScale fresh_scale(Direction direction, const SeedSamples& ran, const SeedSamples& baseline,
                      const CovariateSamples* covariate) {
  const std::size_t m = baseline.values.size();
  std::vector<double> y = baseline.values;
  std::vector<double> candidate = ran.values;
  SeedScale s;
  s.reference_seeds = static_cast<int>(m);
  s.df = static_cast<double>(m) - 1.0;
  if (covariate != nullptr) {
    CovariateUse& use = s.covariate.emplace();
    use.name = covariate->name;
    const auto xb = covariate_values(baseline, covariate->baseline);
    const auto xc = covariate_values(ran, covariate->candidate);
    const double mean_x = xb ? stats::mean(*xb) : 0.0;
    double sxx = 0.0, sxy = 0.0;
    const double mean_y = stats::mean(y);
    for (std::size_t i = 0; xb && i < m; ++i) {
      sxx += ((*xb)[i] - mean_x) * ((*xb)[i] - mean_x);
      sxy += ((*xb)[i] - mean_x) * (y[i] - mean_y);
    }
    if (!xb || !xc) {
      use.note = fmt::format("not adjusted: the {} lacks a finite '{}' for one of its seeds",
                             !xc ? "candidate" : "baseline", covariate->name);
    } else if (!(sxx > 0.0) || m < 4) {
      use.note = fmt::format("not adjusted by '{}': it does not vary in the baseline's seeds",
                             covariate->name);
    } else {
      use.applied = true;
      use.theta = sxy / sxx;
      for (std::size_t i = 0; i < m; ++i) y[i] -= use.theta * ((*xb)[i] - mean_x);
      for (std::size_t i = 0; i < candidate.size(); ++i)
        candidate[i] -= use.theta * ((*xc)[i] - mean_x);
      use.variance_explained =
          sxy * sxy / (sxx * stats::sample_variance(baseline.values) * static_cast<double>(m - 1));
      if (xc->size() >= 2) use.balance_p = stats::welch_t_test(*xc, *xb).p_value;
      s.df -= 1.0;
      s.slope_seeds = static_cast<int>(m);
    }
  }
  const double reference = stats::mean(y);
  for (const double v : baseline.values) s.magnitude = std::max(s.magnitude, std::abs(v));
  std::vector<double> residuals;
  double squares = 0.0;
  for (const double v : y) residuals.push_back(v - reference);
  for (const double r : residuals) squares += r * r;
  s.sd = std::sqrt(squares / s.df);
  s.skew = seed_skew(direction, residuals);
  for (const double v : candidate)
    s.degradations.push_back(degradation_of(direction, v - reference));
  s.source = fmt::format("the baseline's {} seeds{}{}", m,
                         s.covariate && s.covariate->applied ? " after the covariate" : "",
                         s.skew > 0.0 ? fmt::format(", skewing {:g} toward a degradation (the "
                                                    "boundaries are the skewed law's)",
                                                    s.skew)
                                      : "");
  return s;
}

// A stored spread holds for changes that move the seeds as the promoted one did; one that spreads
// them wider raises the false REGRESSION rate (seeded-tests.md, "What the scale costs"). The look
// says so when the run's own differences lie above the 99.9% chi-square bound of the stored sd.
std::string spread_check(const SeedScale& scale, int seeds) {
  if (!scale.stored || seeds < 3) return "";
  const std::vector<double> so_far(scale.degradations.begin(), scale.degradations.begin() + seeds);
  const double sd = stats::summarize_samples(so_far).sd;
  const double bound =
      scale.sd * std::sqrt(stats::chi_square_quantile(0.999, seeds - 1.0) / (seeds - 1.0));
  if (!(sd > bound)) return "";
  return fmt::format(
      "; this run's {} differences spread wider (sd {:.4g}, above {:.4g}, the stored sd's 99.9% "
      "bound): a REGRESSION may be that spread, not a shift",
      seeds, sd, bound);
}

// The degrees of freedom of the chi law the calibration gives the sd's error. A skewed law has
// heavy tails too (the gamma's excess kurtosis is 1.5 skew^2), and the sample variance of such
// seeds varies more than the normal's: Var(s^2) / sd^4 = 2 / df + kurtosis / m. The chi law of
// that variance, 2 / Var, keeps the sd's error from being understated (an sd too small is a
// false REGRESSION).
double spread_df(const SeedScale& scale) {
  if (!(scale.skew > 0.0) || scale.reference_seeds == 0) return scale.df;
  const double kurtosis = 1.5 * scale.skew * scale.skew;
  return 2.0 / (2.0 / scale.df + kurtosis / scale.reference_seeds);
}

// What the boundaries are calibrated for: a degradation of the margin, in the scale's sds, at the
// looks, with the scale's and the reference's errors.
stats::SprtShape shape_of(const SeedScale& scale, double margin, const std::vector<int>& looks) {
  stats::SprtShape shape;
  shape.d = rounded_shift(margin / scale.sd);
  shape.looks = looks;
  shape.reference_seeds = scale.reference_seeds;
  shape.spread_df = spread_df(scale);
  shape.slope_seeds = scale.slope_seeds;
  shape.skew = scale.skew;
  // Fresh seeds take the reference's mean and the sd from the same baseline seeds, which err
  // together when those skew: the gamma's correlation of sample mean and variance, g / sqrt(1.5
  // g^2 + 2) (0.32 at a skew of 0.5). Left out, it let fresh looks against 52 real XOR seeds
  // judge REGRESSION at about twice the level (seeded-tests.md, "Real seeds are not normal").
  if (scale.reference_seeds > 0 && scale.skew > 0.0) {
    shape.mean_spread_correlation = scale.skew / std::sqrt(1.5 * scale.skew * scale.skew + 2.0);
  }
  return shape;
}

// The PASS look a shape chooses (statistics/pass_rise_choice.h): under a second the first time
// for paired seeds, one to three seconds for fresh ones, kept for the process as the calibrations
// are (the shift's grid makes the shapes of one metric's runs the same). Chosen as if the seeds
// were normal: the raise and its look are the design's choice, and the boundaries the looks then
// use are calibrated for the skew the baseline shows, so alpha and beta hold either way; one choice
// serves every skew of a shape (the caller passes the shape its seeds would have if normal).
stats::PassRiseChoice chosen_rise(const stats::SprtShape& shape, double alpha, double beta) {
  using Key = std::tuple<double, std::vector<int>, int, double, int, double, double>;
  static std::mutex mutex;
  static std::map<Key, stats::PassRiseChoice> cache;
  const Key key{shape.d, shape.looks, shape.reference_seeds, shape.spread_df, shape.slope_seeds,
                alpha,   beta};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  const stats::PassRiseChoice c = stats::choose_pass_rise(shape, alpha, beta);
  const std::lock_guard<std::mutex> lock(mutex);
  return cache.emplace(key, c).first->second;
}

// The PASS boundary's raise the looks are calibrated for, recorded on `look`: the plan's declared
// pass_rise (a step); else, unless the plan keeps a constant boundary, the PASS look `shape` (the
// looks' shape as if their seeds were normal) chooses; else none.
std::vector<double> pass_rises(const SequentialPlan& plan, const stats::SprtShape& shape,
                               double alpha, SequentialLook& look) {
  if (plan.pass_rise > 0.0) {
    look.pass_rise = plan.pass_rise;
    look.pass_rise_from = plan.pass_rise_from;
  } else if (!plan.constant_pass) {
    const stats::PassRiseChoice choice = chosen_rise(shape, alpha, plan.pass_error);
    look.pass_rise = choice.rise;
    look.pass_rise_from = choice.from;
    look.pass_rise_to = choice.to;
    look.pass_rise_chosen = choice.rise > 0.0;
  }
  return stats::pass_rise_by_look(shape, look.pass_rise, look.pass_rise_from, look.pass_rise_to);
}

// Equal values can leave an sd of rounding errors, which no seed's spread is.
bool without_spread(const SeedScale& s) {
  return !(s.sd > 1e-12 * s.magnitude) || !std::isfinite(s.sd);
}

// The look settles by the ratio. Its p-value: where the test stopped with a REGRESSION, the chance
// of a REGRESSION by this look under no change (below alpha / family, so Holm keeps it); 1
// otherwise, so that Holm never turns a metric the ratio left undecided into a REGRESSION.
void settle_by_ratio(SequentialLook& look, const stats::SprtCalibration& c, std::size_t k) {
  const stats::SprtBoundaries& b = c.boundaries;
  look.p_worse_sequential = 1.0;
  look.p_better_sequential = 1.0;
  look.pass_boundary = b.lower_at(k);
  if (look.log_ratio >= b.upper) {
    look.outcome = LookOutcome::kRegression;
    look.p_worse_sequential = c.regression_by_look[k];
  } else if (look.log_ratio <= look.pass_boundary) {
    look.outcome = LookOutcome::kPass;
  }
}

// What the report shows of a look: the plain analysis of its seeds (the covariate as the ratio
// used it) and that analysis's 95% interval.
void describe_look(SequentialLook& look, const SeedComparison& comparison, const SeedSamples& ran,
                   bool paired, const SeedScale& scale) {
  const SeedSamples c = first_seeds(ran, look.seeds);
  const std::optional<SeedSamples> same_seeds =
      paired ? samples_of_seeds(comparison.baseline, c.seeds) : std::nullopt;
  look.analysis = analyse_distribution(comparison.metric, comparison.direction, comparison.margin,
                                       c, same_seeds.value_or(comparison.baseline),
                                       paired ? nullptr : comparison.covariate);
  if (scale.covariate) look.analysis.covariate = scale.covariate;
  look.pass_level = 0.95;
  look.interval_lower = look.analysis.ci_lower;
  look.interval_upper = look.analysis.ci_upper;
}

// Values without spread (a deterministic metric, or a rerun of the same seeds that changed
// nothing) have no scale to weigh a ratio in, and need none: the difference is known exactly, and
// the first look settles it as the single-look gate does (PASS within the margin, REGRESSION
// beyond it).
SequentialLook exact_look(const SeedComparison& comparison, const SeedSamples& ran, bool paired,
                          int first_look, SequentialLook look) {
  look.likelihood_ratio = false;
  look.seeds = first_look;
  look.information = 1.0;
  describe_look(look, comparison, ran, paired, SeedScale{});
  look.p_worse_sequential = look.analysis.p_worse;
  look.p_better_sequential = look.analysis.p_better;
  look.outcome = settle_look(look, comparison.direction, comparison.margin);
  return look;
}

}  // namespace

std::vector<SequentialLook> look_likelihood_ratio(const std::string& metric, Direction direction,
                                                  double margin, const SeedSamples& candidate,
                                                  const SeedSamples& baseline,
                                                  const SequentialPlan& plan, double alpha,
                                                  const CovariateSamples* covariate) {
  const int available = seeds_that_ran(candidate);
  const SeedSamples ran = first_seeds(candidate, available);
  const bool paired = looks_are_paired(ran, baseline, plan.cap);
  const std::vector<int> looks = looks_of(plan, paired, ran, baseline);
  const SeedComparison comparison{metric, direction, margin, candidate, baseline, covariate};
  if (std::optional<SequentialLook> single =
          look_before_first_block(comparison, ran, looks.front(), /*anytime=*/false)) {
    return {*single};
  }
  const SeedScale scale = paired ? paired_scale(direction, ran, baseline, looks.front())
                                 : fresh_scale(direction, ran, baseline, covariate);
  const double decision_level = alpha / std::max(1, plan.family);
  SequentialLook base;
  base.likelihood_ratio = true;
  base.decision_level = decision_level;
  base.family = std::max(1, plan.family);
  base.seed_sd = scale.sd;
  base.seed_skew = scale.skew;
  base.scale_source = scale.source;
  if (!(margin > 0.0)) {
    base.seeds = looks.front();
    describe_look(base, comparison, ran, paired, scale);
    base.analysis.problem =
        "a likelihood-ratio plan needs a margin above 0: it weighs a degradation of the margin "
        "against none";
    return {base};
  }
  if (without_spread(scale)) return {exact_look(comparison, ran, paired, looks.front(), base)};
  const stats::SprtShape shape = shape_of(scale, margin, looks);
  SeedScale normal = scale;  // what the PASS look is chosen for: the text of chosen_rise says why
  normal.skew = 0.0;
  const stats::SprtCalibration calibration =
      calibrated(shape, decision_level, plan.pass_error,
                 pass_rises(plan, shape_of(normal, margin, looks), decision_level, base));
  base.alternative = shape.d * scale.sd;
  base.regression_boundary = calibration.boundaries.upper;
  base.pass_boundary = calibration.boundaries.lower;

  std::vector<SequentialLook> taken;
  double sum = 0.0;  // of the degradations, in sds
  for (std::size_t k = 0; k < looks.size() && looks[k] <= available; ++k) {
    SequentialLook look = base;
    look.seeds = looks[k];
    look.information = static_cast<double>(looks[k]) / plan.cap;
    for (int i = k == 0 ? 0 : looks[k - 1]; i < looks[k]; ++i)
      sum += scale.degradations[static_cast<std::size_t>(i)] / scale.sd;
    look.log_ratio = shape.d * sum - looks[k] * shape.d * shape.d / 2.0;
    describe_look(look, comparison, ran, paired, scale);
    look.scale_source += spread_check(scale, looks[k]);
    settle_by_ratio(look, calibration, k);
    taken.push_back(look);
    if (look.outcome != LookOutcome::kContinue) break;
  }
  return taken;
}

std::string format_likelihood_ratio_look(const SequentialLook& look) {
  const DistributionAnalysis& a = look.analysis;
  if (!a.problem.empty()) {
    return fmt::format("look at {} seeds: not tested: {}", look.seeds, a.problem);
  }
  return fmt::format(
      "look at {} seeds: diff {:.4g}, log likelihood ratio {:.3g} (REGRESSION at {:.3g}, PASS at "
      "{:.3g}; a degradation of {:.4g} against none, sd {:.4g} from {}{}); {}",
      look.seeds, a.difference, look.log_ratio, look.regression_boundary, look.pass_boundary,
      look.alternative, look.seed_sd, look.scale_source, family_clause(look),
      look_outcome_name(look.outcome));
}

}  // namespace mlregress::internal
