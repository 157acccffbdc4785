// Wald's bound on the expected seeds of a sequential test, against values computed by hand from
// the formula (python3, math.log only):
//   kl = lambda p, q: p*log(p/q) + (1-p)*log((1-p)/(1-q))
//   kl(1-a, b) / (d*d/2), kl(1-b, a) / (d*d/2)
//   a 0.01,  b 0.2,  d 0.5:  12.31658747574443,  25.485950339383884  (the figures of the issue
//                            that asked for the bound: 12.3 and 25.5)
//   a 0.05,  b 0.1,  d 1.0:   3.9884172415627233, 4.752410804491798
//   a 0.005, b 0.2,  d 1.2:   2.1819824648351864, 5.1934083028679865
// and by hand for the first: kl(0.99, 0.2) = 0.99 ln 4.95 + 0.01 ln 0.0125 = 1.58340 - 0.04382
// = 1.53958, / 0.125 = 12.317. Planted: kl with its arguments swapped, and d in place of d^2/2.
//
// The bound between the hypotheses, by brute force (python3, no bisection: the minimum over a grid
// of 400,000 values of p of max(kl(p, a) / (t*t/2), kl(1-p, b) / ((d-t)^2/2)), each term 0 where
// p <= a, resp. 1 - p <= b; grid error below 2e-4):
//   a 0.05,  b 0.1, d 1.0,   t 0.5:     5.240978204604876
//   a 0.005, b 0.2, d 0.915, t 0.4575:  6.929042942996576
//   a 0.01,  b 0.2, d 0.5,   t 0.25:   21.05936379650865
// and its largest value over t, by brute force over t in steps of d / 20000 (bisection over p):
//   a 0.01,  b 0.2, d 0.5:    25.550124339410363 at t 0.4758
//   a 0.005, b 0.2, d 0.915:   8.936170605268703 at t 0.8986
//   a 0.05,  b 0.1, d 1.0:     5.304562644028107 at t 0.6248
#include "statistics/sequential_bound.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace mlregress::internal::stats {
namespace {

constexpr double kTolerance = 1e-12;

TEST(SequentialBound, MatchesValuesDerivedIndependently) {
  struct Case {
    double alpha, beta, d, h0, h1;
  };
  const Case cases[] = {{0.01, 0.2, 0.5, 12.31658747574443, 25.485950339383884},
                        {0.05, 0.1, 1.0, 3.9884172415627233, 4.752410804491798},
                        {0.005, 0.2, 1.2, 2.1819824648351864, 5.1934083028679865}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "alpha=" << c.alpha << " beta=" << c.beta << " d=" << c.d);
    const ExpectedSeedsBound bound = wald_expected_seeds(c.alpha, c.beta, c.d);
    EXPECT_NEAR(bound.h0, c.h0, kTolerance * c.h0);
    EXPECT_NEAR(bound.h1, c.h1, kTolerance * c.h1);
  }
}

TEST(SequentialBound, TheIssuesFiguresRoundedAsPrinted) {
  const ExpectedSeedsBound bound = wald_expected_seeds(0.01, 0.2, 0.5);
  EXPECT_NEAR(bound.h0, 12.3, 0.05);
  EXPECT_NEAR(bound.h1, 25.5, 0.05);
}

TEST(SequentialBound, SwappingTheErrorsSwapsTheHypotheses) {
  // kl(1 - a, b) at (a, b) is kl(1 - b', a') at (a', b') = (b, a): the bound under no change with
  // the errors exchanged is the bound at the shift.
  for (const double alpha : {0.001, 0.01, 0.05, 0.3}) {
    for (const double beta : {0.05, 0.2, 0.5}) {
      const ExpectedSeedsBound forward = wald_expected_seeds(alpha, beta, 0.7);
      const ExpectedSeedsBound swapped = wald_expected_seeds(beta, alpha, 0.7);
      EXPECT_NEAR(forward.h0, swapped.h1, 1e-12 * forward.h0);
      EXPECT_NEAR(forward.h1, swapped.h0, 1e-12 * forward.h1);
    }
  }
}

TEST(SequentialBound, ScalesWithOneOverDSquared) {
  const ExpectedSeedsBound at_one = wald_expected_seeds(0.01, 0.2, 1.0);
  const ExpectedSeedsBound at_half = wald_expected_seeds(0.01, 0.2, 0.5);
  EXPECT_NEAR(at_half.h0, 4.0 * at_one.h0, 1e-12 * at_half.h0);
  EXPECT_NEAR(at_half.h1, 4.0 * at_one.h1, 1e-12 * at_half.h1);
}

TEST(SequentialBound, BinaryKlIsZeroOnlyAtEqualArguments) {
  EXPECT_EQ(binary_kl(0.3, 0.3), 0.0);
  EXPECT_GT(binary_kl(0.3, 0.31), 0.0);
  // kl(p, q) = kl(1 - p, 1 - q): the same divergence with the outcomes renamed.
  EXPECT_NEAR(binary_kl(0.99, 0.2), binary_kl(0.01, 0.8), 1e-15);
  EXPECT_NEAR(binary_kl(0.99, 0.2), 1.5395734344680538, 1e-12);
}

TEST(SequentialBound, PlantedSwappedKlArgumentsGiveOtherValues) {
  // kl(b, 1 - a) instead of kl(1 - a, b): 25.49 instead of 12.32 at the issue's figures, so the
  // first test would catch it.
  const double planted_h0 = binary_kl(0.2, 0.99) / (0.5 * 0.5 / 2.0);
  EXPECT_NEAR(planted_h0, 25.485950339383884, 1e-9);
  EXPECT_GT(std::abs(planted_h0 - wald_expected_seeds(0.01, 0.2, 0.5).h0), 10.0);
  // kl(1 - a, b) with the arguments swapped is kl(b, 1 - a): not symmetric in its arguments.
  EXPECT_GT(std::abs(binary_kl(0.99, 0.2) - binary_kl(0.2, 0.99)), 1.0);
}

TEST(SequentialBound, PlantedDInPlaceOfItsSquareOverTwoGivesOtherValues) {
  // Dividing by d (0.5) instead of d^2 / 2 (0.125): a quarter of the bound.
  const double planted_h0 = binary_kl(0.99, 0.2) / 0.5;
  EXPECT_LT(planted_h0, 0.3 * wald_expected_seeds(0.01, 0.2, 0.5).h0);
}

TEST(SequentialBound, BetweenTheHypothesesMatchesABruteForceMinimum) {
  struct Case {
    double alpha, beta, d, theta, seeds;
  };
  const Case cases[] = {{0.05, 0.1, 1.0, 0.5, 5.240978204604876},
                        {0.005, 0.2, 0.915, 0.4575, 6.929042942996576},
                        {0.01, 0.2, 0.5, 0.25, 21.05936379650865}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "alpha=" << c.alpha << " theta=" << c.theta);
    EXPECT_NEAR(expected_seeds_bound_at(c.alpha, c.beta, c.d, c.theta), c.seeds, 5e-4);
  }
}

TEST(SequentialBound, BetweenTheHypothesesMeetsWaldsBoundAtTheEnds) {
  const ExpectedSeedsBound wald = wald_expected_seeds(0.005, 0.2, 0.915);
  EXPECT_EQ(expected_seeds_bound_at(0.005, 0.2, 0.915, 0.0), wald.h0);
  EXPECT_EQ(expected_seeds_bound_at(0.005, 0.2, 0.915, 0.915), wald.h1);
  // And tends to them: the bound is continuous at the ends.
  EXPECT_NEAR(expected_seeds_bound_at(0.005, 0.2, 0.915, 1e-6), wald.h0, 1e-3 * wald.h0);
  EXPECT_NEAR(expected_seeds_bound_at(0.005, 0.2, 0.915, 0.915 - 1e-6), wald.h1, 1e-3 * wald.h1);
}

TEST(SequentialBound, WorstCaseMatchesABruteForceMaximum) {
  struct Case {
    double alpha, beta, d, seeds, theta;
  };
  const Case cases[] = {{0.01, 0.2, 0.5, 25.550124339410363, 0.4758},
                        {0.005, 0.2, 0.915, 8.936170605268703, 0.8986},
                        {0.05, 0.1, 1.0, 5.304562644028107, 0.6248}};
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "alpha=" << c.alpha << " d=" << c.d);
    const WorstCaseSeedsBound worst = worst_case_expected_seeds(c.alpha, c.beta, c.d);
    EXPECT_NEAR(worst.seeds, c.seeds, 1e-6 * c.seeds);
    EXPECT_NEAR(worst.theta, c.theta, 2e-3);
    // Never below Wald's bounds at the ends: they are two of the shifts it maximises over.
    const ExpectedSeedsBound wald = wald_expected_seeds(c.alpha, c.beta, c.d);
    EXPECT_GE(worst.seeds, std::max(wald.h0, wald.h1));
  }
}

TEST(SequentialBound, AnErrorThatIsNotExactlyRepresentableGivesTheSameWorstCase) {
  // 1 - 0.8 is 0.19999999999999996, not 0.2: near theta = d the crossing's last ulp was divided by
  // an information close to 0, and this shift (the seed-floor benchmark's, once) read 40 seeds.
  const double d = 0.85299746319713898;
  const WorstCaseSeedsBound exact = worst_case_expected_seeds(0.005, 0.2, d);
  const WorstCaseSeedsBound computed = worst_case_expected_seeds(0.01 / 2, 1.0 - 0.8, d);
  EXPECT_NEAR(computed.seeds, exact.seeds, 1e-9 * exact.seeds);
  EXPECT_NEAR(exact.seeds, 10.2825, 1e-4);
  for (double theta = 0.5 * d; theta < d; theta += 1e-3 * d) {
    EXPECT_NEAR(expected_seeds_bound_at(0.005, 1.0 - 0.8, d, theta),
                expected_seeds_bound_at(0.005, 0.2, d, theta), 1e-6 * exact.seeds)
        << theta;
  }
}

TEST(SequentialBound, WorstCaseTakesAnyShift) {
  // d * step / steps can round past d at the last grid point; every d must still give a bound
  // at least Wald's at the shift.
  for (double d = 0.1; d < 3.0; d += 0.0137) {
    const WorstCaseSeedsBound worst = worst_case_expected_seeds(0.005, 0.2, d);
    EXPECT_GE(worst.seeds, wald_expected_seeds(0.005, 0.2, d).h1 * (1 - 1e-12)) << d;
    EXPECT_LE(worst.theta, d) << d;
  }
}

TEST(SequentialBound, PlantedWorstCaseThatOnlyLooksAtTheEnds) {
  // max(h0, h1) alone misses the middle: at alpha 0.05, beta 0.1, d 1 the worst case is 5.30,
  // 12% above Wald's 4.75 at the shift.
  const ExpectedSeedsBound wald = wald_expected_seeds(0.05, 0.1, 1.0);
  const double planted = std::max(wald.h0, wald.h1);
  EXPECT_GT(worst_case_expected_seeds(0.05, 0.1, 1.0).seeds, 1.1 * planted);
}

TEST(SequentialBound, PercentileFloorMatchesValuesDerivedIndependently) {
  struct Case {
    double alpha, beta, d, q;
    int h0, h1;
  };
  for (const Case& c : {Case{0.01 / 3, 0.2, 0.8, 0.95, 10, 18}, Case{0.01, 0.2, 0.5, 0.95, 23, 37},
                        Case{0.005, 0.2, 0.876, 0.95, 8, 14}, Case{0.05, 0.1, 1.0, 0.9, 6, 7}}) {
    const PercentileSeedsBound floor = percentile_seeds_bound(c.alpha, c.beta, c.d, c.q);
    EXPECT_EQ(floor.h0, c.h0) << c.alpha << " " << c.d;
    EXPECT_EQ(floor.h1, c.h1) << c.alpha << " " << c.d;
  }
}

// Against a baseline mean of m seeds (values derived by hand: with s = z(1 - beta) + z(q - alpha),
// n >= 1 / ((d / s)^2 - 1 / m); at alpha 0.005, beta 0.2, q 0.95, s = 0.84162 + 1.59819 =
// 2.43981): d 0.793, m 52: 1 / (0.105640 - 0.019231) = 11.57 -> 12; d 0.726, m 260:
// 1 / (0.088545 - 0.003846) = 11.81 -> 12; d 0.3, m 52: (d / s)^2 = 0.015119 below 1 / 52, no n.
// Planted: leaving the reference out (m 0) gives 10 for the first.
TEST(SequentialBound, PercentileFloorAgainstABaselineMeanCountsItsError) {
  EXPECT_EQ(percentile_seeds_bound(0.005, 0.2, 0.793, 0.95, 52).h0, 12);
  EXPECT_EQ(percentile_seeds_bound(0.005, 0.2, 0.793, 0.95).h0, 10);
  EXPECT_EQ(percentile_seeds_bound(0.005, 0.2, 0.726, 0.95, 260).h0, 12);
  EXPECT_EQ(percentile_seeds_bound(0.005, 0.2, 0.3, 0.95, 52).h0, kNoSeedsSuffice);
  EXPECT_GT(percentile_seeds_bound(0.005, 0.2, 0.793, 0.95, 52).h1,
            percentile_seeds_bound(0.005, 0.2, 0.793, 0.95).h1);
  EXPECT_THROW(percentile_seeds_bound(0.005, 0.2, 0.793, 0.95, -1), std::invalid_argument);
}

TEST(SequentialBound, PlantedFixedSampleSizeIsNotThePercentileFloor) {
  // ((z(0.99667) + z(0.8)) / 0.8)^2 = 19.7: a test that must decide by n every time.
  EXPECT_EQ(percentile_seeds_bound(0.01 / 3, 0.2, 0.8, 0.95).h1, 18);
  EXPECT_NE(percentile_seeds_bound(0.01 / 3, 0.2, 0.8, 0.95).h1, 20);
  // As q approaches 1 (a test that decides within n seeds every time) the floor becomes the
  // fixed-sample size.
  EXPECT_EQ(percentile_seeds_bound(0.01 / 3, 0.2, 0.8, 0.999999).h1, 20);
}

TEST(SequentialBound, PercentileFloorGrowsWithTheShareAndFallsWithTheShift) {
  const PercentileSeedsBound p90 = percentile_seeds_bound(0.01, 0.2, 0.5, 0.90);
  const PercentileSeedsBound p95 = percentile_seeds_bound(0.01, 0.2, 0.5, 0.95);
  const PercentileSeedsBound wider = percentile_seeds_bound(0.01, 0.2, 1.0, 0.95);
  EXPECT_LT(p90.h1, p95.h1);
  EXPECT_LT(p90.h0, p95.h0);
  EXPECT_LT(wider.h1, p95.h1);
  EXPECT_LT(wider.h0, p95.h0);
}

TEST(SequentialBound, RejectsBadArguments) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_THROW(wald_expected_seeds(0.0, 0.2, 0.5), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(1.0, 0.2, 0.5), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, 0.0, 0.5), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, 1.2, 0.5), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, 0.2, 0.0), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, 0.2, -1.0), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(nan, 0.2, 0.5), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, nan, 0.5), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, 0.2, nan), std::invalid_argument);
  EXPECT_THROW(wald_expected_seeds(0.01, 0.2, inf), std::invalid_argument);
  EXPECT_THROW(binary_kl(0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(expected_seeds_bound_at(0.01, 0.2, 0.5, -0.1), std::invalid_argument);
  EXPECT_THROW(expected_seeds_bound_at(0.01, 0.2, 0.5, 0.6), std::invalid_argument);
  EXPECT_THROW(expected_seeds_bound_at(0.01, 0.2, 0.5, nan), std::invalid_argument);
  EXPECT_THROW(worst_case_expected_seeds(0.01, 0.2, 0.0), std::invalid_argument);
  EXPECT_THROW(percentile_seeds_bound(0.01, 0.2, 0.5, 0.2), std::invalid_argument);
  EXPECT_THROW(percentile_seeds_bound(0.01, 0.2, 0.5, 1.0), std::invalid_argument);
  EXPECT_THROW(percentile_seeds_bound(0.01, 0.2, 0.5, nan), std::invalid_argument);
  EXPECT_THROW(percentile_seeds_bound(0.01, 0.2, 0.0, 0.95), std::invalid_argument);
  try {
    wald_expected_seeds(0.01, 0.2, -1.0);
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("d (the shift"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace mlregress::internal::stats
