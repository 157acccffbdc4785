#include "analysis/gate_power.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <numeric>
#include <optional>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "analysis/sequential_seeds.h"
#include "statistics/control_variate.h"
#include "statistics/moments.h"
#include "statistics/power.h"
#include "statistics/robust_summary.h"
#include "statistics/sequential_bound.h"

namespace mlregress::internal {
namespace {

// The draws are the same on every call and every machine: a constant seed, and indices taken as
// rng() % n rather than through a distribution whose algorithm each standard library picks.
constexpr std::uint64_t kDrawSeed = 0x6761746570777231ULL;
constexpr int kMostBisectionSteps = 24;
constexpr int kMostDoublings = 40;
// The bisection stops when the bracket is this small relative to its top: finer than the two
// digits the effect is printed with.
constexpr double kRelativeTolerance = 5e-3;

// Why the question cannot be simulated, or "".
std::string question_problem(const GatePowerQuestion& q) {
  const std::vector<double>& values = q.baseline.values;
  if (q.direction == Direction::MustEqual) return "a must-equal metric has no worse side";
  if (values.size() != q.baseline.seeds.size()) {
    return fmt::format("the baseline has {} values but {} seeds", values.size(),
                       q.baseline.seeds.size());
  }
  if (values.size() < 2) {
    return fmt::format("the baseline holds {} sample(s); the gate needs at least 2", values.size());
  }
  if (std::any_of(values.begin(), values.end(), [](double v) { return !std::isfinite(v); })) {
    return "a stored sample is NaN or infinite";
  }
  if (!(q.margin >= 0.0) || !std::isfinite(q.margin)) {
    return fmt::format("the margin must be finite and >= 0, not {}", q.margin);
  }
  if (q.block > 0 ? (q.block < 2 || q.cap < q.block) : q.cap < 2) {
    return fmt::format("no gate runs {} seeds at a time up to {}", q.block, q.cap);
  }
  if (!q.covariate.empty() && q.covariate_values.size() != values.size()) {
    return fmt::format("the covariate '{}' has {} stored values for {} samples", q.covariate,
                       q.covariate_values.size(), values.size());
  }
  if (q.runs < 1 || q.family < 1 || !(q.alpha > 0.0 && q.alpha < 1.0)) {
    return fmt::format("{} runs, {} hypotheses, alpha {}: nothing to simulate", q.runs, q.family,
                       q.alpha);
  }
  const stats::SampleSummary summary = stats::summarize_samples(values);
  if (!(summary.sd > 0.0)) {
    return fmt::format(
        "the {} stored samples are all {:.6g}: there is no spread to draw a candidate from (a "
        "deterministic metric: a rerun of unchanged code gives difference 0, and any change is "
        "known exactly)",
        values.size(), summary.mean);
  }
  return "";
}

// The sequential plan of the question (block > 0).
SequentialPlan plan_of(const GatePowerQuestion& q) {
  return SequentialPlan{.block = q.block,
                        .cap = q.cap,
                        .next_block = q.next_block,
                        .anytime = q.anytime,
                        .likelihood_ratio = q.likelihood_ratio,
                        .pass_error = q.pass_error,
                        .pass_spending = q.pass_spending,
                        .family = q.family,
                        .pass_rise = q.pass_rise,
                        .pass_rise_from = q.pass_rise_from,
                        .constant_pass = q.constant_pass};
}

struct Judgement {
  bool regression = false;
  int seeds = 0;
};

// The simulated candidate runs of one question: which stored sample each seed of each run draws,
// fixed once, so that every effect is judged on the same draws.
class Simulation {
 public:
  explicit Simulation(const GatePowerQuestion& q) : q_(q) {
    const std::set<std::uint64_t> stored(q.baseline.seeds.begin(), q.baseline.seeds.end());
    for (std::uint64_t seed = 1; static_cast<int>(fresh_seeds_.size()) < q.cap; ++seed) {
      if (!stored.contains(seed)) fresh_seeds_.push_back(seed);
    }
    std::mt19937_64 rng(kDrawSeed);
    const std::uint64_t n = q.baseline.values.size();
    draws_.resize(static_cast<std::size_t>(q.runs) * static_cast<std::size_t>(q.cap));
    for (std::size_t& draw : draws_) draw = static_cast<std::size_t>(rng() % n);
  }

  int runs() const { return q_.runs; }

  // Run r of the candidate, its values shifted by `effect` in the worse direction, judged as the
  // gate judges it.
  Judgement judge(int run, double effect) const {
    const double shift = q_.direction == Direction::HigherIsBetter ? -effect : effect;
    SeedSamples candidate;
    candidate.seeds = fresh_seeds_;
    candidate.values.reserve(fresh_seeds_.size());
    const std::size_t first = static_cast<std::size_t>(run) * static_cast<std::size_t>(q_.cap);
    for (int i = 0; i < q_.cap; ++i) {
      candidate.values.push_back(q_.baseline.values[draws_[first + i]] + shift);
    }
    // A seed's covariate comes with its value: the pair is one stored seed's.
    std::optional<CovariateSamples> covariate;
    if (!q_.covariate.empty()) {
      covariate.emplace();
      covariate->name = q_.covariate;
      covariate->candidate.seeds = fresh_seeds_;
      for (int i = 0; i < q_.cap; ++i) {
        covariate->candidate.values.push_back(q_.covariate_values[draws_[first + i]]);
      }
      covariate->baseline = SeedSamples{q_.covariate_values, q_.baseline.seeds};
    }
    const CovariateSamples* adjust = covariate ? &*covariate : nullptr;
    if (q_.block > 0) {
      const std::vector<SequentialLook> looks =
          look_sequentially("simulated", q_.direction, q_.margin, candidate, q_.baseline,
                            plan_of(q_), q_.alpha, adjust);
      return {looks.back().outcome == LookOutcome::kRegression, looks.back().seeds};
    }
    const DistributionAnalysis analysis =
        analyse_distribution("simulated", q_.direction, q_.margin, candidate, q_.baseline, adjust);
    // Holm's first step: the level a check must reach when the run's other hypotheses all hold.
    const std::vector<GateDecision> decision =
        decide_gate(std::span(&analysis, 1), q_.alpha / q_.family);
    return {decision.front().verdict == Verdict::kRegression, q_.cap};
  }

 private:
  const GatePowerQuestion& q_;
  std::vector<std::uint64_t> fresh_seeds_;
  std::vector<std::size_t> draws_;  ///< runs × cap indices into the stored samples
};

double share(const std::vector<char>& caught) {
  return static_cast<double>(std::count(caught.begin(), caught.end(), char{1})) /
         static_cast<double>(caught.size());
}

// Which runs the gate catches, effect by effect, judging as few runs as it can. A run's
// REGRESSION only grows more likely with the effect (a larger shift lowers every look's
// p(worse), raises its degradation and makes an earlier PASS or IMPROVED less likely), so a run
// caught at a smaller effect is caught at a larger one, and one missed at a larger effect is
// missed at a smaller one: only the runs between the nearest effects already judged are judged.
class CaughtRuns {
 public:
  explicit CaughtRuns(const Simulation& simulation) : simulation_(simulation) {}

  const std::vector<char>& at(double effect) {
    if (const auto known = judged_.find(effect); known != judged_.end()) return known->second;
    const std::size_t runs = static_cast<std::size_t>(simulation_.runs());
    const std::vector<char> none(runs, 0), all(runs, 1);
    const auto above = judged_.lower_bound(effect);
    const std::vector<char>& caught_above = above == judged_.end() ? all : above->second;
    const std::vector<char>& caught_below =
        above == judged_.begin() ? none : std::prev(above)->second;
    std::vector<char> caught(runs);
    for (std::size_t r = 0; r < runs; ++r) {
      caught[r] =
          caught_below[r] ? 1
          : !caught_above[r]
              ? 0
              : static_cast<char>(simulation_.judge(static_cast<int>(r), effect).regression);
    }
    return judged_.emplace(effect, std::move(caught)).first->second;
  }

  // Every run judged, for the seeds each took.
  GatePowerAtEffect judge_every_run(double effect) {
    std::vector<int> seeds;
    std::vector<char> caught;
    for (int r = 0; r < simulation_.runs(); ++r) {
      const Judgement j = simulation_.judge(r, effect);
      caught.push_back(j.regression ? 1 : 0);
      seeds.push_back(j.seeds);
    }
    const double mean =
        std::accumulate(seeds.begin(), seeds.end(), 0.0) / static_cast<double>(seeds.size());
    const int p95 = stats::inverted_cdf_quantile(seeds, 0.95);
    std::nth_element(seeds.begin(), seeds.begin() + seeds.size() / 2, seeds.end());
    const double power = share(caught);
    judged_.insert_or_assign(effect, std::move(caught));
    return {effect, power, static_cast<double>(seeds[seeds.size() / 2]), mean, p95};
  }

 private:
  const Simulation& simulation_;
  std::map<double, std::vector<char>> judged_;  ///< effect → caught, per run
};

// value rounded up to two significant digits: the effect the sentence states.
double two_digits_up(double value) {
  if (!(value > 0.0) || !std::isfinite(value)) return value;
  const double unit = std::pow(10.0, std::floor(std::log10(value)) - 1.0);
  // The slack keeps 0.013 from becoming 0.014 through representation error.
  return std::ceil(value / unit * (1.0 - 1e-12)) * unit;
}

// The sd of what one candidate seed tells the gate: the stored values' sd, after the covariate
// when there is one, sd · sqrt(1 - R²) with R² the share of their variance the covariate's slope
// explains (the gate's own CUPED adjustment, fitted on the stored samples as both arms).
double one_seed_sd(const GatePowerQuestion& q) {
  const double sd = stats::summarize_samples(q.baseline.values).sd;
  if (q.covariate.empty()) return sd;
  try {
    const stats::ControlVariateAdjustment fit = stats::adjust_by_covariate(
        q.baseline.values, q.covariate_values, q.baseline.values, q.covariate_values);
    return sd * std::sqrt(std::max(0.0, 1.0 - fit.variance_explained));
  } catch (const std::invalid_argument&) {
    return sd;  // a constant covariate explains nothing
  }
}

ExpectedSeeds expected_seeds_of(const GatePowerQuestion& q, double target_power,
                                const GatePowerAtEffect& unchanged,
                                const GatePowerAtEffect& detectable) {
  ExpectedSeeds e;
  e.mean_h0 = unchanged.mean_seeds;
  e.mean_h1 = detectable.mean_seeds;
  e.p95_h0 = unchanged.p95_seeds;
  const double sd = one_seed_sd(q);
  e.d = sd > 0.0 ? detectable.effect / sd : 0.0;
  if (e.d > 0.0 && std::isfinite(e.d) && target_power > 0.0 && target_power < 1.0) {
    const stats::ExpectedSeedsBound bound =
        stats::wald_expected_seeds(q.alpha / q.family, 1.0 - target_power, e.d);
    e.bound_h0 = bound.h0;
    e.bound_h1 = bound.h1;
  }
  return e;
}

// Powers are printed rounded down: 79.9% is not 80%.
int percent_down(double power) { return static_cast<int>(std::floor(power * 100.0 + 1e-9)); }

// What a paired rerun costs on the stored spread, or why it is not simulated (and, for a
// sequential test, what would let it be).
std::string paired_rerun_clause(const GatePowerQuestion& q,
                                const std::optional<PairedRerunCost>& cost) {
  if (!cost) {
    return std::string(
               "; a paired rerun on the stored seeds (the CI default) is not simulated: its power "
               "depends on how far each seed's value moves between two builds, which these "
               "samples do not show") +
           (q.block > 0 ? " (a stored spread of paired differences would: promote --paired-spread)"
                        : "");
  }
  std::string clause = fmt::format(
      "; a paired rerun on the stored seeds (the CI default), each seed moving by the stored "
      "spread of paired differences (sd {:.4g}, {} pairs): expected seeds {:.1f} under no change "
      "(95% within {}) and {:.1f} at the margin, where it is caught with {}% power",
      cost->sd, cost->pairs, cost->mean_h0, cost->p95_h0, cost->mean_h1,
      percent_down(cost->power_at_margin));
  if (cost->bound_h0 > 0.0) {
    clause += fmt::format(
        "; no test at this level and power can average fewer than {:.1f} and {:.1f} (Wald's "
        "bound at d {:.2f})",
        cost->bound_h0, cost->bound_h1, cost->d);
  }
  return clause;
}

}  // namespace

GatePowerAtEffect simulated_gate_power(const GatePowerQuestion& question, double effect) {
  if (const std::string problem = question_problem(question); !problem.empty()) {
    throw std::invalid_argument("gate power: " + problem);
  }
  const Simulation simulation(question);
  return CaughtRuns(simulation).judge_every_run(effect);
}

GatePower gate_power(const GatePowerQuestion& question, double target_power) {
  GatePower result;
  result.target_power = target_power;
  result.problem = question_problem(question);
  if (!result.problem.empty()) return result;
  const Simulation simulation(question);
  CaughtRuns caught(simulation);

  // A first guess: one Welch test at the cap's seeds, or the margin, whichever is larger.
  const stats::SampleSummary summary = stats::summarize_samples(question.baseline.values);
  double hi = std::max(question.margin,
                       stats::minimum_detectable_effect(static_cast<std::size_t>(question.cap),
                                                        summary.sd, question.alpha, 0.8));
  double lo = 0.0;
  for (int doubling = 0; share(caught.at(hi)) < target_power; ++doubling) {
    if (doubling == kMostDoublings) {
      result.problem = fmt::format("no shift up to {:.3g} is caught with {:.0f}% power", hi,
                                   100.0 * target_power);
      return result;
    }
    lo = hi;
    hi *= 2.0;
  }
  for (int step = 0; step < kMostBisectionSteps && hi - lo > kRelativeTolerance * hi; ++step) {
    const double middle = 0.5 * (lo + hi);
    (share(caught.at(middle)) >= target_power ? hi : lo) = middle;
  }
  result.detectable = caught.judge_every_run(two_digits_up(hi));
  if (question.block > 0) {
    result.expected_seeds =
        expected_seeds_of(question, target_power, caught.judge_every_run(0.0), result.detectable);
  }
  if (question.margin > 0.0) {
    result.at_margin = {question.margin, share(caught.at(question.margin)), 0.0};
    result.at_two_margins = {2.0 * question.margin, share(caught.at(2.0 * question.margin)), 0.0};
  }
  if (question.block > 0) {
    result.paired_rerun =
        paired_rerun_cost(question.baseline, plan_of(question), question.direction, question.margin,
                          question.alpha, question.runs);
  }
  return result;
}

std::string gate_power_sentence(const GatePowerQuestion& q, const GatePower& power) {
  if (!power.problem.empty()) return "no power of the gate stated: " + power.problem;
  const std::string blocks =
      q.next_block > 0 && q.next_block != q.block
          ? fmt::format("{}, then {} at a time up to {}", q.block, q.next_block, q.cap)
          : fmt::format("{} at a time up to {}", q.block, q.cap);
  const std::string pass_error =
      q.pass_error != kDefaultPassError ? fmt::format(", PASS error {:g}", q.pass_error) : "";
  const std::string design =
      q.block > 0 ? fmt::format("fresh seeds, {}{}{}{}", blocks,
                                q.anytime            ? ", anytime-valid"
                                : q.likelihood_ratio ? ", likelihood-ratio looks"
                                : q.pass_spending == stats::SpendingFunction::kPocock
                                    ? ", PASS error spent early"
                                    : "",
                                pass_error,
                                pass_boundary_clause(q.likelihood_ratio, q.pass_rise,
                                                     q.pass_rise_from, q.constant_pass))
                  : fmt::format("fresh seeds, {} of them in one look", q.cap);
  const std::string level = q.family <= 1
                                ? fmt::format("alpha {:g}", q.alpha)
                                : fmt::format("alpha {:g} / {} hypotheses{}", q.alpha, q.family,
                                              q.block > 0 ? "" : ", Holm's first step");
  const std::string seeds =
      q.block > 0 ? fmt::format("median {:g} seeds; ", power.detectable.median_seeds) : "";
  const std::string adjusted =
      q.covariate.empty() ? "" : fmt::format(", adjusted by '{}'", q.covariate);
  std::string line = fmt::format(
      "the gate that will run ({}, {}, margin {:g}{}) catches a {} of {:g} with {}% power ({}"
      "simulated from these {} samples, {} runs)",
      design, level, q.margin, adjusted, q.direction == Direction::HigherIsBetter ? "drop" : "rise",
      power.detectable.effect, percent_down(power.detectable.power), seeds,
      q.baseline.values.size(), q.runs);
  if (q.margin > 0.0) {
    line +=
        fmt::format("; at the margin {:g}: {}%; at 2 margins: {}%", q.margin,
                    percent_down(power.at_margin.power), percent_down(power.at_two_margins.power));
  }
  if (const auto& e = power.expected_seeds; e && e->bound_h0 > 0.0) {
    line += fmt::format(
        "; expected seeds {:.1f} under no change (95% within {}) and {:.1f} at that {}; no test "
        "at this level and power can average fewer than {:.1f} and {:.1f} (Wald's bound at d "
        "{:.2f} sd of one seed{})",
        e->mean_h0, e->p95_h0, e->mean_h1,
        q.direction == Direction::HigherIsBetter ? "drop" : "rise", e->bound_h0, e->bound_h1, e->d,
        q.covariate.empty() ? "" : " after the covariate");
  }
  return line + paired_rerun_clause(q, power.paired_rerun);
}

}  // namespace mlregress::internal
