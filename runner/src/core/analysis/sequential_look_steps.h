// The steps both sequential designs take, whether their looks spend errors planned in advance
// (sequential_seeds.h) or are anytime-valid (anytime_seeds.h): which seeds ran, whether the looks
// are paired, the single look when no block can be judged, and how a look settles the metric.
#pragma once

#include <optional>
#include <string>

#include "analysis/distribution_gate.h"
#include "analysis/sequential_seeds.h"

namespace mlregress::internal {

/// What the looks at one metric compare: the candidate's seeds, in the order they ran, against
/// the baseline's.
struct SeedComparison {
  const std::string& metric;
  Direction direction;
  double margin;
  const SeedSamples& candidate;
  const SeedSamples& baseline;
  const CovariateSamples* covariate;
};

/// The first n values (and seeds) of a sample, in the order they ran.
SeedSamples first_seeds(const SeedSamples& samples, int n);

/// The candidate's seeds that ran: as many as it has both a value and a seed for.
int seeds_that_ran(const SeedSamples& candidate);

/// Paired looks when the baseline holds as many seeds as the plan may run (cap), the candidate's
/// (`ran`) among them: the runner runs the baseline's seeds. Otherwise each look compares with the
/// whole baseline as an independent arm.
bool looks_are_paired(const SeedSamples& ran, const SeedSamples& baseline, int cap);

/// The single look taken when no block can be judged, or nullopt when the looks can begin. A seed
/// that diverged decides the metric at once, as in the single-look gate, wherever it is among the
/// seeds that ran (kRegression); fewer seeds than the first look cannot be looked at (the problem,
/// kContinue).
std::optional<SequentialLook> look_before_first_block(const SeedComparison& comparison,
                                                      const SeedSamples& ran, int first_look,
                                                      bool anytime);

/// "; settles below 0.0005 = alpha / 20 hypotheses" when the run's family has more than one
/// hypothesis, else "": the clause every design's look line ends its figures with.
std::string family_clause(const SequentialLook& look);

/// How a look settles the metric, from its analysis, interval and sequential p-values:
/// REGRESSION when p_worse_sequential < decision_level and the estimated degradation exceeds the
/// margin, IMPROVED symmetrically, PASS when the interval rules out a degradation beyond the
/// margin, else kContinue.
LookOutcome settle_look(const SequentialLook& look, Direction direction, double margin);

}  // namespace mlregress::internal
