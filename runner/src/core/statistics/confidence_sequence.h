// Anytime-valid confidence sequences for a mean from the scale-invariant t-test e-process
// (Gaussian data, unknown variance). For n >= 2 values with mean x̄ and sd s, t(μ0) =
// (x̄ − μ0)√n / s and ν = n − 1; with the standardized effect δ ~ N(0, g) and the right-Haar prior
// on σ, the Bayes factor
//   E_n(μ0) = (1 + n g)^(−1/2) · [(1 + t²/ν) / (1 + t²/(ν (1 + n g)))]^((ν+1)/2)
// is an e-process for H0: μ = μ0 (Pérez-Ortiz, Lardy, de Heide, Grünwald, Ann. Statist. 2024;
// the fixed-g Bayes factor of Gönen et al. 2005 / Rouder et al. 2009). By Ville's inequality
// {μ0 : E_n(μ0) < 1/a} is a (1 − a) confidence sequence: it covers μ at every n at once, so it
// may be looked at after every block and the study stopped or continued at will. E_n grows with
// |t|, so the set is the interval x̄ ± r · s/√n with E_n(r) = 1/a.
#pragma once

#include "statistics/t_distribution.h"

namespace mlregress::internal::stats {

/// The prior scale g of the standardized effect. g = 1 puts the prior's mass on effects of about
/// one standard deviation of the seed-to-seed noise, the size a gate over a few dozen seeds can
/// resolve: a smaller g buys a narrower set for tiny effects late at the price of being wider at
/// the first looks (where a real regression should be caught), a larger g the reverse.
inline constexpr double kAnytimePriorScale = 1.0;

/// E_n for an observed t from n >= 2 values (n may be any real >= 2), g > 0. Else invalid_argument.
double t_e_value(double t, double n, double g = kAnytimePriorScale);

/// The radius r >= 0 in t units with E_n(r) = 1/a, 0 < a < 1; +Inf when even t → ∞ gives
/// E_n < 1/a (too few values for that level: the set is the whole line).
double confidence_sequence_radius(double n, double a, double g = kAnytimePriorScale);

/// The (1 − a) confidence sequence's set at this look: mean ± radius · sd / √n, level 1 − a.
ConfidenceInterval mean_confidence_sequence(double mean, double sd, double n, double a,
                                            double g = kAnytimePriorScale);

/// Fresh candidate values against a fixed baseline (union bound): the candidate's confidence
/// sequence at a/2 minus the baseline's fixed two-sided t interval at a/2, an interval for
/// candidate mean − baseline mean that holds at every look with probability >= 1 − a.
ConfidenceInterval difference_confidence_sequence(double candidate_mean, double candidate_sd,
                                                  double candidate_n, double baseline_mean,
                                                  double baseline_sd, double baseline_n, double a,
                                                  double g = kAnytimePriorScale);

/// The running intersection over looks: what a sequence may report after several looks
/// (every set covers the truth at once, so their intersection does too).
ConfidenceInterval intersect(const ConfidenceInterval& running, const ConfidenceInterval& look);

/// The anytime p-value of "the mean is not above 0" at one paired look: the smallest a at which
/// the set excludes every value <= 0, i.e. min(1, 1/E_n(0)) when mean > 0, else 1. The running
/// minimum over looks is the p-value of the running intersection.
double paired_anytime_p_value(double mean, double sd, double n, double g = kAnytimePriorScale);

/// The same for independent arms: the smallest a at which difference_confidence_sequence lies
/// above 0 (bisection on a); 1 when it never does.
double independent_anytime_p_value(double candidate_mean, double candidate_sd, double candidate_n,
                                   double baseline_mean, double baseline_sd, double baseline_n,
                                   double g = kAnytimePriorScale);

}  // namespace mlregress::internal::stats
