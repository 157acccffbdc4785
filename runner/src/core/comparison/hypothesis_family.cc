#include "comparison/hypothesis_family.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace mlregress::internal {

int planned_hypotheses(const BaselineSet& baselines, const std::vector<std::string>& tests) {
  using Hypothesis = std::tuple<Direction, double, std::vector<std::uint64_t>, std::vector<double>>;
  std::set<Hypothesis> distinct;
  const std::set<std::string> names(tests.begin(), tests.end());
  for (const std::string& name : names) {
    const LoadedBaselineFile* loaded = baselines.find(name);
    if (loaded == nullptr) continue;
    for (const auto& [metric, entry] : loaded->file.tests.at(name).metrics) {
      const Margin* margin = std::get_if<Margin>(&entry.policy);
      if (margin == nullptr || entry.samples.size() < 2 ||
          entry.direction == Direction::MustEqual) {
        continue;
      }
      distinct.emplace(entry.direction, margin->delta, entry.seeds, entry.samples);
    }
  }
  return std::max(1, static_cast<int>(distinct.size()));
}

}  // namespace mlregress::internal
