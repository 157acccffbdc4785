// Power and the minimum detectable effect against scipy.stats.nct (itself checked by numerical
// integration in generate_vectors.py) and brentq. Planted: the normal approximation
// (z_{1-alpha} + z_power) · se promises effects that few seeds cannot detect.
#include "statistics/power.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "statistics/t_distribution.h"
#include "vector_names.h"

namespace mlregress::internal::stats {
namespace {

// SciPy 1.10's nct wraps Boost.Math as well (observed agreement ~1e-15); the generator checks
// every value against numerical integration to 1e-7, so these vectors are not Boost checking
// itself. The root finder stops at 2^-49 relative in the non-centrality.
constexpr double kTolerance = test_vectors::kRelativeTolerance;

TEST(Power, NonCentralTTailMatchesScipy) {
  MaxError error("nct.sf");
  for (const auto& c : vectors().at("nct_sf")) {
    const double x = number(c.at("x"));
    const double df = number(c.at("df"));
    const double ncp = number(c.at("ncp"));
    SCOPED_TRACE(::testing::Message() << "x=" << x << " df=" << df << " ncp=" << ncp);
    EXPECT_LE(error.add(noncentral_t_sf(x, df, ncp), number(c.at("sf"))), kTolerance);
  }
}

TEST(Power, MinimumDetectableEffectMatchesScipy) {
  MaxError error("minimum_detectable_effect");
  MaxError power_error("power_at_mde");
  for (const auto& c : vectors().at("minimum_detectable_effect")) {
    const auto n = c.at("n").get<std::size_t>();
    const double alpha = number(c.at("alpha"));
    const double power = number(c.at("power"));
    const double sd = number(c.at("sd"));
    const bool paired = c.at("paired").get<bool>();
    SCOPED_TRACE(::testing::Message() << "n=" << n << " alpha=" << alpha << " power=" << power
                                      << (paired ? " paired" : " two-sample"));
    const double mde = paired ? minimum_detectable_effect_paired(n, sd, alpha, power)
                              : minimum_detectable_effect(n, sd, alpha, power);
    EXPECT_LE(error.add(mde, number(c.at("mde"))), kTolerance);
    if (!paired) {
      EXPECT_LE(power_error.add(two_sample_power(mde, n, sd, alpha), power), kTolerance);
    }
  }
}

TEST(Power, PlantedNormalApproximationUnderstatesTheDetectableEffect) {
  // n = 3 per arm, alpha = 0.01, 80 % power: the t-based effect is 1.5x the normal one.
  const double sd = 1.0;
  const double se = sd * std::sqrt(2.0 / 3.0);
  const double z_alpha = 2.3263478740408408;  // Phi^-1(0.99)
  const double z_power = 0.8416212335729143;  // Phi^-1(0.80)
  const double normal = (z_alpha + z_power) * se;
  const double exact = minimum_detectable_effect(3, sd, 0.01, 0.8);
  EXPECT_GT(exact / normal, 1.4);
  // At the normal approximation's effect the real power is far below the promise.
  EXPECT_LT(two_sample_power(normal, 3, sd, 0.01), 0.5);
}

TEST(Power, PromotionSentence) {
  // Two arms of 8 seeds, sd 0.009: 0.01582 rounds up to 0.016.
  EXPECT_EQ(detectable_effect_sentence(8, 0.009, 0.01, 0.8, Direction::HigherIsBetter),
            "with n=8 and sd=0.009, a drop of >=0.016 is detected with 80% power at alpha=0.01");
  EXPECT_EQ(detectable_effect_sentence(20, 0.25, 0.05, 0.9, Direction::LowerIsBetter),
            "with n=20 and sd=0.25, a rise of >=0.24 is detected with 90% power at alpha=0.05");
  EXPECT_EQ(detectable_effect_sentence(5, 120.0, 0.01, 0.8, Direction::LowerIsBetter),
            "with n=5 and sd=120, a rise of >=300 is detected with 80% power at alpha=0.01");
  EXPECT_THROW(detectable_effect_sentence(8, 0.009, 0.01, 0.8, Direction::MustEqual),
               std::invalid_argument);
}

TEST(Power, RejectsMeaninglessBudgets) {
  EXPECT_THROW(minimum_detectable_effect(1, 1.0, 0.01, 0.8), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_effect(5, 0.0, 0.01, 0.8), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_effect(5, 1.0, 0.5, 0.4), std::invalid_argument);
  EXPECT_THROW(minimum_detectable_effect(5, 1.0, 0.01, 1.0), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal::stats
