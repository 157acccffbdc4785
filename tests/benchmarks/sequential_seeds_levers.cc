// The multi-seed gate's levers, one row each, simulated through the gate's own code on real
// per-seed values: a table read from a TSV of Full.XorSequentialSeedStudy seeds (columns seed,
// weight_stream, test_accuracy, train_loss, test_set_rule_accuracy;
// ci/sequential-seeds-benchmark.sh writes it from real runs). Each simulated trial draws a baseline
// of N seeds and a candidate of `cap` from the table, disjoint (fresh seeds: weight_stream 0 for
// both) or on the baseline's own seeds with the other weight stream (paired: the same data, other
// initial weights and batches, as a CI rerun after a change that keeps the quality), then runs
// every metric through look_sequentially (Seeds(8).up_to(40) unless the row says otherwise) and the
// run's Holm decision (decide_gate), exactly as a run does. The test stops at the first block after
// which every metric is settled.
//
// Rows, cumulative (each adds one lever to the row above):
//   before        union-bound PASS levels, a look settles at alpha (Holm later demotes), no
//                 covariate, a 40-seed baseline: the gate as it was;
//   +holm stop    a look settles only at alpha / m (m = the run's distinct hypotheses);
//   +exact PASS   paired looks spend the PASS error by the exact Lan–DeMets boundaries;
//   +exact REGRESSION  paired looks spend alpha by the exact boundaries on each block's t test,
//                 combined across blocks (statistics/block_combination.h);
//   +covariate    test_accuracy adjusted by test_set_rule_accuracy against fresh seeds (CUPED);
//   +pool 200     a 200-seed baseline (promote --add-seeds) instead of 40;
// and beside the last: the PASS error spent Pocock-type (early) instead of O'Brien–Fleming-type
// (the plan option Seeds(8).up_to(40).pass_early(), rows named after it), and blocks of 4 seeds
// instead of 8; blocks of 6 up to 48, PASS early; then the study's group-sequential design (its
// declaration until the default moved to likelihood-ratio looks, which these rows do not cover:
// ci/seed-floor-benchmark.sh does), Seeds(12).then_blocks_of(8).up_to(52).pass_early(), against a
// 200-seed pool (as its committed
// baseline) and against a 40-seed baseline; the study's design with the union bound on the
// REGRESSION side; and the anytime-valid Seeds(8).until_decided(200) against the pool.
// Per row: the share of trials whose test_accuracy is REGRESSION (Clopper–Pearson 95%),
// INCONCLUSIVE and PASS, the test's seeds (median, p90, mean). Then power rows: the candidate's
// test_accuracy lowered by an effect (the drop promote prints for the study against a 240-seed
// pool, and 1x/2x the margin),
// the share REGRESSION. Deterministic (std::mt19937_64 with fixed seeds).
//   sequential_seeds_levers TABLE.tsv [TRIALS=10000]
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "analysis/distribution_gate.h"
#include "analysis/gate_power.h"
#include "analysis/sequential_seeds.h"
#include "statistics/failure_rate_design.h"
#include "statistics/moments.h"
#include "xor_seed_table.h"

namespace mi = mlregress::internal;

namespace {

using xor_table::SeedValues;
using Table = xor_table::Table;

struct Levers {
  std::string name;
  bool holm_stop = false, exact_pass = false, covariate = false;
  int baseline_seeds = 40;
  int block = 8;
  mi::stats::SpendingFunction pass_spending = mi::stats::SpendingFunction::kOBrienFleming;
  int cap = 40;
  int next_block = 0;            ///< then_blocks_of(); 0: block
  bool exact_regression = true;  ///< paired looks: block t tests combined, exact boundaries
  bool anytime = false;          ///< until_decided(cap): a confidence sequence, no planned looks
};

constexpr double kAlpha = 0.01;
constexpr double kAccuracyMargin = 0.005, kLossMargin = 0.05, kRuleMargin = 0.02;
constexpr int kHypotheses = 3;  // test_set_rule_accuracy, test_accuracy, train_loss

struct Trial {
  mi::Verdict accuracy = mi::Verdict::kInconclusive;
  int seeds = 0;
};

mi::SeedSamples samples_of(const std::vector<std::uint64_t>& seeds,
                           const std::map<std::uint64_t, SeedValues>& values,
                           double SeedValues::*member, double shift = 0.0) {
  mi::SeedSamples s;
  for (std::uint64_t seed : seeds) {
    s.values.push_back(values.at(seed).*member + shift);
    s.seeds.push_back(seed);
  }
  return s;
}

Trial one_trial(const Table& table, const Levers& levers, bool paired, double accuracy_shift,
                std::mt19937_64& rng) {
  const auto& stream0 = table.at(0);
  std::vector<std::uint64_t> all;
  for (const auto& [seed, v] : stream0) all.push_back(seed);
  std::shuffle(all.begin(), all.end(), rng);
  const std::vector<std::uint64_t> baseline_seeds(all.begin(), all.begin() + levers.baseline_seeds);
  // Paired: the candidate runs the baseline's first `cap` seeds with the other weight stream.
  const std::vector<std::uint64_t> candidate_seeds =
      paired
          ? std::vector<std::uint64_t>(baseline_seeds.begin(), baseline_seeds.begin() + levers.cap)
          : std::vector<std::uint64_t>(all.begin() + levers.baseline_seeds,
                                       all.begin() + levers.baseline_seeds + levers.cap);
  const auto& candidate_values = paired ? table.at(1) : stream0;

  mi::SequentialPlan plan{
      .block = levers.block, .cap = levers.cap, .next_block = levers.next_block};
  plan.pass_spending = levers.pass_spending;
  plan.family = levers.holm_stop ? kHypotheses : 1;
  plan.exact_pass_boundaries = levers.exact_pass;
  plan.exact_regression_boundaries = levers.exact_regression;
  plan.anytime = levers.anytime;
  struct Metric {
    const char* name;
    double SeedValues::*member;
    mlregress::Direction direction;
    double margin;
    double shift;
  };
  const Metric metrics[] = {
      {"test_set_rule_accuracy", &SeedValues::rule, mlregress::HigherIsBetter, kRuleMargin, 0.0},
      {"test_accuracy", &SeedValues::accuracy, mlregress::HigherIsBetter, kAccuracyMargin,
       accuracy_shift},
      {"train_loss", &SeedValues::loss, mlregress::LowerIsBetter, kLossMargin, 0.0}};
  mi::CovariateSamples covariate{"test_set_rule_accuracy",
                                 samples_of(candidate_seeds, candidate_values, &SeedValues::rule),
                                 samples_of(baseline_seeds, stream0, &SeedValues::rule)};
  // Each metric's looks over all `cap` seeds; the test runs until every metric settled.
  std::vector<std::vector<mi::SequentialLook>> looks;
  int seeds = levers.block;
  for (const Metric& m : metrics) {
    const bool adjust = levers.covariate && std::string(m.name) == "test_accuracy";
    looks.push_back(
        mi::look_sequentially(m.name, m.direction, m.margin,
                              samples_of(candidate_seeds, candidate_values, m.member, m.shift),
                              samples_of(baseline_seeds, stream0, m.member), plan, kAlpha,
                              adjust ? &covariate : nullptr));
    seeds = std::max(seeds, looks.back().back().seeds);
  }
  // The verdicts with the seeds the test ran: each metric's first settling look (a metric's
  // looks stop there), then Holm across the run's checks.
  std::vector<mi::DistributionAnalysis> analyses;
  for (const auto& metric_looks : looks) {
    analyses.push_back(mi::sequential_decision_analysis(metric_looks.back()));
  }
  const std::vector<mi::GateDecision> decisions = mi::decide_gate(analyses, kAlpha);
  return {decisions[1].verdict, seeds};
}

struct Row {
  int regressions = 0, inconclusive = 0, passes = 0;
  std::vector<int> seeds;
};

Row simulate(const Table& table, const Levers& levers, bool paired, double shift, int trials,
             std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  Row row;
  for (int t = 0; t < trials; ++t) {
    const Trial trial = one_trial(table, levers, paired, shift, rng);
    row.regressions += trial.accuracy == mi::Verdict::kRegression;
    row.inconclusive += trial.accuracy == mi::Verdict::kInconclusive;
    row.passes += trial.accuracy == mi::Verdict::kPass;
    row.seeds.push_back(trial.seeds);
  }
  std::sort(row.seeds.begin(), row.seeds.end());
  return row;
}

std::string rate(int k, int n) {
  const auto ci = mi::stats::clopper_pearson(k, n, 0.95);
  return fmt::format("{:5.2f}% [{:.2f}, {:.2f}]", 100.0 * k / n, 100.0 * ci.lower,
                     100.0 * ci.upper);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    fmt::print(stderr, "usage: sequential_seeds_levers TABLE.tsv [TRIALS=10000]\n");
    return 64;
  }
  Table table;
  try {
    table = xor_table::read_table(argv[1]);
  } catch (const std::exception& e) {
    fmt::print(stderr, "sequential_seeds_levers: {}\n", e.what());
    return 1;
  }
  const int trials = argc == 3 ? std::atoi(argv[2]) : 10000;
  constexpr auto kObf = mi::stats::SpendingFunction::kOBrienFleming;
  const std::vector<Levers> rows{
      {"before", false, false, false, 40, 8, kObf, 40, 0, false},
      {"+holm stop", true, false, false, 40, 8, kObf, 40, 0, false},
      {"+exact PASS", true, true, false, 40, 8, kObf, 40, 0, false},
      {"+exact REGRESSION", true, true, false, 40},
      {"+covariate", true, true, true, 40},
      {"+pool 200", true, true, true, 200},
      // Alternatives to the row above, not cumulative: a PASS side that spends early, or
      // smaller blocks (more looks).
      {"pool, pass_early()", true, true, true, 200, 8, mi::stats::SpendingFunction::kPocock},
      {"pool, block 4", true, true, true, 200, 4},
      {"pool, b4, pass_early()", true, true, true, 200, 4, mi::stats::SpendingFunction::kPocock},
      // Blocks of 6 up to 48, PASS early: the study's design before its first block grew.
      {"pool, b6 c48 pe", true, true, true, 200, 6, mi::stats::SpendingFunction::kPocock, 48},
      // The study's group-sequential design, Seeds(12).then_blocks_of(8).up_to(52).pass_early(),
      // against its committed pool and against a 40-seed baseline.
      {"study: pool, 12+8 c52 pe", true, true, true, 200, 12, mi::stats::SpendingFunction::kPocock,
       52, 8},
      {"study: 40, 12+8 c52 pe", true, true, true, 40, 12, mi::stats::SpendingFunction::kPocock, 52,
       8},
      // The study's design with the REGRESSION side's union bound (the row above without exact
      // REGRESSION boundaries, against the pool).
      {"study: pool, union REG", true, true, true, 200, 12, mi::stats::SpendingFunction::kPocock,
       52, 8, false},
      // Anytime-valid: Seeds(8).until_decided(200) against the pool, no planned looks.
      {"pool, until_decided(200)", true, true, true, 200, 8, kObf, 200, 0, true, true},
  };
  // A fresh-seed trial draws a baseline and a candidate, disjoint, from weight stream 0.
  std::size_t needed = 0;
  for (const Levers& levers : rows) {
    needed = std::max(needed, static_cast<std::size_t>(levers.baseline_seeds + levers.cap));
  }
  if (!table.contains(0) || !table.contains(1) || table.at(0).size() < needed || trials < 1) {
    fmt::print(stderr, "the table needs weight streams 0 and 1 with at least {} seeds\n", needed);
    return 64;
  }
  fmt::print(
      "Full.XorSequentialSeedStudy, simulated from {} real seeds per weight stream: "
      "Seeds(8).up_to(40) unless the row says otherwise, alpha {}, {} hypotheses; {} trials per "
      "row\n",
      table.at(0).size(), kAlpha, kHypotheses, trials);
  fmt::print("{:<8} {:<23} {:<26} {:<26} {:>7}  seeds: median p90 mean\n", "design", "levers",
             "test_accuracy REGRESSION", "INCONCLUSIVE", "PASS");
  for (const bool paired : {false, true}) {
    for (const Levers& levers : rows) {
      // A paired run needs the baseline to hold every seed it may reach.
      if (paired && levers.baseline_seeds < levers.cap) continue;
      const Row r = simulate(table, levers, paired, 0.0, trials, 20261204);
      const double mean =
          std::accumulate(r.seeds.begin(), r.seeds.end(), 0.0) / static_cast<double>(trials);
      fmt::print("{:<8} {:<23} {:<26} {:<26} {:6.2f}%  {:>6} {:>3} {:5.1f}\n",
                 paired ? "paired" : "fresh", levers.name, rate(r.regressions, trials),
                 rate(r.inconclusive, trials), 100.0 * r.passes / trials, r.seeds[trials / 2],
                 r.seeds[trials * 9 / 10], mean);
    }
  }
  // Power: the drop promote prints for the study as committed (its gate_power sentence: the
  // study's design against a pool of the table's first 240 seeds, as the committed baseline
  // holds 240), and 1x / 2x the margin.
  mi::GatePowerQuestion question;
  question.direction = mlregress::HigherIsBetter;
  question.margin = kAccuracyMargin;
  question.block = 12;
  question.next_block = 8;
  question.cap = 52;
  question.family = kHypotheses;
  question.pass_spending = mi::stats::SpendingFunction::kPocock;
  question.covariate = "test_set_rule_accuracy";
  for (const auto& [seed, v] : table.at(0)) {
    if (question.baseline.values.size() == 240) break;
    question.baseline.values.push_back(v.accuracy);
    question.baseline.seeds.push_back(seed);
    question.covariate_values.push_back(v.rule);
  }
  const mi::GatePower promote_power = mi::gate_power(question);
  if (!promote_power.problem.empty()) {
    fmt::print(stderr, "promote's power cannot be simulated: {}\n", promote_power.problem);
    return 1;
  }
  const double promoted_mde = promote_power.detectable.effect;
  fmt::print("\nPower: test_accuracy lowered by an effect; the share of trials REGRESSION\n");
  fmt::print("{:<8} {:<23} {:>28} {:>28} {:>28}\n", "design", "levers",
             fmt::format("promote's figure {:.4f}", promoted_mde),
             fmt::format("1 margin {:.4f}", kAccuracyMargin),
             fmt::format("2 margins {:.4f}", 2 * kAccuracyMargin));
  for (const bool paired : {false, true}) {
    for (const Levers& levers : rows) {
      if (paired && levers.baseline_seeds < levers.cap) continue;
      std::string line = fmt::format("{:<8} {:<23}", paired ? "paired" : "fresh", levers.name);
      for (const double effect : {promoted_mde, kAccuracyMargin, 2 * kAccuracyMargin}) {
        const int n = std::max(1, trials / 5);
        const Row r = simulate(table, levers, paired, -effect, n, 777);
        line += fmt::format(" {:>28}", rate(r.regressions, n));
      }
      fmt::print("{}\n", line);
    }
  }
  return 0;
}
