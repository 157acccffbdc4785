// Wald's lower bound on the expected sample size of a sequential test. For a one-sided test of
// H0: mean 0 against H1: mean d (d in standard deviations of one observation, normal
// observations) at level alpha with power 1 - beta, every sequential test, whatever its looks
// and boundaries, needs on average at least
//   E0[N] >= kl(1 - alpha, beta) / (d^2 / 2)   when H0 holds,
//   E1[N] >= kl(1 - beta, alpha) / (d^2 / 2)   when H1 holds,
// with d^2 / 2 the Kullback-Leibler divergence between the two normals per observation and
//   kl(p, q) = p ln(p / q) + (1 - p) ln((1 - p) / (1 - q))
// the binary Kullback-Leibler divergence (Wald 1945; the SPRT calibrated to the exact alpha and
// beta comes within a few percent of it). At alpha 0.01, power 0.8, d 0.5: 12.3 and 25.5.
//
// Between the hypotheses a test may need more: at a true shift theta in (0, d) the data carry
// theta^2 / 2 per seed about "no change" and (d - theta)^2 / 2 about "the shift", and the same
// change-of-measure argument that gives Wald's bound (E_theta[N] KL(theta, x) >= kl(P_theta(A),
// P_x(A)) for every event A the test decides) gives, with p = P_theta(the test rejects),
//   E_theta[N] >= max(kl(p, alpha) / (theta^2 / 2), kl(1 - p, beta) / ((d - theta)^2 / 2))
// (each term where p >= alpha, resp. 1 - p >= beta), so at least its minimum over p. The largest
// of these over theta bounds the worst case of every test with these errors: Lorden's 2-SPRT is
// the test built to come close to it. At the ends it is Wald's bounds; at alpha 0.005, power 0.8,
// d 0.915 it is 8.94 at theta 0.899 (Wald's: 3.75 and 8.93).
//
// A percentile of the seeds has a floor of its own. A test that stops within n seeds with
// probability q at the shift has power at most (1 - q) + P(it rejects within n seeds), and
// rejecting within n seeds is a level-alpha test on n seeds, whose power is at most the
// Neyman-Pearson test's, Phi(d sqrt(n) - z_{1-alpha}); so power 1 - beta needs
//   d sqrt(n) >= z_{1-alpha} + z_{q-beta}   (at the shift),
// and, the same argument with the hypotheses' roles swapped (accepting within n seeds is a test
// of the shift at level beta),
//   d sqrt(n) >= z_{1-beta} + z_{q-alpha}   (under no change).
// At alpha 0.01 / 3, power 0.8, d 0.8, q 0.95: 18 seeds at the shift, 10 under no change.
// Fresh seeds measured against the mean of a baseline of m seeds have a reference that is itself
// uncertain: the best test on n seeds then weighs the difference of the two means, whose sd is
// sqrt(1 / n + 1 / m), so d sqrt(n) becomes d / sqrt(1 / n + 1 / m) above, and no n at all
// suffices when d sqrt(m) falls short (at alpha 0.005, power 0.8, d 0.793, q 0.95: 12 seeds under
// no change against 52 seeds, 10 against a mean known exactly).
#pragma once

#include <limits>

namespace mlregress::internal::stats {

/// kl(p, q) for p, q in (0, 1): the Kullback-Leibler divergence of Bernoulli(p) from
/// Bernoulli(q). Throws std::invalid_argument outside (0, 1) or for a NaN.
double binary_kl(double p, double q);

struct ExpectedSeedsBound {
  double h0 = 0.0;  ///< E0[N] >= h0: no change
  double h1 = 0.0;  ///< E1[N] >= h1: a shift of d
};

/// Wald's bounds for level alpha, type II error beta (power 1 - beta) and a shift of d standard
/// deviations. Throws std::invalid_argument unless alpha and beta lie in (0, 1) and d > 0, all
/// finite.
ExpectedSeedsBound wald_expected_seeds(double alpha, double beta, double d);

/// The lower bound above at one true shift theta (in the same standard deviations as d): the
/// fewest seeds any test with these errors needs on average there. theta 0 and d give Wald's.
/// Throws std::invalid_argument as wald_expected_seeds, and for theta outside [0, d].
double expected_seeds_bound_at(double alpha, double beta, double d, double theta);

struct WorstCaseSeedsBound {
  double theta = 0.0;  ///< where the bound is largest
  double seeds = 0.0;  ///< max over theta in [0, d] of expected_seeds_bound_at
};

/// The largest expected_seeds_bound_at over [0, d] (a grid of 2000 steps, then refined by golden
/// section): a floor for the worst case, over the true shift, of any test's average seeds.
WorstCaseSeedsBound worst_case_expected_seeds(double alpha, double beta, double d);

struct PercentileSeedsBound {
  int h0 = 0;  ///< no test with these errors stops within fewer seeds with probability q: no change
  int h1 = 0;  ///< the same at the shift d
};

/// The fewest seeds within which a test of level alpha and power 1 - beta at d can stop with
/// probability q (0.95: the floor of the 95th percentile), from the inequalities above: the
/// smallest whole n meeting each, 0 where one holds at any n, kNoSeedsSuffice where none does
/// (against a reference of too few seeds). reference_seeds: the seeds of the baseline mean the
/// seeds are measured against, 0 for a reference known exactly (paired differences). Throws
/// std::invalid_argument as wald_expected_seeds, for a negative reference, and unless q lies in
/// (max(alpha, beta), 1).
inline constexpr int kNoSeedsSuffice = std::numeric_limits<int>::max();
PercentileSeedsBound percentile_seeds_bound(double alpha, double beta, double d, double q,
                                            int reference_seeds = 0);

}  // namespace mlregress::internal::stats
