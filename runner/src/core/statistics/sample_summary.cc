#include "statistics/sample_summary.h"

#include <cmath>
#include <limits>

namespace mlregress::internal {

SampleSummary summarize_samples(std::span<const double> samples) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  SampleSummary s;
  s.n = samples.size();
  if (s.n == 0) return {0, kNaN, kNaN};
  double sum = 0.0;
  for (double v : samples) sum += v;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n < 2) {
    s.sd = kNaN;
    return s;
  }
  double squares = 0.0;
  for (double v : samples) squares += (v - s.mean) * (v - s.mean);
  s.sd = std::sqrt(squares / static_cast<double>(s.n - 1));
  return s;
}

}  // namespace mlregress::internal
