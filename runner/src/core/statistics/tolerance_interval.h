// Normal tolerance intervals: the factor k such that mean ± k·sd, computed from n values of a
// normal variable, covers at least a fraction `coverage` of the distribution with probability
// `confidence`. `calibrate` derives a metric's band from the run-to-run spread with it.
#pragma once

namespace mlregress::internal::stats {

/// The two-sided factor, exact (Odeh and Owen's integral, not Howe's approximation):
/// the k with  ∫₀^∞ 2√n φ(x√n) · P(χ²_{n−1} > (n−1)·r(x)²/k²) dx = confidence, where r(x) solves
/// Φ(x + r) − Φ(x − r) = coverage. n = 20, 99% coverage with 99% confidence: 4.1747 (Howe's
/// approximation 4.1644); with 95% confidence: 3.6210 (NIST's table, from Howe, 3.615).
/// Throws std::invalid_argument for n < 2 or coverage / confidence outside (0, 1).
double tolerance_factor(int n, double coverage, double confidence);

/// The one-sided factor (mean + k·sd bounds a fraction `coverage` from above with probability
/// `confidence`): t'_{confidence}(n−1, z_coverage·√n) / √n, the noncentral t quantile.
/// n = 20, 99%/99%: 3.8316; 99%/95%: 3.2952 (NIST's table: 3.295).
double one_sided_tolerance_factor(int n, double coverage, double confidence);

/// Howe's approximation of the two-sided factor, z_{(1+coverage)/2} · √((n−1)(1 + 1/n) /
/// χ²_{1−confidence, n−1}): a bracket for the exact root, and a cross-check in the tests.
double howe_tolerance_factor(int n, double coverage, double confidence);

}  // namespace mlregress::internal::stats
