#include "analysis/sequential_look_steps.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace mlregress::internal {

SeedSamples first_seeds(const SeedSamples& samples, int n) {
  const auto count = static_cast<std::ptrdiff_t>(n);
  return {std::vector<double>(samples.values.begin(), samples.values.begin() + count),
          std::vector<std::uint64_t>(samples.seeds.begin(), samples.seeds.begin() + count)};
}

int seeds_that_ran(const SeedSamples& candidate) {
  return static_cast<int>(std::min(candidate.values.size(), candidate.seeds.size()));
}

bool looks_are_paired(const SeedSamples& ran, const SeedSamples& baseline, int cap) {
  return baseline.seeds.size() >= static_cast<std::size_t>(cap) &&
         samples_of_seeds(baseline, ran.seeds).has_value();
}

std::optional<SequentialLook> look_before_first_block(const SeedComparison& comparison,
                                                      const SeedSamples& ran, int first_look,
                                                      bool anytime) {
  const int available = static_cast<int>(ran.values.size());
  const bool diverged =
      std::any_of(ran.values.begin(), ran.values.end(), [](double v) { return !std::isfinite(v); });
  if (!diverged && available >= first_look) return std::nullopt;
  SequentialLook look;
  look.anytime = anytime;
  look.seeds = available;
  look.analysis = analyse_distribution(comparison.metric, comparison.direction, comparison.margin,
                                       ran, comparison.baseline, comparison.covariate);
  if (diverged) {
    look.outcome = LookOutcome::kRegression;
    look.p_worse_sequential = 0.0;
  } else {
    look.analysis.problem =
        fmt::format("{} seeds ran, fewer than the plan's first look ({})", available, first_look);
  }
  return look;
}

std::string family_clause(const SequentialLook& look) {
  if (look.family <= 1) return "";
  return fmt::format("; settles below {:.2g} = alpha / {} hypotheses", look.decision_level,
                     look.family);
}

LookOutcome settle_look(const SequentialLook& look, Direction direction, double margin) {
  const double worse = degradation_of(direction, look.analysis.difference);
  const double worst_case =
      direction == Direction::HigherIsBetter ? -look.interval_lower : look.interval_upper;
  if (look.p_worse_sequential < look.decision_level && worse > margin) {
    return LookOutcome::kRegression;
  } else if (look.p_better_sequential < look.decision_level && -worse > margin) {
    return LookOutcome::kImproved;
  } else if (worst_case <= margin) {
    return LookOutcome::kPass;
  }
  return LookOutcome::kContinue;
}

}  // namespace mlregress::internal
