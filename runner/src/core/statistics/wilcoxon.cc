#include "statistics/wilcoxon.h"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "statistics/moments.h"

namespace mlregress::internal::stats {
namespace {

// 2^n as a double (exact for n <= 1023).
double two_to(std::size_t n) { return std::ldexp(1.0, static_cast<int>(n)); }

// Sum of counts[lo..hi], clamped to the support, exactly in integers.
std::uint64_t count_between(const std::vector<std::uint64_t>& counts, long long lo, long long hi) {
  lo = std::max(lo, 0LL);
  hi = std::min(hi, static_cast<long long>(counts.size()) - 1);
  std::uint64_t total = 0;
  for (long long r = lo; r <= hi; ++r) total += counts[static_cast<std::size_t>(r)];
  return total;
}

double normal_sf(double z) {
  return boost::math::cdf(boost::math::complement(boost::math::normal(), z));
}
double normal_cdf(double z) { return boost::math::cdf(boost::math::normal(), z); }

}  // namespace

std::vector<std::uint64_t> wilcoxon_rank_sum_counts(std::size_t n) {
  if (n > 63) throw std::invalid_argument("exact Wilcoxon counts need n <= 63");
  const std::size_t max_sum = n * (n + 1) / 2;
  std::vector<std::uint64_t> counts(max_sum + 1, 0);
  counts[0] = 1;
  // Add rank k: each pattern either leaves it out (sum unchanged) or counts it (sum + k).
  // Walking sums downwards updates in place (0/1 knapsack).
  std::size_t reachable = 0;
  for (std::size_t k = 1; k <= n; ++k) {
    reachable += k;
    for (std::size_t s = reachable; s >= k; --s) counts[s] += counts[s - k];
  }
  return counts;
}

double wilcoxon_exact_cdf(std::size_t n, long long r) {
  const auto counts = wilcoxon_rank_sum_counts(n);
  return static_cast<double>(count_between(counts, 0, r)) / two_to(n);
}

double wilcoxon_exact_sf(std::size_t n, long long r) {
  const auto counts = wilcoxon_rank_sum_counts(n);
  return static_cast<double>(count_between(counts, r, static_cast<long long>(counts.size()) - 1)) /
         two_to(n);
}

WilcoxonResult wilcoxon_signed_rank(std::span<const double> x, std::span<const double> y,
                                    Alternative alternative) {
  if (x.size() != y.size()) throw std::invalid_argument("paired samples differ in size");
  require_finite_sample(x, 1, "x");
  require_finite_sample(y, 1, "y");
  std::vector<double> d(x.size());
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = x[i] - y[i];
  return wilcoxon_signed_rank(d, alternative);
}

namespace {

// The rank sums of the nonzero differences d: mid-ranks of |d|, summed by sign. Returns the sum
// over tie groups of t (t^2 - 1), for the variance correction, and records whether there are
// ties.
double set_rank_sums(const std::vector<double>& d, WilcoxonResult& result) {
  const std::size_t n = d.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return std::fabs(d[a]) < std::fabs(d[b]); });
  std::vector<double> rank(n);
  double tie_term = 0.0;  // sum over tie groups of t (t^2 - 1)
  for (std::size_t i = 0; i < n;) {
    std::size_t j = i + 1;
    while (j < n && std::fabs(d[order[j]]) == std::fabs(d[order[i]])) ++j;
    const double mid_rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2.0;
    for (std::size_t k = i; k < j; ++k) rank[order[k]] = mid_rank;
    const double t = static_cast<double>(j - i);
    if (j - i > 1) {
      result.has_ties = true;
      tie_term += t * (t * t - 1.0);
    }
    i = j;
  }
  for (std::size_t i = 0; i < n; ++i) (d[i] > 0 ? result.r_plus : result.r_minus) += rank[i];
  return tie_term;
}

// The exact p-value of r_plus among n untied ranks.
void set_exact_p_value(std::size_t n, Alternative alternative, WilcoxonResult& result) {
  result.method = WilcoxonMethod::kExact;
  const auto counts = wilcoxon_rank_sum_counts(n);
  const auto r = static_cast<long long>(std::llround(result.r_plus));
  const long long top = static_cast<long long>(counts.size()) - 1;
  const double total = two_to(n);
  const double p_less = static_cast<double>(count_between(counts, 0, r)) / total;
  const double p_greater = static_cast<double>(count_between(counts, r, top)) / total;
  switch (alternative) {
    case Alternative::kLess:
      result.p_value = p_less;
      break;
    case Alternative::kGreater:
      result.p_value = p_greater;
      break;
    case Alternative::kTwoSided:
      result.p_value = std::min(1.0, 2.0 * std::min(p_less, p_greater));
  }
}

// The normal approximation, its variance corrected for ties.
void set_normal_p_value(std::size_t n, double tie_term, Alternative alternative,
                        WilcoxonResult& result) {
  const double nn = static_cast<double>(n);
  result.method = WilcoxonMethod::kNormalApproximation;
  const double mean_r = nn * (nn + 1.0) / 4.0;
  const double variance = (nn * (nn + 1.0) * (2.0 * nn + 1.0) - 0.5 * tie_term) / 24.0;
  result.z = (result.r_plus - mean_r) / std::sqrt(variance);
  switch (alternative) {
    case Alternative::kLess:
      result.p_value = normal_cdf(result.z);
      break;
    case Alternative::kGreater:
      result.p_value = normal_sf(result.z);
      break;
    case Alternative::kTwoSided:
      result.p_value = std::min(1.0, 2.0 * normal_sf(std::fabs(result.z)));
  }
}

}  // namespace

WilcoxonResult wilcoxon_signed_rank(std::span<const double> differences, Alternative alternative) {
  require_finite_sample(differences, 1, "differences");
  WilcoxonResult result;
  result.z = std::numeric_limits<double>::quiet_NaN();

  std::vector<double> d;
  for (const double v : differences) {
    if (v == 0.0) {
      ++result.n_zero;
    } else {
      d.push_back(v);
    }
  }
  const std::size_t n = d.size();
  result.n_used = n;
  if (n == 0) {
    result.method = WilcoxonMethod::kNoData;
    result.p_value = 1.0;
    return result;
  }

  const double tie_term = set_rank_sums(d, result);
  if (!result.has_ties && n <= kWilcoxonExactMaxN) {
    set_exact_p_value(n, alternative, result);
  } else {
    set_normal_p_value(n, tie_term, alternative, result);
  }
  return result;
}

}  // namespace mlregress::internal::stats
