#include "comparison/config_diff.h"

#include <fmt/format.h>

#include <optional>
#include <set>

namespace mlregress::internal {
namespace {

std::optional<std::string> value_in(const std::map<std::string, std::string>& values,
                                    const std::string& name) {
  const auto it = values.find(name);
  if (it == values.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::string config_changes(const std::map<std::string, std::string>& before,
                           const std::map<std::string, std::string>& after) {
  if (before.empty() || after.empty() || before == after) return "";
  std::set<std::string> names;
  for (const auto* values : {&before, &after})
    for (const auto& entry : *values) names.insert(entry.first);
  std::string changes;
  for (const std::string& name : names) {
    const std::optional<std::string> was = value_in(before, name), now = value_in(after, name);
    if (was == now) continue;
    changes += fmt::format("{}{} {} → {}", changes.empty() ? "" : ", ", name,
                           was.value_or("(none)"), now.value_or("(none)"));
  }
  return changes;
}

std::string config_note(const std::string& hash_before, const std::string& hash_after,
                        const std::map<std::string, std::string>& before,
                        const std::map<std::string, std::string>& after) {
  if (hash_before == hash_after) return " · config same";
  const std::string changes = config_changes(before, after);
  return changes.empty() ? " · config changed" : " · config changed: " + changes;
}

}  // namespace mlregress::internal
