// Holm's step-down correction across all statistical checks of a run. It controls the
// family-wise error rate like Bonferroni but rejects more: sort the m p-values ascending and
// compare the k-th smallest (k = 1..m) with alpha / (m - k + 1), stopping at the first one that
// fails. As adjusted p-values:
//   adj(k) = max over j <= k of min(1, (m - j + 1) p(j))
// The running maximum matters: without it a larger raw p-value could get a smaller adjusted
// one and be rejected after the step-down has already stopped.
#pragma once

#include <span>
#include <vector>

namespace mlregress::internal::stats {

/// Holm-adjusted p-values, in the order of the input. Every p-value must lie in [0, 1]
/// (a NaN p-value is std::invalid_argument: decide what an untestable check means first).
std::vector<double> holm_adjust(std::span<const double> p_values);

/// Which hypotheses Holm rejects at family-wise level alpha: adjusted p <= alpha.
/// (The gate asks for p < alpha; compare holm_adjust's values itself for a strict test.)
std::vector<bool> holm_reject(std::span<const double> p_values, double alpha);

}  // namespace mlregress::internal::stats
