#include "mlregress/checks/clip_threshold.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "mlregress/checks/gradient_norm_monitor.h"

namespace mlregress::checks {
namespace {

using ::testing::HasSubstr;

// 300 healthy norms, 1.0 to 2.0 in a fixed shuffle (p99 about 1.99), the first 10 of them
// ten times larger (the start of a run is not typical).
std::vector<double> healthy_norms() {
  std::vector<double> norms;
  for (int i = 0; i < 300; ++i) norms.push_back(1.0 + static_cast<double>((i * 37) % 300) / 299.0);
  for (int i = 0; i < 10; ++i) norms[static_cast<std::size_t>(i)] *= 10.0;
  return norms;
}

TEST(ClipThreshold, SuggestionIsTheHighQuantileOfHealthySteps) {
  const std::optional<ClipSuggestion> s = suggest_clip_threshold(healthy_norms());
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->healthy_steps, 290);
  EXPECT_EQ(s->excluded_steps, 0);
  EXPECT_GT(s->threshold, 1.95);
  EXPECT_LE(s->threshold, 2.0) << "the first 10 steps (up to 20) are skipped";
  EXPECT_NEAR(s->median_norm, 1.5, 0.01);
  EXPECT_THAT(s->rule, HasSubstr("p99 of 290 healthy steps x 1 (skipped 10, excluded 0)"));
}

// Planted: three spikes (100x) and a NaN among the healthy steps. They are left out, so the
// threshold stays where the healthy norms put it, at or above their own p99.
TEST(ClipThreshold, SpikesAndNonFiniteNormsAreExcluded) {
  std::vector<double> norms = healthy_norms();
  for (const std::size_t at : {50U, 150U, 250U}) norms[at] = 100.0 * norms[at];
  norms[200] = std::numeric_limits<double>::quiet_NaN();
  const std::optional<ClipSuggestion> s = suggest_clip_threshold(norms);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->excluded_steps, 4);
  EXPECT_EQ(s->healthy_steps, 286);
  EXPECT_LE(s->threshold, 2.0) << "a spike pulled the threshold up: " << s->rule;
  std::vector<double> rest;
  for (std::size_t i = 10; i < norms.size(); ++i) {
    if (std::isfinite(norms[i]) && norms[i] < 50.0) rest.push_back(norms[i]);
  }
  std::sort(rest.begin(), rest.end());
  EXPECT_GE(s->threshold, rest[static_cast<std::size_t>(0.98 * static_cast<double>(rest.size()))]);
}

TEST(ClipThreshold, TooFewHealthyStepsGiveNoSuggestion) {
  std::vector<double> norms = healthy_norms();
  norms.resize(109);  // 99 healthy steps after the 10 skipped
  EXPECT_FALSE(suggest_clip_threshold(norms).has_value());
  norms = healthy_norms();
  norms.resize(110);
  EXPECT_TRUE(suggest_clip_threshold(norms).has_value());
}

TEST(ClipThreshold, HeadroomAndQuantileAreApplied) {
  const auto p50 = suggest_clip_threshold(healthy_norms(), {.quantile = 0.5, .headroom = 2.0});
  ASSERT_TRUE(p50.has_value());
  EXPECT_DOUBLE_EQ(p50->threshold, 2.0 * p50->quantile_norm);
  EXPECT_DOUBLE_EQ(p50->quantile_norm, p50->median_norm);
  EXPECT_THROW(suggest_clip_threshold(healthy_norms(), {.quantile = 0.0}), std::invalid_argument);
  EXPECT_THROW(suggest_clip_threshold(healthy_norms(), {.headroom = -1.0}), std::invalid_argument);
}

// Planted: a threshold below the typical norm (the median) is a crutch: it engages on most
// steps, which max_clip_rate flags; the suggested one engages on about 1% and passes.
TEST(ClipThreshold, ThresholdBelowTheMedianIsWhatMaxClipRateFlags) {
  const std::vector<double> norms = healthy_norms();
  const std::optional<ClipSuggestion> s = suggest_clip_threshold(norms);
  ASSERT_TRUE(s.has_value());
  const auto judged = [&](double max_norm) {
    GradientNormMonitor monitor({.max_norm = max_norm, .max_clip_rate = 0.1});
    for (const double n : norms) monitor.observe_norm(n);
    return monitor.result();
  };
  const GradientNormResult crutch = judged(0.8 * s->median_norm);
  EXPECT_FALSE(crutch.passed);
  EXPECT_THAT(crutch.assertion().message(), HasSubstr("more than the allowed 10.0%"));
  const GradientNormResult seatbelt = judged(s->threshold);
  EXPECT_TRUE(seatbelt.clip_rate.has_value());
  EXPECT_LE(*seatbelt.clip_rate, 0.1) << seatbelt.assertion().message();
}

}  // namespace
}  // namespace mlregress::checks
