#include "seed_floor_simulation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

#include "analysis/distribution_gate.h"
#include "statistics/failure_rate_design.h"
#include "statistics/robust_summary.h"
#include "statistics/sequential_bound.h"

namespace seed_floor {
namespace mi = mlregress::internal;
namespace {

// What one seed fixes: the normals every stream shares, and each of two streams' own; or, when
// the model resamples a table, the row drawn.
struct SeedNoise {
  double data = 0.0, seed = 0.0, stream[2] = {0.0, 0.0};
  const TableRow* row = nullptr;
};

struct Loadings {
  double data, seed, stream;
};

Loadings loadings_of(const NoiseModel& m) {
  const double shared = std::max(m.pair_correlation, m.covariate_share);
  return {std::sqrt(m.covariate_share), std::sqrt(shared - m.covariate_share),
          std::sqrt(1.0 - shared)};
}

SeedNoise draw_seed(const NoiseModel& m, std::mt19937_64& rng) {
  if (!m.resampled.empty()) {
    std::uniform_int_distribution<std::size_t> pick(0, m.resampled.size() - 1);
    return SeedNoise{.row = &m.resampled[pick(rng)]};
  }
  std::normal_distribution<double> z(0.0, 1.0);
  SeedNoise s;
  s.data = z(rng);
  s.seed = z(rng);
  s.stream[0] = z(rng);
  s.stream[1] = z(rng);
  return s;
}

// One arm's accuracy and covariate samples: `noise[i]` under seed id `first_id + i`.
struct Arm {
  mi::SeedSamples accuracy, covariate;
};

Arm arm_of(const NoiseModel& m, const std::vector<SeedNoise>& noise, std::uint64_t first_id,
           int stream, double shift) {
  const Loadings l = loadings_of(m);
  Arm arm;
  for (std::size_t i = 0; i < noise.size(); ++i) {
    const SeedNoise& s = noise[i];
    const std::uint64_t id = first_id + i;
    if (s.row != nullptr) {
      arm.accuracy.values.push_back(s.row->accuracy[stream] - shift);
      arm.covariate.values.push_back(s.row->covariate);
    } else {
      arm.accuracy.values.push_back(
          m.mean - shift +
          m.sd * (l.data * s.data + l.seed * s.seed + l.stream * s.stream[stream]));
      arm.covariate.values.push_back(m.covariate_mean + m.covariate_sd * s.data);
    }
    arm.accuracy.seeds.push_back(id);
    arm.covariate.seeds.push_back(id);
  }
  return arm;
}

// The spread promote stores after a second run of the baseline's seeds: the sd of their paired
// differences, of which only the streams' own parts remain (resampling: the difference of the two
// streams of other rows drawn).
mi::PairedSpread stored_spread(const NoiseModel& m, int seeds, std::mt19937_64& rng) {
  std::normal_distribution<double> z(0.0, 1.0);
  const double loading = loadings_of(m).stream;
  std::vector<double> differences(static_cast<std::size_t>(seeds));
  for (double& d : differences) {
    if (m.resampled.empty()) {
      d = m.sd * loading * (z(rng) - z(rng));
    } else {
      const TableRow& row = *draw_seed(m, rng).row;
      d = row.accuracy[1] - row.accuracy[0];
    }
  }
  const double mean = std::accumulate(differences.begin(), differences.end(), 0.0) / seeds;
  double squares = 0.0;
  for (const double d : differences) squares += (d - mean) * (d - mean);
  mi::PairedSpread spread;
  spread.sd = std::sqrt(squares / (seeds - 1));
  spread.pairs = seeds;
  return spread;
}

struct Outcome {
  bool regression = false;
  bool run_regression = false;
  int seeds = 0;
};

// One sequence through the gate's code: each metric's looks (look_sequentially), the seeds the
// test ran (until every metric settled), then the run's Holm decision (decide_gate). The run has
// `family` hypotheses; the two simulated here join decide_gate's families (a third, e.g. the
// XOR study's train_loss, is left out: Holm's later steps are then a little more lenient).
Outcome one_sequence(const NoiseModel& m, const FloorDesign& design, const FloorSettings& settings,
                     double shift, std::mt19937_64& rng) {
  const int cap = design.plan.cap;
  std::vector<SeedNoise> baseline_noise(static_cast<std::size_t>(design.baseline_seeds));
  for (SeedNoise& s : baseline_noise) s = draw_seed(m, rng);
  std::vector<SeedNoise> candidate_noise(static_cast<std::size_t>(cap));
  for (std::size_t i = 0; i < candidate_noise.size(); ++i) {
    candidate_noise[i] = design.paired ? baseline_noise[i] : draw_seed(m, rng);
  }
  Arm baseline = arm_of(m, baseline_noise, 0, 0, 0.0);
  if (design.paired && design.stored_spread) {
    baseline.accuracy.paired_spread = stored_spread(m, design.baseline_seeds, rng);
  }
  const std::uint64_t first_candidate = design.paired ? 0 : baseline_noise.size();
  const Arm candidate = arm_of(m, candidate_noise, first_candidate, design.paired ? 1 : 0, shift);
  const mi::CovariateSamples covariate{"covariate", candidate.covariate, baseline.covariate};
  mi::SequentialPlan plan = design.plan;
  plan.family = settings.family;
  const auto accuracy =
      mi::look_sequentially("accuracy", mlregress::HigherIsBetter, m.margin, candidate.accuracy,
                            baseline.accuracy, plan, settings.alpha, &covariate);
  const auto covariate_looks =
      mi::look_sequentially("covariate", mlregress::HigherIsBetter, m.covariate_margin,
                            candidate.covariate, baseline.covariate, plan, settings.alpha);
  const std::vector<mi::DistributionAnalysis> analyses{
      mi::sequential_decision_analysis(accuracy.back()),
      mi::sequential_decision_analysis(covariate_looks.back())};
  const std::vector<mi::GateDecision> decisions = mi::decide_gate(analyses, settings.alpha);
  return {decisions[0].verdict == mi::Verdict::kRegression,
          decisions[0].verdict == mi::Verdict::kRegression ||
              decisions[1].verdict == mi::Verdict::kRegression,
          std::max(accuracy.back().seeds, covariate_looks.back().seeds)};
}

double mean_of(const std::vector<int>& seeds) {
  return std::accumulate(seeds.begin(), seeds.end(), 0.0) / static_cast<double>(seeds.size());
}

int percentile_95(std::vector<int> seeds) {
  return mi::stats::inverted_cdf_quantile(std::move(seeds), 0.95);
}

std::string rate(int k, int n) {
  const mi::stats::RateInterval ci = mi::stats::clopper_pearson(k, n, 0.95);
  return fmt::format("{:.2f}% [{:.2f}, {:.2f}]", 100.0 * k / n, 100.0 * ci.lower, 100.0 * ci.upper);
}

// Sample means, sds and correlation of paired values.
struct PairMoments {
  double mean_x = 0, mean_y = 0, sd_x = 0, sd_y = 0, correlation = 0;
};

PairMoments pair_moments(const std::vector<double>& x, const std::vector<double>& y) {
  const auto n = static_cast<double>(x.size());
  PairMoments m;
  m.mean_x = std::accumulate(x.begin(), x.end(), 0.0) / n;
  m.mean_y = std::accumulate(y.begin(), y.end(), 0.0) / n;
  double sxx = 0, syy = 0, sxy = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sxx += (x[i] - m.mean_x) * (x[i] - m.mean_x);
    syy += (y[i] - m.mean_y) * (y[i] - m.mean_y);
    sxy += (x[i] - m.mean_x) * (y[i] - m.mean_y);
  }
  if (!(sxx > 0.0) || !(syy > 0.0)) throw std::invalid_argument("the table's values do not vary");
  m.sd_x = std::sqrt(sxx / (n - 1));
  m.sd_y = std::sqrt(syy / (n - 1));
  m.correlation = sxy / std::sqrt(sxx * syy);
  return m;
}

}  // namespace

NoiseModel fixture_noise() { return NoiseModel{}; }

NoiseModel measure_noise(const SeedTable& table) {
  const auto first = table.find(0), second = table.find(1);
  if (first == table.end() || second == table.end() || first->second.size() < 3) {
    throw std::invalid_argument("the table needs weight streams 0 and 1 with at least 3 seeds");
  }
  std::vector<double> accuracy, covariate, own, other;
  for (const auto& [seed, v] : first->second) {
    accuracy.push_back(v.accuracy);
    covariate.push_back(v.covariate);
    if (const auto it = second->second.find(seed); it != second->second.end()) {
      own.push_back(v.accuracy);
      other.push_back(it->second.accuracy);
    }
  }
  if (own.size() < 3) throw std::invalid_argument("fewer than 3 seeds ran in both streams");
  const PairMoments within = pair_moments(accuracy, covariate);
  NoiseModel model;
  model.mean = within.mean_x;
  model.sd = within.sd_x;
  model.covariate_mean = within.mean_y;
  model.covariate_sd = within.sd_y;
  model.covariate_share = within.correlation * within.correlation;
  model.pair_correlation = std::max(0.0, pair_moments(own, other).correlation);
  return model;
}

NoiseModel resampling_noise(const SeedTable& table) {
  NoiseModel model = measure_noise(table);
  const auto& second = table.at(1);
  for (const auto& [seed, v] : table.at(0)) {
    if (const auto it = second.find(seed); it != second.end()) {
      model.resampled.push_back(
          TableRow{.accuracy = {v.accuracy, it->second.accuracy}, .covariate = v.covariate});
    }
  }
  return model;
}

mi::SequentialPlan default_plan() { return likelihood_ratio_plan(2, 2, 0.2); }

mi::SequentialPlan spending_plan() {
  mi::SequentialPlan plan{.block = 12, .cap = 52, .next_block = 8};
  plan.pass_spending = mi::stats::SpendingFunction::kPocock;
  return plan;
}

mi::SequentialPlan every_eight_plan() { return mi::SequentialPlan{.block = 8, .cap = 52}; }

mi::SequentialPlan frequent_plan(int first, int next, double pass_error) {
  mi::SequentialPlan plan{.block = first, .cap = 52, .next_block = next};
  plan.pass_spending = mi::stats::SpendingFunction::kPocock;
  plan.pass_error = pass_error;
  return plan;
}

mi::SequentialPlan likelihood_ratio_plan(int first, int next, double beta) {
  mi::SequentialPlan plan{.block = first, .cap = 52, .next_block = next};
  plan.likelihood_ratio = true;
  plan.pass_error = beta;
  return plan;
}

mi::SequentialPlan rising_plan(double rise, int from) {
  mi::SequentialPlan plan = default_plan();
  plan.pass_rise = rise;
  plan.pass_rise_from = from;
  return plan;
}

mi::SequentialPlan constant_pass_plan() {
  mi::SequentialPlan plan = default_plan();
  plan.constant_pass = true;
  return plan;
}

int wall_clock_rounds(const mi::SequentialPlan& plan, int seeds, int jobs) {
  if (jobs < 1) throw std::invalid_argument("jobs must be at least 1");
  int rounds = 0, before = 0;
  for (const int look : mi::sequential_looks(plan)) {
    if (before >= seeds) break;
    rounds += (look - before + jobs - 1) / jobs;
    before = look;
  }
  return rounds;
}

double unit_sd(const NoiseModel& model, bool paired) {
  const double shared = std::max(model.pair_correlation, model.covariate_share);
  return paired ? model.sd * std::sqrt(2.0 * (1.0 - shared))
                : model.sd * std::sqrt(1.0 - model.covariate_share);
}

Sequences simulate_sequences(const NoiseModel& model, const FloorDesign& design,
                             const FloorSettings& settings, double shift, int trials) {
  if (trials < 1 || design.baseline_seeds < (design.paired ? design.plan.cap : 2)) {
    throw std::invalid_argument(
        fmt::format("design {}: needs at least one trial and a baseline of at least {} seeds",
                    design.name, design.paired ? design.plan.cap : 2));
  }
  std::mt19937_64 rng(settings.rng_seed);
  Sequences out;
  out.trials = trials;
  for (int t = 0; t < trials; ++t) {
    const Outcome o = one_sequence(model, design, settings, shift, rng);
    out.regressions += o.regression;
    out.run_regressions += o.run_regression;
    out.seeds.push_back(o.seeds);
  }
  return out;
}

double shift_at_power(const NoiseModel& model, const FloorDesign& design,
                      const FloorSettings& settings, int trials) {
  const auto power_at = [&](double shift) {
    const Sequences s = simulate_sequences(model, design, settings, shift, trials);
    return static_cast<double>(s.regressions) / s.trials;
  };
  double low = 0.0, high = model.margin;
  for (int doubling = 0; power_at(high) < settings.power; ++doubling) {
    if (doubling == 12) throw std::runtime_error("no shift reaches the power: " + design.name);
    low = high;
    high *= 2.0;
  }
  for (int step = 0; step < 14; ++step) {
    const double middle = 0.5 * (low + high);
    (power_at(middle) >= settings.power ? high : low) = middle;
  }
  return high;
}

double refined_shift_at_power(const NoiseModel& model, const FloorDesign& design,
                              const FloorSettings& settings, int coarse_trials) {
  const double coarse = shift_at_power(model, design, settings, coarse_trials);
  if (settings.trials <= coarse_trials) return coarse;
  const auto reaches = [&](double shift) {
    const Sequences s = simulate_sequences(model, design, settings, shift, settings.trials);
    return s.regressions >= settings.power * s.trials;
  };
  // The coarse step's noise is about a percent of power: a bracket of 5% of the shift holds it,
  // and is widened if not.
  double low = 0.95 * coarse, high = 1.05 * coarse;
  for (int widening = 0; !reaches(high); ++widening) {
    if (widening == 8) throw std::runtime_error("no shift reaches the power: " + design.name);
    low = high, high *= 1.05;
  }
  for (int widening = 0; low > 0.0 && reaches(low); ++widening) {
    high = low, low = widening == 8 ? 0.0 : low / 1.05;
  }
  for (int step = 0; step < 7; ++step) {
    const double middle = 0.5 * (low + high);
    (reaches(middle) ? high : low) = middle;
  }
  return high;
}

FloorLine measure_floor(const NoiseModel& model, const FloorDesign& design,
                        const FloorSettings& settings, double d) {
  FloorLine line;
  line.design = design.name;
  line.paired = design.paired;
  line.baseline_seeds = design.baseline_seeds;
  line.d = d;
  line.alpha = settings.alpha / settings.family;
  line.power = settings.power;
  const mi::stats::ExpectedSeedsBound bound =
      mi::stats::wald_expected_seeds(line.alpha, 1.0 - settings.power, d);
  line.bound_h0 = bound.h0;
  line.bound_h1 = bound.h1;
  line.h0 = simulate_sequences(model, design, settings, 0.0, settings.trials);
  line.h1 = simulate_sequences(model, design, settings, d * unit_sd(model, design.paired),
                               settings.trials);
  line.mean_h0 = mean_of(line.h0.seeds);
  line.mean_h1 = mean_of(line.h1.seeds);
  line.p95_h0 = percentile_95(line.h0.seeds);
  line.p95_h1 = percentile_95(line.h1.seeds);
  line.p95_seeds = std::max(line.p95_h0, line.p95_h1);
  // Fresh seeds' reference is the baseline's mean, whose error no test on the seeds can remove.
  const mi::stats::PercentileSeedsBound p95_floor = mi::stats::percentile_seeds_bound(
      line.alpha, 1.0 - settings.power, d, 0.95, design.paired ? 0 : design.baseline_seeds);
  line.p95_floor_h0 = p95_floor.h0;
  line.p95_floor_h1 = p95_floor.h1;
  line.worst_mean = line.mean_h0;
  if (line.mean_h1 > line.worst_mean) {
    line.worst_mean = line.mean_h1;
    line.worst_at = 1.0;
  }
  constexpr int kEighths = 8;
  for (int k = 1; k < kEighths; ++k) {
    const double at = static_cast<double>(k) / kEighths;
    const Sequences between =
        simulate_sequences(model, design, settings, at * d * unit_sd(model, design.paired),
                           std::max(1, settings.trials / 4));
    if (const double mean = mean_of(between.seeds); mean > line.worst_mean) {
      line.worst_mean = mean;
      line.worst_at = at;
    }
  }
  line.worst_bound =
      mi::stats::worst_case_expected_seeds(line.alpha, 1.0 - settings.power, d).seeds;
  double rounds = 0.0;
  for (const int seeds : line.h0.seeds) rounds += wall_clock_rounds(design.plan, seeds, 2);
  line.wall_rounds_h0 = rounds / static_cast<double>(line.h0.seeds.size());
  return line;
}

namespace {

// The ratio target of a line's pairing: 0 where none is set (fresh seeds against 52).
double ratio_target(const FloorLine& l) {
  if (l.paired) return 1.3;
  return l.baseline_seeds > 52 ? 1.6 : 0.0;
}

const char* met(bool yes) { return yes ? "met" : "missed"; }

}  // namespace

FloorTargets floor_targets(const FloorLine& l) {
  FloorTargets t;
  const double ratio = ratio_target(l);
  t.ratio = ratio > 0.0 ? met(l.ratio_h0() <= ratio && l.ratio_h1() <= ratio) : "n/a";
  t.p95 = met(l.p95_h0 <= 2.5 * l.bound_h0);
  const auto level = mi::stats::clopper_pearson(l.h0.regressions, l.h0.trials, 0.95);
  t.level = met(level.lower <= l.alpha);
  const auto power = mi::stats::clopper_pearson(l.h1.regressions, l.h1.trials, 0.95);
  t.power = met(power.upper >= l.power);
  return t;
}

std::string format_floor_line(const FloorLine& l) {
  const FloorTargets t = floor_targets(l);
  return fmt::format(
             "design={} d={:.3f} alpha={:.4g} power={:.2f} mean_seeds_h0={:.2f} bound_h0={:.2f} "
             "ratio_h0={:.2f} mean_seeds_h1={:.2f} bound_h1={:.2f} ratio_h1={:.2f} p95_seeds={} "
             "p95_h0={} p95_floor_h0={} p95_h1={} p95_floor_h1={} worst_mean={:.2f} "
             "worst_at={:.3g}d worst_bound={:.2f} wall_rounds_h0={:.2f} "
             "false_regression={} power_observed={} false_regression_run={}",
             l.design, l.d, l.alpha, l.power, l.mean_h0, l.bound_h0, l.ratio_h0(), l.mean_h1,
             l.bound_h1, l.ratio_h1(), l.p95_seeds, l.p95_h0, l.p95_floor_h0, l.p95_h1,
             l.p95_floor_h1, l.worst_mean, l.worst_at, l.worst_bound, l.wall_rounds_h0,
             rate(l.h0.regressions, l.h0.trials), rate(l.h1.regressions, l.h1.trials),
             rate(l.h0.run_regressions, l.h0.trials)) +
         fmt::format(
             " targets=[ratio<={} {}; p95_h0<={:.1f} {}; false_regression<={:.4g} {}; "
             "power>={:.2f} {}]",
             ratio_target(l) > 0.0 ? fmt::format("{:g}", ratio_target(l)) : "-", t.ratio,
             2.5 * l.bound_h0, t.p95, l.alpha, t.level, l.power, t.power);
}

}  // namespace seed_floor
