// The anytime-valid confidence sequence: its e-value against the Bayes factor integrated
// numerically (noncentral t likelihood under δ ~ N(0, g) over the central t), and by simulation
// of 10,000 A/A sequences looked at after every block of 8 up to 200 values (paired, and fresh
// values against a fixed baseline of 40): false REGRESSION at or below alpha and PASS error at or
// below 2.5% when the true degradation is the margin (Clopper–Pearson 95% intervals), while a
// fixed t interval checked at every look — the peeking the sequence exists to allow — is caught
// exceeding its level.
#include "statistics/confidence_sequence.h"

#include <gtest/gtest.h>

#include <boost/math/distributions/non_central_t.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <random>
#include <vector>

#include "tests/support/clopper_pearson.h"

namespace mlregress::internal::stats {
namespace {

constexpr int kSequences = 10'000;
constexpr int kBlock = 8;
constexpr int kAtMost = 200;
constexpr int kBaselineSeeds = 40;
constexpr double kAlpha = 0.05;
constexpr double kPassError = 0.025;

// The Bayes factor by its definition: the marginal density of t when δ ~ N(0, g) (t | δ is
// noncentral t with ν = n − 1 and noncentrality δ√n) over its density under δ = 0.
double integrated_bayes_factor(double t, int n, double g) {
  const double nu = n - 1;
  const boost::math::students_t central(nu);
  double marginal = 0.0;
  const double step = 1e-3, limit = 10.0 * std::sqrt(g);
  for (double delta = -limit; delta <= limit; delta += step) {
    const double prior = std::exp(-delta * delta / (2 * g)) / std::sqrt(2 * M_PI * g);
    const double likelihood =
        delta == 0.0 ? boost::math::pdf(central, t)
                     : boost::math::pdf(boost::math::non_central_t(nu, delta * std::sqrt(n)), t);
    marginal += prior * likelihood * step;
  }
  return marginal / boost::math::pdf(central, t);
}

TEST(ConfidenceSequence, EValueIsTheBayesFactorOfTheNormalPriorOnTheEffect) {
  for (const auto& [t, n] : std::vector<std::pair<double, int>>{{0.0, 5}, {2.0, 8}, {3.0, 16}}) {
    const double expected = integrated_bayes_factor(t, n, 1.0);
    EXPECT_NEAR(t_e_value(t, n, 1.0), expected, 1e-4 * expected) << "t=" << t << " n=" << n;
  }
  // Hand-computed: n = 10, t = 3, g = 1: 11^(−1/2) · (2 / (12/11))^5 = 6.2446.
  EXPECT_NEAR(t_e_value(3.0, 10, 1.0), 6.2446, 1e-3);
  EXPECT_THROW(t_e_value(1.0, 1.5, 1.0), std::invalid_argument);
}

TEST(ConfidenceSequence, RadiusSolvesTheEValueEquationAndIsInfiniteForTooFewValues) {
  const double r = confidence_sequence_radius(16, 0.05);
  EXPECT_NEAR(t_e_value(r, 16), 20.0, 1e-6);
  // (1 + n g)^(ν/2) = 3^(1/2) < 20: two values cannot reach a 95% set.
  EXPECT_TRUE(std::isinf(confidence_sequence_radius(2, 0.05)));
  // Wider than the fixed t interval at the same level (the price of peeking at will).
  EXPECT_GT(r, boost::math::quantile(boost::math::students_t(15), 0.975));
}

struct Summary {
  double mean = 0, sd = 0;
  int n = 0;
};

// Running mean and sd of a growing sequence (Welford).
class Running {
 public:
  void add(double x) {
    ++n_;
    const double d = x - mean_;
    mean_ += d / n_;
    m2_ += d * (x - mean_);
  }
  Summary summary() const { return {mean_, std::sqrt(m2_ / (n_ - 1)), n_}; }

 private:
  int n_ = 0;
  double mean_ = 0, m2_ = 0;
};

// The set a rule reports at a look: from the candidate's values so far, and the fixed baseline
// arm's summary (nullptr for paired differences).
using SetAtLook = std::function<ConfidenceInterval(const Summary& values, const Summary* baseline)>;

// The product's confidence sequence at error a: paired, or fresh values against a fixed baseline.
SetAtLook confidence_sequence_at(double a) {
  return [a](const Summary& v, const Summary* b) {
    return b == nullptr
               ? mean_confidence_sequence(v.mean, v.sd, v.n, a)
               : difference_confidence_sequence(v.mean, v.sd, v.n, b->mean, b->sd, b->n, a);
  };
}

// How many of kSequences sequences of N(shift, 1) values ever have their lower (or, for PASS,
// upper) end past the threshold at a look after every block, the sets intersected over looks.
enum class Side { kLowerAbove, kUpperBelow };
int sequences_crossing(double shift, double threshold, Side side, const SetAtLook& set_at,
                       bool independent, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> noise(0.0, 1.0);
  int crossed = 0;
  for (int s = 0; s < kSequences; ++s) {
    Summary baseline;
    if (independent) {
      Running arm;
      for (int i = 0; i < kBaselineSeeds; ++i) arm.add(noise(rng));
      baseline = arm.summary();
    }
    Running values;
    double lower = -INFINITY, upper = INFINITY;
    for (int n = 1; n <= kAtMost; ++n) {
      values.add(shift + noise(rng));
      if (n % kBlock != 0) continue;
      const ConfidenceInterval set = set_at(values.summary(), independent ? &baseline : nullptr);
      lower = std::max(lower, set.lower);
      upper = std::min(upper, set.upper);
      if (side == Side::kLowerAbove ? lower > threshold : upper < threshold) {
        ++crossed;
        break;
      }
    }
  }
  return crossed;
}

// The check the gates' simulations make: the measured rate is at most the level, and the level
// is not below the rate's Clopper–Pearson interval (an honest rate, not one near 0 by accident).
testing::AssertionResult rate_within(int hits, double level) {
  const auto ci = test_support::clopper_pearson(hits, kSequences);
  const double rate = static_cast<double>(hits) / kSequences;
  std::printf("rate %.4f (95%% CI %.4f..%.4f), level %.4f\n", rate, ci.low, ci.high, level);
  if (rate <= level && ci.low < level) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "rate " << rate << " (95% CI " << ci.low << ".." << ci.high
                                     << ") exceeds the level " << level;
}

TEST(ConfidenceSequence, PairedAASequencesFalselyRegressAtMostAlpha) {
  const int hits =
      sequences_crossing(0.0, 0.0, Side::kLowerAbove, confidence_sequence_at(kAlpha), false, 1);
  EXPECT_TRUE(rate_within(hits, kAlpha));
}

TEST(ConfidenceSequence, IndependentAASequencesFalselyRegressAtMostAlpha) {
  const int hits =
      sequences_crossing(0.0, 0.0, Side::kLowerAbove, confidence_sequence_at(kAlpha), true, 2);
  EXPECT_TRUE(rate_within(hits, kAlpha));
}

// The planted peeking bug: a fixed 95% t interval (and a 99% one) checked at every look.
TEST(ConfidenceSequence, AFixedTIntervalAtEveryLookIsCaughtExceedingItsLevel) {
  for (const double level : {0.95, 0.99}) {
    const SetAtLook fixed = [level](const Summary& v, const Summary*) {
      const double half = t_quantile(0.5 + level / 2, v.n - 1) * v.sd / std::sqrt(v.n);
      return ConfidenceInterval{v.mean - half, v.mean + half, level};
    };
    const int hits = sequences_crossing(0.0, 0.0, Side::kLowerAbove, fixed, false, 1);
    EXPECT_FALSE(rate_within(hits, 1 - level)) << "level " << level;
  }
}

TEST(ConfidenceSequence, PassErrorAtTheMarginIsAtMostTwoAndAHalfPercent) {
  constexpr double kMargin = 0.5;  // in units of the seed-to-seed sd
  const int paired = sequences_crossing(kMargin, kMargin, Side::kUpperBelow,
                                        confidence_sequence_at(kPassError), false, 3);
  EXPECT_TRUE(rate_within(paired, kPassError));
  const int independent = sequences_crossing(kMargin, kMargin, Side::kUpperBelow,
                                             confidence_sequence_at(kPassError), true, 4);
  EXPECT_TRUE(rate_within(independent, kPassError));
}

TEST(ConfidenceSequence, ALargeRegressionIsCaughtAtTheFirstLook) {
  // Eight paired differences of mean 3 sd: the 95% set already lies above 0.
  const auto set = mean_confidence_sequence(3.0, 1.0, 8, kAlpha);
  EXPECT_GT(set.lower, 0.0);
  EXPECT_LT(paired_anytime_p_value(3.0, 1.0, 8), kAlpha);
  EXPECT_LT(independent_anytime_p_value(3.0, 1.0, 8, 0.0, 1.0, kBaselineSeeds), kAlpha);
  EXPECT_EQ(paired_anytime_p_value(-3.0, 1.0, 8), 1.0);
}

TEST(ConfidenceSequence, TheRunningIntersectionCoversTheTruth) {
  std::mt19937_64 rng(5);
  std::normal_distribution<double> noise(1.25, 2.0);
  Running values;
  ConfidenceInterval running{-INFINITY, INFINITY, 0.95};
  for (int n = 1; n <= kAtMost; ++n) {
    values.add(noise(rng));
    if (n % kBlock != 0) continue;
    const auto v = values.summary();
    running = intersect(running, mean_confidence_sequence(v.mean, v.sd, n, kAlpha));
    EXPECT_LE(running.lower, 1.25);
    EXPECT_GE(running.upper, 1.25);
  }
  EXPECT_LT(running.upper - running.lower, 1.5);  // and it narrows
}

TEST(ConfidenceSequence, IndependentPValueIsTheLevelAtWhichTheSetTouchesZero) {
  const double p = independent_anytime_p_value(1.0, 1.0, 40, 0.0, 1.0, 40);
  ASSERT_GT(p, 0.0);
  ASSERT_LT(p, 1.0);
  EXPECT_NEAR(difference_confidence_sequence(1.0, 1.0, 40, 0.0, 1.0, 40, p).lower, 0.0, 1e-6);
}

}  // namespace
}  // namespace mlregress::internal::stats
