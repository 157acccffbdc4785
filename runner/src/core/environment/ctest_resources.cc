#include "environment/ctest_resources.h"

#include <fmt/format.h>

#include <charconv>

#include "support/errors.h"

namespace mlregress::internal {

std::vector<std::string> ctest_gpu_ids(const EnvironmentLookup& environment) {
  const auto count_text = environment("CTEST_RESOURCE_GROUP_COUNT");
  if (!count_text) return {};
  std::size_t count = 0;
  const auto [end, error] =
      std::from_chars(count_text->data(), count_text->data() + count_text->size(), count);
  if (error != std::errc() || end != count_text->data() + count_text->size()) {
    throw ConfigError(
        fmt::format("CTEST_RESOURCE_GROUP_COUNT: expected a number, got '{}'", *count_text));
  }
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < count; ++i) {
    const std::string group = fmt::format("CTEST_RESOURCE_GROUP_{}", i);
    // A group may hold several types ("gpus,memory"); only GPUs become visible devices.
    const std::string types = environment(group).value_or("");
    if (("," + types + ",").find(",gpus,") == std::string::npos) continue;
    const std::string variable = group + "_GPUS";
    const auto allocation = environment(variable);
    if (!allocation)
      throw ConfigError(fmt::format("{} names gpus but {} is not set", group, variable));
    // "id:1,slots:1", several allocations separated by ';'.
    std::size_t at = 0;
    while (at < allocation->size()) {
      const std::size_t next = std::min(allocation->find(';', at), allocation->size());
      const std::string item = allocation->substr(at, next - at);
      if (!item.starts_with("id:") || item.find(",slots:") == std::string::npos) {
        throw ConfigError(
            fmt::format("{}: expected 'id:<id>,slots:<n>', got '{}'", variable, item));
      }
      ids.push_back(item.substr(3, item.find(',') - 3));
      at = next + 1;
    }
  }
  return ids;
}

}  // namespace mlregress::internal
