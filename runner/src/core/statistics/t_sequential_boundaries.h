// Exact group-sequential boundaries for a one-sample t test looked at as its sample grows: the
// paired looks of a sequential seeded test, each a t test on the per-seed differences so far.
//
// The Lan–DeMets boundaries of statistics/group_sequential.h are exact for z statistics. Used as
// nominal p-values for t tests on few seeds they cross a little more often than they spend: each
// look's t test is exact, but the looks' estimated variances make their joint law differ from
// the Brownian motion the boundaries assume (measured: 2.60% instead of 2.5% for the PASS error
// spent Pocock-type over looks at 12, 20, ..., 52 seeds, 200,000 simulated sequences).
//
// Under H0 the joint law of the one-sample t statistics T_1..T_K after n_1 < ... < n_K normal
// values depends on nothing but the n_k (the mean and sd cancel), so the boundaries can be found
// for the t statistics themselves: c_k with P_0(T_k >= c_k, no earlier crossing) =
// alpha(t_k) - alpha(t_{k-1}), t_k = n_k / n_K. They are computed once per design by simulating
// kPaths sequences of the statistics (each block's sum and within-block sum of squares, drawn
// from their exact normal and chi-squared laws), with a fixed generator seed, so every run of a
// design gets the same boundaries: exact up to the Monte Carlo error of that one simulation
// (about 0.03% on a 2.5% error; tests/statistics/t_sequential_boundaries_test.cc).
#pragma once

#include <vector>

#include "statistics/group_sequential.h"

namespace mlregress::internal::stats {

/// Sequences simulated per design.
inline constexpr int kTBoundaryPaths = 400000;

/// The one-sided nominal p-value thresholds p_k = P(T >= c_k) of t tests with n_k - 1 degrees of
/// freedom at looks after n_1 < ... < n_K values (n_1 >= 2), such that under H0 the chance of a
/// first crossing at look k is alpha(t_k) - alpha(t_{k-1}), t_k = n_k / n_K. A look whose share
/// is too small for the simulation to place its boundary (fewer than 200 of the kTBoundaryPaths
/// paths) gets its share itself, as by the union bound (spent_increments). Cached per (looks,
/// alpha, spending); thread-safe. Invalid looks or alpha are std::invalid_argument.
std::vector<double> t_nominal_p_thresholds(const std::vector<int>& looks, double alpha,
                                           SpendingFunction spending);

}  // namespace mlregress::internal::stats
