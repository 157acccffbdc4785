#include "statistics/failure_rate_design.h"

#include <fmt/format.h>

#include <algorithm>
#include <boost/math/distributions/beta.hpp>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace mlregress::internal::stats {
namespace {

// Boundaries of the SPRT with log-likelihood-ratio thresholds `upper` (REGRESSION) and `lower`
// (PASS) at each look: the failure counts at which the ratio crosses them.
void set_boundaries(FailureRateDesign& d, double upper, double lower) {
  const double a = std::log(d.p1 / d.p0);                  // a failure's log-likelihood ratio
  const double b = std::log((1.0 - d.p1) / (1.0 - d.p0));  // a pass's (negative)
  d.reject_from.clear();
  d.accept_up_to.clear();
  for (int n : d.looks) {
    // LLR(f) = f a + (n - f) b is increasing in f.
    const double r = (upper - n * b) / (a - b);
    const double s = (lower - n * b) / (a - b);
    d.reject_from.push_back(std::max(0, static_cast<int>(std::ceil(r - 1e-9))));
    d.accept_up_to.push_back(std::min(n, static_cast<int>(std::floor(s + 1e-9))));
  }
}

}  // namespace

std::vector<int> failure_rate_looks(int block, int cap) {
  if (block < 1 || cap < block) {
    throw std::invalid_argument(fmt::format(
        "a failure-rate plan needs blocks of at least 1 and a cap no smaller than the block "
        "(block {}, cap {})",
        block, cap));
  }
  std::vector<int> looks;
  for (int n = block; n <= cap; n += block) looks.push_back(n);
  if (looks.back() != cap) looks.push_back(cap);
  return looks;
}

OperatingCharacteristics operating_characteristics(const FailureRateDesign& d, double p) {
  OperatingCharacteristics oc;
  const int cap = d.looks.back();
  // The probability of each failure count among the paths still going.
  std::vector<double> going(static_cast<std::size_t>(cap) + 2, 0.0);
  going[0] = 1.0;
  std::vector<double> stop_at(d.looks.size(), 0.0);
  int n = 0;
  for (std::size_t k = 0; k < d.looks.size(); ++k) {
    for (; n < d.looks[k]; ++n) {
      for (int f = n + 1; f >= 0; --f) {
        const auto i = static_cast<std::size_t>(f);
        going[i] = going[i] * (1.0 - p) + (f > 0 ? going[i - 1] * p : 0.0);
      }
    }
    for (int f = 0; f <= n; ++f) {
      const auto i = static_cast<std::size_t>(f);
      if (f >= d.reject_from[k]) {
        oc.p_regression += going[i];
      } else if (f <= d.accept_up_to[k]) {
        oc.p_pass += going[i];
      } else {
        continue;
      }
      stop_at[k] += going[i];
      going[i] = 0.0;
    }
  }
  double left = 0.0;
  for (double g : going) left += g;
  oc.p_inconclusive = left;
  stop_at.back() += left;
  double cumulative = 0.0;
  for (std::size_t k = 0; k < d.looks.size(); ++k) {
    oc.expected_trials += stop_at[k] * d.looks[k];
    cumulative += stop_at[k];
    if (oc.median_trials == 0 && cumulative >= 0.5 - 1e-12) oc.median_trials = d.looks[k];
    if (oc.p90_trials == 0 && cumulative >= 0.9 - 1e-12) oc.p90_trials = d.looks[k];
  }
  if (oc.median_trials == 0) oc.median_trials = cap;
  if (oc.p90_trials == 0) oc.p90_trials = cap;
  return oc;
}

FailureRateDesign design_failure_rate_test(double p0, double p1, double alpha, double power_goal,
                                           const std::vector<int>& looks) {
  if (!(p0 > 0.0 && p0 < p1 && p1 < 1.0) || !(alpha > 0.0 && alpha < 0.5) ||
      !(power_goal > alpha && power_goal < 1.0) || looks.empty() || looks.front() < 1 ||
      !std::is_sorted(looks.begin(), looks.end()) ||
      std::adjacent_find(looks.begin(), looks.end()) != looks.end()) {
    throw std::invalid_argument(
        fmt::format("a failure-rate design needs 0 < p0 < p1 < 1, 0 < alpha < 0.5 < power < 1 and "
                    "increasing looks (p0 {}, p1 {}, alpha {}, power {})",
                    p0, p1, alpha, power_goal));
  }
  FailureRateDesign best;
  bool have = false;
  const auto better = [&](const FailureRateDesign& c) {
    if (!have) return true;
    const bool c_ok = c.power >= power_goal, best_ok = best.power >= power_goal;
    if (c_ok != best_ok) return c_ok;
    if (!c_ok) return c.power > best.power + 1e-12;
    const int c_med = std::max(c.median_trials_p0, c.median_trials_p1);
    const int b_med = std::max(best.median_trials_p0, best.median_trials_p1);
    if (c_med != b_med) return c_med < b_med;
    return c.expected_trials_p0 + c.expected_trials_p1 <
           best.expected_trials_p0 + best.expected_trials_p1 - 1e-12;
  };
  // The PASS threshold on a grid; for each, the smallest REGRESSION threshold whose exact size is
  // at most alpha (the size falls as the threshold rises: every path that crosses a higher one
  // crossed a lower one first), found by bisection.
  for (int i = 1; i <= 80; ++i) {
    FailureRateDesign d;
    d.p0 = p0;
    d.p1 = p1;
    d.alpha = alpha;
    d.power_goal = power_goal;
    d.looks = looks;
    const double lower = -0.05 * i;
    double lo = 0.0, hi = 40.0;
    for (int step = 0; step < 50; ++step) {
      const double mid = 0.5 * (lo + hi);
      set_boundaries(d, mid, lower);
      if (operating_characteristics(d, p0).p_regression <= alpha) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    set_boundaries(d, hi, lower);
    const OperatingCharacteristics at_p0 = operating_characteristics(d, p0);
    const OperatingCharacteristics at_p1 = operating_characteristics(d, p1);
    d.size = at_p0.p_regression;
    d.power = at_p1.p_regression;
    d.expected_trials_p0 = at_p0.expected_trials;
    d.expected_trials_p1 = at_p1.expected_trials;
    d.median_trials_p0 = at_p0.median_trials;
    d.median_trials_p1 = at_p1.median_trials;
    if (better(d)) {
      best = d;
      have = true;
    }
  }
  return best;
}

RateDecision decide_at_look(const FailureRateDesign& d, std::size_t look, int failures) {
  if (look >= d.looks.size()) throw std::out_of_range("no such look");
  if (failures >= d.reject_from[look]) return RateDecision::kRegression;
  if (failures <= d.accept_up_to[look]) return RateDecision::kPass;
  return look + 1 == d.looks.size() ? RateDecision::kInconclusive : RateDecision::kContinue;
}

RateInterval clopper_pearson(int failures, int trials, double confidence) {
  if (trials < 1 || failures < 0 || failures > trials || !(confidence > 0.0 && confidence < 1.0))
    throw std::invalid_argument("clopper_pearson: 0 <= failures <= trials, trials >= 1");
  const double tail = (1.0 - confidence) / 2.0;
  RateInterval interval;
  interval.lower =
      failures == 0
          ? 0.0
          : boost::math::quantile(
                boost::math::beta_distribution<double>(failures, trials - failures + 1), tail);
  interval.upper = failures == trials
                       ? 1.0
                       : boost::math::quantile(boost::math::beta_distribution<double>(
                                                   failures + 1, trials - failures),
                                               1.0 - tail);
  return interval;
}

double reference_failure_rate(int failures, int trials) {
  return (failures + 0.5) / (trials + 1.0);
}

}  // namespace mlregress::internal::stats
