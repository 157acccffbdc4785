#include "environment/environment_profile.h"

#include <fmt/format.h>

#include "storage/json_text.h"
#include "support/fnv1a.h"

namespace mlregress::internal {
namespace {

std::string text_at(const nlohmann::json& json, const char* pointer) {
  const nlohmann::json::json_pointer at(pointer);
  if (!json.contains(at)) return "unknown";
  const nlohmann::json& value = json.at(at);
  return value.is_string() ? value.get<std::string>() : json_text(value);
}

}  // namespace

EnvironmentProfile environment_profile(const nlohmann::json& environment) {
  EnvironmentProfile p;
  const std::string name = text_at(environment, "/framework/name");
  p.framework =
      name == "unknown" ? "none" : name + " " + text_at(environment, "/framework/version");
  p.build = name == "unknown" ? "none" : text_at(environment, "/framework/build");
  p.cpu = text_at(environment, "/cpu/model");
  p.machine = text_at(environment, "/os/machine");
  const nlohmann::json::json_pointer threads("/run/intra_op_threads");
  p.threads = environment.contains(threads) && environment.at(threads).is_number_integer()
                  ? environment.at(threads).get<int>()
                  : 1;
  const std::string canonical =
      json_text(nlohmann::json{p.framework, p.build, p.cpu, p.machine, p.threads});
  const std::uint64_t hash = fnv1a_64(canonical);
  p.id = fmt::format("{}-{:08x}", p.build == "none" ? "env" : p.build, hash >> 32);
  return p;
}

std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now) {
  auto same = [](const std::string& a, const std::string& b) {
    return a == b ? "same" : "changed";
  };
  return fmt::format("framework {} · build {} · CPU {} · threads {}",
                     same(before.framework, now.framework), same(before.build, now.build),
                     same(before.cpu, now.cpu), before.threads == now.threads ? "same" : "changed");
}

}  // namespace mlregress::internal
