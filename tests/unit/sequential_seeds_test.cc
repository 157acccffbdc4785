// Sequential seeds judged look by look: the plan's looks, a large regression decided on the
// first block, an unchanged metric passing once enough seeds narrowed the interval, and, over
// 10,000 simulated A/A sequences, a false-regression rate within alpha (Clopper–Pearson), an
// INCONCLUSIVE rate far below the single look's, and the sequential p-value valid as a p-value
// (what lets it join Holm's families). Looking at every block with the single-look rule — the
// peeking the plan replaces — is caught raising false regressions above alpha.
#include "analysis/sequential_seeds.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "builders.h"
#include "statistics/t_sequential_boundaries.h"
#include "storage/results_json.h"
#include "tests/support/clopper_pearson.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr double kAlpha = 0.01;
constexpr double kMargin = 0.01;
const SequentialPlan kPlan{.block = 8, .cap = 40};

// 40 baseline seeds of unit noise and a candidate worse by exactly `degradation`: paired
// candidates (the baseline's seeds) share part of each seed's noise, fresh ones (seeds 1000+) none.
struct DegradedStudy {
  SeedSamples baseline, candidate;
};
DegradedStudy degraded_study(std::mt19937_64& rng, std::normal_distribution<double>& noise,
                             bool paired, double degradation) {
  std::vector<double> b, c;
  for (int i = 0; i < 40; ++i) b.push_back(noise(rng));
  for (int i = 0; i < 40; ++i) {
    c.push_back(-degradation + (paired ? 0.6 * b[i] + 0.8 * noise(rng) : noise(rng)));
  }
  return {samples(b), samples(c, paired ? 0 : 1000)};
}

TEST(SequentialSeeds, LooksEveryBlockUpToTheCap) {
  EXPECT_THAT(sequential_looks(kPlan), ElementsAre(8, 16, 24, 32, 40));
  EXPECT_THAT(sequential_looks({.block = 8, .cap = 20}), ElementsAre(8, 16, 20));
  EXPECT_THAT(sequential_looks({.block = 5, .cap = 5}), ElementsAre(5));
  EXPECT_THAT(sequential_looks({.block = 12, .cap = 44, .next_block = 8}),
              ElementsAre(12, 20, 28, 36, 44));
  EXPECT_THAT(sequential_looks({.block = 12, .cap = 48, .next_block = 8}),
              ElementsAre(12, 20, 28, 36, 44, 48));
  EXPECT_THROW(sequential_looks({.block = 12, .cap = 48, .next_block = 1}), std::invalid_argument);
  EXPECT_THROW(sequential_looks({.block = 1, .cap = 10}), std::invalid_argument);
  EXPECT_THROW(sequential_looks({.block = 8, .cap = 4}), std::invalid_argument);
}

// Accuracy per seed: baseline 0.87 + seed noise; the candidate shares each seed's noise (paired).
struct World {
  std::mt19937_64 rng;
  double seed_sd = 0.01, pair_sd = 0.012;
  std::pair<SeedSamples, SeedSamples> draw(double shift, int n_baseline = 40) {
    std::normal_distribution<double> noise(0.0, 1.0);
    std::vector<double> b, c;
    for (int i = 0; i < n_baseline; ++i) {
      const double seed_effect = seed_sd * noise(rng);
      b.push_back(0.87 + seed_effect);
      c.push_back(0.87 + shift + seed_effect + pair_sd * noise(rng));
    }
    return {samples(c), samples(b)};
  }
};

TEST(SequentialSeeds, ALargeRegressionIsDecidedOnTheFirstBlock) {
  World world{std::mt19937_64(7)};
  const auto [candidate, baseline] = world.draw(-0.05);  // 4 pair sd below, 5 margins
  const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                       baseline, kPlan, kAlpha);
  ASSERT_EQ(looks.size(), 1u);
  EXPECT_EQ(looks[0].outcome, LookOutcome::kRegression);
  EXPECT_EQ(looks[0].analysis.design, GateDesign::kPaired);
  EXPECT_EQ(looks[0].analysis.n_baseline, 8u);  // the baseline's samples of the same 8 seeds
  EXPECT_NEAR(looks[0].worse_weight, std::log(1.0 + (std::exp(1.0) - 1.0) * 0.2), 1e-12);
  EXPECT_THAT(format_look(looks[0]), HasSubstr("look at 8 seeds: diff -0.0"));
  EXPECT_THAT(format_look(looks[0]), HasSubstr("; regression"));
}

TEST(SequentialSeeds, OnlyTheSeedsThatRanAreLookedAt) {
  World world{std::mt19937_64(8)};
  auto [candidate, baseline] = world.draw(0.0);
  candidate.values.resize(16);
  candidate.seeds.resize(16);
  const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                       baseline, kPlan, kAlpha);
  ASSERT_FALSE(looks.empty());
  EXPECT_LE(looks.back().seeds, 16);
  // Fewer seeds than the first look: one look saying so.
  const auto one = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin,
                                     samples({0.87}), baseline, {.block = 2, .cap = 4}, kAlpha);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].outcome, LookOutcome::kContinue);
  EXPECT_THAT(one[0].analysis.problem, HasSubstr("1 seeds ran, fewer than the plan's first look"));
}

// A diverged seed is a regression at once, also one after the looks that would have passed.
TEST(SequentialSeeds, ADivergedSeedIsARegression) {
  World world{std::mt19937_64(10)};
  auto [candidate, baseline] = world.draw(0.0);
  candidate.values[30] = std::nan("");
  const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                       baseline, kPlan, kAlpha);
  ASSERT_EQ(looks.size(), 1u);
  EXPECT_EQ(looks[0].outcome, LookOutcome::kRegression);
  EXPECT_TRUE(looks[0].analysis.candidate_not_finite);
}

// Small blocks under a long cap: the first look's PASS share is about 1e-56 (its level rounds
// to 1); that look must neither throw nor pass, its interval is just very wide.
TEST(SequentialSeeds, ALookWithNothingLeftToSpendCannotPass) {
  World world{std::mt19937_64(15)};
  world.pair_sd = 0.0001;  // so tight that any finite interval would pass
  const auto [candidate, baseline] = world.draw(0.0, 100);
  const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                       baseline, {.block = 2, .cap = 100}, kAlpha);
  ASSERT_GT(looks.size(), 1u);
  EXPECT_EQ(looks[0].outcome, LookOutcome::kContinue);
  EXPECT_GT(looks[0].interval_upper, 1.0);
  EXPECT_EQ(looks.back().outcome, LookOutcome::kPass);
}

// Against a baseline without the candidate's seeds every look is an independent-arms comparison
// with all of the baseline.
TEST(SequentialSeeds, ABaselineWithoutTheSeedsGivesIndependentLooks) {
  World world{std::mt19937_64(9)};
  auto [candidate, baseline] = world.draw(0.0);
  const SeedSamples fresh = samples(candidate.values, 1000);
  const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, fresh,
                                       baseline, kPlan, kAlpha);
  ASSERT_FALSE(looks.empty());
  EXPECT_EQ(looks[0].analysis.design, GateDesign::kIndependent);
  EXPECT_EQ(looks[0].analysis.n_baseline, 40u);
  EXPECT_GT(looks[0].information, 0.2);  // the fixed baseline arm: early looks weigh more
}

using test_support::clopper_pearson;

struct Rates {
  int regressions = 0, passes = 0, inconclusive = 0, first_block_regressions = 0;
  long seeds = 0;
  int sequences = 0;
};

Rates simulate(double shift, int sequences, std::uint64_t seed, bool sequential) {
  World world{std::mt19937_64(seed)};
  Rates r;
  r.sequences = sequences;
  for (int s = 0; s < sequences; ++s) {
    const auto [candidate, baseline] = world.draw(shift);
    if (!sequential) {
      // The single-look gate on the first 8 seeds, paired, at alpha with its 95% interval.
      SeedSamples c = candidate, b = baseline;
      c.values.resize(8), c.seeds.resize(8), b.values.resize(8), b.seeds.resize(8);
      const DistributionAnalysis a =
          analyse_distribution("accuracy", Direction::HigherIsBetter, kMargin, c, b);
      const std::vector<DistributionAnalysis> one = {a};
      const Verdict v = decide_gate(one, kAlpha)[0].verdict;
      r.regressions += v == Verdict::kRegression;
      r.first_block_regressions += v == Verdict::kRegression;
      r.passes += v == Verdict::kPass || v == Verdict::kImproved;
      r.inconclusive += v == Verdict::kInconclusive;
      r.seeds += 8;
      continue;
    }
    const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                         baseline, kPlan, kAlpha);
    const SequentialLook& last = looks.back();
    r.regressions += last.outcome == LookOutcome::kRegression;
    r.first_block_regressions += looks.size() == 1 && last.outcome == LookOutcome::kRegression;
    r.passes += last.outcome == LookOutcome::kPass || last.outcome == LookOutcome::kImproved;
    r.inconclusive += last.outcome == LookOutcome::kContinue;
    r.seeds += last.seeds;
  }
  return r;
}

std::string describe(const char* what, const Rates& r) {
  const test_support::RateInterval ci = clopper_pearson(r.regressions, r.sequences);
  return fmt::format(
      "{}: REGRESSION {:.2f}% (95% CI {:.2f}–{:.2f}%), PASS {:.1f}%, INCONCLUSIVE {:.1f}%, "
      "seeds per run {:.1f}",
      what, 100.0 * r.regressions / r.sequences, 100.0 * ci.low, 100.0 * ci.high,
      100.0 * r.passes / r.sequences, 100.0 * r.inconclusive / r.sequences,
      static_cast<double>(r.seeds) / r.sequences);
}

constexpr int kSequences = 10000;

// Unchanged candidates (A/A), pair noise 1.2 margins per seed: the single look at 8 seeds is
// INCONCLUSIVE about half the time; the plan stops once a look decides.
TEST(SequentialSeeds, TenThousandAARunsFalseAlarmsWithinAlphaAndFarFewerInconclusive) {
  const Rates single = simulate(0.0, kSequences, 11, false);
  const Rates plan = simulate(0.0, kSequences, 11, true);
  std::cout << describe("A/A, one look at 8 seeds", single) << "\n"
            << describe("A/A, Seeds(8).up_to(40)", plan) << "\n";
  EXPECT_LE(clopper_pearson(plan.regressions, kSequences).low, kAlpha);
  EXPECT_LE(plan.regressions, kSequences * kAlpha);
  EXPECT_GT(single.inconclusive, kSequences * 3 / 10);
  EXPECT_LT(plan.inconclusive, kSequences / 10);
  EXPECT_LT(plan.seeds, 40L * kSequences);  // it stops early most of the time
}

// A regression of 3 margins (2.5 pair sd): decided on the first block nearly always.
TEST(SequentialSeeds, AnInjectedRegressionIsCaughtMostlyOnTheFirstBlock) {
  const Rates plan = simulate(-0.03, 2000, 12, true);
  std::cout << describe("regression of 3 margins, Seeds(8).up_to(40)", plan)
            << fmt::format(", on the first block {:.1f}%\n",
                           100.0 * plan.first_block_regressions / plan.sequences);
  EXPECT_GT(plan.regressions, plan.sequences * 99 / 100);
  EXPECT_GT(plan.first_block_regressions, plan.sequences * 8 / 10);
}

// A run with many checks: Holm will need about alpha / m. A look whose sequential p-value lies
// between alpha / m and alpha must not settle the metric (the correction would demote it to
// INCONCLUSIVE with no seed left to run); it takes the next block. Planted: settling at alpha.
TEST(SequentialSeeds, ALookSettlesOnlyAtTheLevelHolmWillRequire) {
  World world{std::mt19937_64(21)};
  int settled_alone = 0, held_back = 0, later_regression = 0;
  for (int s = 0; s < 200; ++s) {
    const auto [candidate, baseline] = world.draw(-0.022);  // about 2 margins worse
    const auto alone = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                         baseline, kPlan, kAlpha);
    SequentialPlan in_family = kPlan;
    in_family.family = 20;
    const auto family = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                          baseline, in_family, kAlpha);
    for (const SequentialLook& look : family) {
      if (look.outcome == LookOutcome::kRegression) {
        EXPECT_LT(look.p_worse_sequential, kAlpha / 20);
      }
      EXPECT_DOUBLE_EQ(look.decision_level, kAlpha / 20);
    }
    if (alone.back().outcome != LookOutcome::kRegression) continue;
    ++settled_alone;
    // The same look in the family: its sequential p-value between alpha / 20 and alpha.
    ASSERT_GE(family.size(), alone.size());
    const SequentialLook& same_look = family[alone.size() - 1];
    if (same_look.p_worse_sequential >= kAlpha / 20) {
      ++held_back;
      EXPECT_NE(same_look.outcome, LookOutcome::kRegression);
      EXPECT_GT(family.size(), alone.size());  // the next block ran
      later_regression += family.back().outcome == LookOutcome::kRegression;
    }
  }
  std::cout << settled_alone << " regressions settled at alpha; " << held_back
            << " of them above alpha / 20 took more blocks, " << later_regression
            << " then settled below it\n";
  EXPECT_GT(held_back, 10);  // the case exists in this world
  EXPECT_GT(later_regression, held_back / 2);
  EXPECT_THAT(format_look(look_sequentially("accuracy", Direction::HigherIsBetter, kMargin,
                                            world.draw(-0.05).first, world.draw(-0.05).second,
                                            {.block = 8, .cap = 40, .family = 20}, kAlpha)
                              .back()),
              HasSubstr("= alpha / 20 hypotheses"));
}

// The PASS side of paired looks spends its 2.5% by the exact boundaries: the last look's interval
// is close to a single look's 95% (the union bound left it about half of the error), and a
// candidate worse by exactly the margin passes at most 2.5% of the time, paired and (by the union
// bound, which fresh seeds keep) against fresh seeds. Planted:
// the union bound's levels pass less often there: an error budget left unspent, paid for as
// INCONCLUSIVE by unchanged candidates.
TEST(SequentialSeeds, ThePassSideSpendsItsErrorExactly) {
  const std::vector<double> t = stats::information_fractions(sequential_looks(kPlan));
  const double last =
      1.0 - 2.0 * stats::t_nominal_p_thresholds(sequential_looks(kPlan), 0.025,
                                                stats::SpendingFunction::kOBrienFleming)
                      .back();
  const double union_last =
      1.0 - 2.0 * stats::spent_increments(t, 0.025, stats::SpendingFunction::kOBrienFleming).back();
  std::cout << fmt::format("last of five paired looks: {:.2f}% exact, {:.2f}% union bound\n",
                           100.0 * last, 100.0 * union_last);
  EXPECT_LT(last, 0.962);
  EXPECT_GT(union_last, 0.97);

  constexpr int kRuns = 20000;
  for (const bool paired : {true, false}) {
    std::mt19937_64 rng(paired ? 31 : 32);
    std::normal_distribution<double> noise(0.0, 1.0);
    int exact_passes = 0, union_passes = 0;
    for (int s = 0; s < kRuns; ++s) {
      const auto [baseline, candidate] = degraded_study(rng, noise, paired, 0.55);  // the margin
      SequentialPlan plan = kPlan;
      exact_passes +=
          look_sequentially("m", Direction::HigherIsBetter, 0.55, candidate, baseline, plan, kAlpha)
              .back()
              .outcome == LookOutcome::kPass;
      plan.exact_pass_boundaries = false;
      union_passes +=
          look_sequentially("m", Direction::HigherIsBetter, 0.55, candidate, baseline, plan, kAlpha)
              .back()
              .outcome == LookOutcome::kPass;
    }
    const test_support::RateInterval exact = clopper_pearson(exact_passes, kRuns);
    std::cout << fmt::format(
        "{}: P(PASS) at a degradation of the margin {:.2f}% [{:.2f}, {:.2f}] "
        "the gate's levels, {:.2f}% union bound\n",
        paired ? "paired" : "fresh", 100.0 * exact_passes / kRuns, 100.0 * exact.low,
        100.0 * exact.high, 100.0 * union_passes / kRuns);
    EXPECT_LE(exact.low, 0.025);
    if (paired) {
      EXPECT_GT(exact_passes, union_passes + kRuns / 200);  // the exact levels spend more
    } else {
      EXPECT_EQ(exact_passes, union_passes);  // fresh seeds keep the union bound
    }
  }
}

// Seeds(b).up_to(cap).pass_early(): the PASS error spent Pocock-type. A candidate worse by exactly
// the margin still passes at most 2.5% of the time, paired (exact boundaries) and fresh (union
// bound), by simulation. Planted: the peeking the spending replaces, a 95% interval at every
// look, which passes that candidate far more often; the simulation sees it.
TEST(SequentialSeeds, PassingEarlyKeepsThePassErrorWithinItsLevel) {
  constexpr int kRuns = 20000;
  for (const bool paired : {true, false}) {
    std::mt19937_64 rng(paired ? 41 : 42);
    std::normal_distribution<double> noise(0.0, 1.0);
    int passes = 0, peeking_passes = 0;
    SequentialPlan plan = kPlan;
    plan.pass_spending = stats::SpendingFunction::kPocock;
    for (int s = 0; s < kRuns; ++s) {
      const auto [baseline, candidate] = degraded_study(rng, noise, paired, 0.55);
      const auto looks = look_sequentially("m", Direction::HigherIsBetter, 0.55, candidate,
                                           baseline, plan, kAlpha);
      passes += looks.back().outcome == LookOutcome::kPass;
      for (const SequentialLook& look : looks) {
        EXPECT_EQ(look.pass_spending, stats::SpendingFunction::kPocock);
      }
      for (int n : sequential_looks(plan)) {
        SeedSamples cn = candidate, bn = baseline;
        cn.values.resize(n), cn.seeds.resize(n);
        if (paired) bn.values.resize(n), bn.seeds.resize(n);
        const DistributionAnalysis a =
            analyse_distribution("m", Direction::HigherIsBetter, 0.55, cn, bn);
        if (-a.ci_lower <= 0.55) {
          ++peeking_passes;
          break;
        }
      }
    }
    const test_support::RateInterval ci = clopper_pearson(passes, kRuns);
    std::cout << fmt::format(
        "{}, pass_early: P(PASS) at a degradation of the margin {:.2f}% [{:.2f}, {:.2f}]; a 95% "
        "interval at every look {:.2f}%\n",
        paired ? "paired" : "fresh", 100.0 * passes / kRuns, 100.0 * ci.low, 100.0 * ci.high,
        100.0 * peeking_passes / kRuns);
    EXPECT_LE(ci.low, 0.025);
    EXPECT_GT(clopper_pearson(peeking_passes, kRuns).low, 0.025);  // the planted peeking
  }
}

// The spending pass_early() chooses, look by look: the first of five paired looks may spend
// 2.5% · ln(1 + (e − 1)/5) of the PASS error (exactly, to the boundary), not O'Brien–Fleming's
// almost nothing, so its interval is far narrower.
TEST(SequentialSeeds, PassingEarlyNarrowsTheEarlyIntervals) {
  World world{std::mt19937_64(43)};
  const auto [candidate, baseline] = world.draw(0.0);
  SequentialPlan early = kPlan;
  early.pass_spending = stats::SpendingFunction::kPocock;
  const auto late_looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin,
                                            candidate, baseline, kPlan, kAlpha);
  const auto early_looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin,
                                             candidate, baseline, early, kAlpha);
  const double first_share = stats::alpha_spent(stats::SpendingFunction::kPocock, 0.025, 0.2);
  EXPECT_NEAR(first_share, 0.025 * std::log(1.0 + (std::exp(1.0) - 1.0) * 0.2), 1e-15);
  // The first look is one t test: its share exactly, up to the t boundaries' Monte Carlo error.
  EXPECT_NEAR(early_looks[0].pass_level, 1.0 - 2.0 * first_share, 5e-4);
  EXPECT_GT(late_looks[0].pass_level, 0.9999);
  EXPECT_LT(early_looks[0].interval_upper - early_looks[0].interval_lower,
            0.5 * (late_looks[0].interval_upper - late_looks[0].interval_lower));
  // The regression side is the same design either way.
  EXPECT_DOUBLE_EQ(early_looks[0].worse_weight, late_looks[0].worse_weight);
  EXPECT_DOUBLE_EQ(early_looks[0].p_worse_sequential, late_looks[0].p_worse_sequential);
  EXPECT_THAT(format_look(early_looks[0]),
              HasSubstr("; the PASS error is spent early (pass_early)"));
  EXPECT_THAT(format_look(late_looks[0]), ::testing::Not(HasSubstr("pass_early")));
}

// What pass_early() buys: on unchanged candidates (A/A) against fresh seeds, the median run
// stops at an earlier look, and no more of them are false REGRESSIONs. What it costs shows in
// INCONCLUSIVE at the cap (printed). Planted: a plan that ignored the option would take the same
// seeds.
TEST(SequentialSeeds, PassingEarlyLowersTheMedianSeedsOfUnchangedCandidates) {
  World world{std::mt19937_64(44)};
  world.seed_sd = 0.006;
  world.pair_sd = 0.0;  // fresh seeds below: the pairing is not used
  std::vector<int> late_seeds, early_seeds;
  int late_regressions = 0, early_regressions = 0, late_inconclusive = 0, early_inconclusive = 0;
  SequentialPlan early = kPlan;
  early.pass_spending = stats::SpendingFunction::kPocock;
  constexpr int kRuns = 4000;
  for (int s = 0; s < kRuns; ++s) {
    const SeedSamples baseline = world.draw(0.0, 200).second;
    const SeedSamples candidate = samples(world.draw(0.0, 40).second.values, 5000);
    const auto late = look_sequentially("accuracy", Direction::HigherIsBetter, 0.005, candidate,
                                        baseline, kPlan, kAlpha);
    const auto soon = look_sequentially("accuracy", Direction::HigherIsBetter, 0.005, candidate,
                                        baseline, early, kAlpha);
    late_seeds.push_back(late.back().seeds);
    early_seeds.push_back(soon.back().seeds);
    late_regressions += late.back().outcome == LookOutcome::kRegression;
    early_regressions += soon.back().outcome == LookOutcome::kRegression;
    late_inconclusive += late.back().outcome == LookOutcome::kContinue;
    early_inconclusive += soon.back().outcome == LookOutcome::kContinue;
  }
  const auto median = [](std::vector<int> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  std::cout << fmt::format(
      "A/A, fresh seeds against 200: median seeds {} (O'Brien–Fleming PASS) vs {} (pass_early); "
      "INCONCLUSIVE {:.1f}% vs {:.1f}%; REGRESSION {} vs {}\n",
      median(late_seeds), median(early_seeds), 100.0 * late_inconclusive / kRuns,
      100.0 * early_inconclusive / kRuns, late_regressions, early_regressions);
  EXPECT_LT(median(early_seeds), median(late_seeds));
  EXPECT_LE(early_regressions, late_regressions);
  EXPECT_LE(early_regressions, kRuns * kAlpha);
}

// The REGRESSION side of paired looks spends alpha exactly: each block's own t test, combined
// across blocks, against the exact boundaries. Unchanged candidates on the study's design with no
// margin to hide behind (every crossing is a REGRESSION) cross at alpha within the Monte Carlo
// error, alone (1%) and in a family of two (0.5%). Planted: the union bound over the t tests on
// all seeds so far (exact_regression_boundaries off), which leaves about a quarter of alpha
// unspent; and the z boundaries used as nominal levels of those t tests, which cross more often
// than they spend.
TEST(SequentialSeeds, TheRegressionSideSpendsAlphaExactly) {
  constexpr int kRuns = 40000;
  const SequentialPlan study{.block = 12, .cap = 52, .next_block = 8};
  const std::vector<int> looks = sequential_looks(study);
  const std::vector<double> t = stats::information_fractions(looks);
  const std::vector<double> z_levels =
      stats::nominal_p_thresholds(t, kAlpha, stats::SpendingFunction::kPocock);
  for (const int family : {1, 2}) {
    World world{std::mt19937_64(41 + family)};
    world.pair_sd = 0.004;
    SequentialPlan plan = study;
    plan.family = family;
    SequentialPlan union_plan = plan;
    union_plan.exact_regression_boundaries = false;
    int exact = 0, union_bound = 0, z_as_t = 0;
    for (int s = 0; s < kRuns; ++s) {
      const auto [candidate, baseline] = world.draw(0.0, 52);
      exact += look_sequentially("accuracy", Direction::HigherIsBetter, 0.0, candidate, baseline,
                                 plan, kAlpha)
                   .back()
                   .outcome == LookOutcome::kRegression;
      const auto union_looks = look_sequentially("accuracy", Direction::HigherIsBetter, 0.0,
                                                 candidate, baseline, union_plan, kAlpha);
      union_bound += union_looks.back().outcome == LookOutcome::kRegression;
      if (family == 1) {
        // The same looks' t tests on all seeds so far, at the z boundaries' nominal levels.
        for (std::size_t k = 0; k < union_looks.size(); ++k) {
          if (union_looks[k].analysis.p_worse < z_levels[k]) {
            ++z_as_t;
            break;
          }
        }
      }
    }
    const double level = kAlpha / family;
    const test_support::RateInterval ci = clopper_pearson(exact, kRuns);
    const test_support::RateInterval union_ci = clopper_pearson(union_bound, kRuns);
    std::cout << fmt::format(
        "A/A paired, 12 then 8 up to 52, level {:.2g}%: REGRESSION {:.3f}% [{:.3f}, {:.3f}] "
        "exact, {:.3f}% [{:.3f}, {:.3f}] union bound",
        100.0 * level, 100.0 * exact / kRuns, 100.0 * ci.low, 100.0 * ci.high,
        100.0 * union_bound / kRuns, 100.0 * union_ci.low, 100.0 * union_ci.high);
    if (family == 1)
      std::cout << fmt::format(", z levels on the t tests {:.3f}%", 100.0 * z_as_t / kRuns);
    std::cout << "\n";
    EXPECT_LE(ci.low, level);
    EXPECT_GE(ci.high, level);
    EXPECT_LT(union_ci.high, ci.low);  // the union bound leaves alpha unspent
    if (family == 1) EXPECT_GT(z_as_t, exact);
  }
}

// Exact boundaries buy power where the evidence, not the margin, is what is missing: a small drop
// with no margin is settled more often than by the union bound, on the same draws.
TEST(SequentialSeeds, ExactRegressionBoundariesSettleMoreRegressions) {
  constexpr int kRuns = 4000;
  constexpr double kShift = -0.005;  // 0.42 pair sd per seed: about 3 standard errors at 52 seeds
  World world{std::mt19937_64(47)};
  const SequentialPlan plan{.block = 12, .cap = 52, .next_block = 8};
  SequentialPlan union_plan = plan;
  union_plan.exact_regression_boundaries = false;
  int exact = 0, union_bound = 0;
  for (int s = 0; s < kRuns; ++s) {
    const auto [candidate, baseline] = world.draw(kShift, 52);
    exact += look_sequentially("accuracy", Direction::HigherIsBetter, 0.0, candidate, baseline,
                               plan, kAlpha)
                 .back()
                 .outcome == LookOutcome::kRegression;
    union_bound += look_sequentially("accuracy", Direction::HigherIsBetter, 0.0, candidate,
                                     baseline, union_plan, kAlpha)
                       .back()
                       .outcome == LookOutcome::kRegression;
  }
  std::cout << fmt::format(
      "a drop of {:.2f} pair sd per seed, no margin: REGRESSION {:.1f}% exact, {:.1f}% union "
      "bound\n",
      -kShift / 0.012, 100.0 * exact / kRuns, 100.0 * union_bound / kRuns);
  EXPECT_GT(exact, union_bound + kRuns / 100);
}

// A paired look records how it spent alpha: the combined statistics and the exact boundary, read
// back from results.json as written; a look written before the exact boundaries reads as union.
TEST(SequentialSeeds, ExactLooksRoundTripThroughResultsJson) {
  World world{std::mt19937_64(53)};
  const auto [candidate, baseline] = world.draw(-0.05, 52);
  const SequentialPlan plan{.block = 12, .cap = 52, .next_block = 8, .family = 3};
  const SequentialLook look = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin,
                                                candidate, baseline, plan, kAlpha)
                                  .back();
  ASSERT_TRUE(look.exact_regression);
  EXPECT_EQ(look.outcome, LookOutcome::kRegression);
  EXPECT_GE(look.z_worse, look.regression_boundary);
  EXPECT_THAT(format_look(look), HasSubstr("blocks combined: z "));
  nlohmann::json json = look;
  EXPECT_EQ(json.at("regression_boundaries"), "exact");
  const SequentialLook back = json.get<SequentialLook>();
  EXPECT_TRUE(back.exact_regression);
  EXPECT_DOUBLE_EQ(back.z_worse, look.z_worse);
  EXPECT_DOUBLE_EQ(back.z_better, look.z_better);
  EXPECT_DOUBLE_EQ(back.regression_boundary, look.regression_boundary);
  json["regression_boundaries"] = "exactly";  // a misspelt value is refused, not read as union
  EXPECT_THROW(json.get<SequentialLook>(), std::runtime_error);
  json.erase("regression_boundaries");
  json.erase("z_worse");
  EXPECT_FALSE(json.get<SequentialLook>().exact_regression);
  // Fresh seeds keep the union bound and say so.
  const auto fresh = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin,
                                       samples(candidate.values, 1000), baseline, plan, kAlpha);
  EXPECT_FALSE(fresh.back().exact_regression);
  EXPECT_EQ(nlohmann::json(fresh.back()).at("regression_boundaries"), "union");
}

// The sequential p-value is a p-value: under A/A, P(p_seq <= u) <= u, whatever the stopping.
TEST(SequentialSeeds, TheSequentialPValueIsValidForHolm) {
  World world{std::mt19937_64(13)};
  int below = 0;
  const double u = 0.05;
  for (int s = 0; s < kSequences; ++s) {
    const auto [candidate, baseline] = world.draw(0.0);
    const auto looks = look_sequentially("accuracy", Direction::HigherIsBetter, kMargin, candidate,
                                         baseline, kPlan, u);
    below += looks.back().p_worse_sequential <= u;
  }
  std::cout << "P(p_seq <= 0.05) under A/A: " << below << " of " << kSequences << "\n";
  EXPECT_LE(clopper_pearson(below, kSequences).low, u);
}

// The mistake the plan prevents: the single-look rule applied at every block, stopping at the
// first REGRESSION.
TEST(SequentialSeeds, PeekingWithTheSingleLookRuleRaisesFalseAlarms) {
  World world{std::mt19937_64(14)};
  world.pair_sd = 0.004;  // a tight metric: the margin no longer hides the peeking
  const double margin = 0.0;
  int alarms = 0;
  for (int s = 0; s < kSequences; ++s) {
    const auto [candidate, baseline] = world.draw(0.0);
    for (int n : sequential_looks(kPlan)) {
      SeedSamples c = candidate, b = baseline;
      c.values.resize(n), c.seeds.resize(n), b.values.resize(n), b.seeds.resize(n);
      const std::vector<DistributionAnalysis> one = {
          analyse_distribution("accuracy", Direction::HigherIsBetter, margin, c, b)};
      if (decide_gate(one, kAlpha)[0].verdict == Verdict::kRegression) {
        ++alarms;
        break;
      }
    }
  }
  std::cout << "peeking at every block: " << alarms << " false alarms in " << kSequences << "\n";
  EXPECT_GT(clopper_pearson(alarms, kSequences).low, kAlpha);
}

}  // namespace
}  // namespace mlregress::internal
