#include "comparison/hypothesis_family.h"

#include <algorithm>
#include <filesystem>
#include <set>
#include <tuple>
#include <vector>

namespace mlregress::internal {
namespace {

// The predictions reference files of `test` (record_predictions), each a McNemar check.
int predictions_references(const BaselineSet& baselines, const std::string& test) {
  const std::string& folder = baselines.references_folder();
  if (folder.empty()) return 0;
  std::error_code error;
  const std::filesystem::path predictions = std::filesystem::path(folder) / "predictions";
  if (!std::filesystem::is_directory(predictions, error)) return 0;
  int count = 0;
  const std::string prefix = test + ".";
  for (const auto& entry : std::filesystem::directory_iterator(predictions, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with(prefix) && name.ends_with(".csv")) ++count;
  }
  return count;
}

}  // namespace

int planned_hypotheses(const BaselineSet& baselines,
                       const std::map<std::string, std::string>& tests) {
  using Hypothesis =
      std::tuple<std::string, Direction, double, std::vector<std::uint64_t>, std::vector<double>>;
  std::set<Hypothesis> distinct;
  int others = 0;
  for (const auto& [name, config_hash] : tests) {
    others += predictions_references(baselines, name);
    const LoadedBaselineFile* loaded = baselines.find(name);
    if (loaded == nullptr) continue;
    const BaselineTest& baseline = loaded->file.tests.at(name);
    const std::string& config = config_hash.empty() ? baseline.config_hash : config_hash;
    for (const auto& [metric, entry] : baseline.metrics) {
      const Margin* margin = std::get_if<Margin>(&entry.policy);
      if (margin == nullptr || entry.samples.size() < 2 ||
          entry.direction == Direction::MustEqual) {
        continue;
      }
      distinct.emplace(config, entry.direction, margin->delta, entry.seeds, entry.samples);
    }
  }
  return std::max(1, static_cast<int>(distinct.size()) + others);
}

}  // namespace mlregress::internal
