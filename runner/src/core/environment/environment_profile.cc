#include "environment/environment_profile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "record/json_text.h"
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
  const nlohmann::json::json_pointer gpu("/framework/cuda/devices/0/name");
  if (environment.contains(gpu) && environment.at(gpu).is_string()) {
    p.gpu = environment.at(gpu).get<std::string>();
  }
  nlohmann::json fields{p.framework, p.build, p.cpu, p.machine, p.threads};
  // A baseline measured on an H100 is another profile than one from an A100.
  if (!p.gpu.empty()) fields.push_back(p.gpu);
  const std::string canonical = json_text(fields);
  const std::uint64_t hash = fnv1a_64(canonical);
  p.id = fmt::format("{}-{:08x}", p.build == "none" ? "env" : p.build, hash >> 32);
  return p;
}

std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now) {
  auto same = [](const std::string& a, const std::string& b) {
    return a == b ? "same" : "changed";
  };
  std::string text =
      fmt::format("framework {} · build {} · CPU {} · threads {}",
                  same(before.framework, now.framework), same(before.build, now.build),
                  same(before.cpu, now.cpu), before.threads == now.threads ? "same" : "changed");
  if (!before.gpu.empty() || !now.gpu.empty()) {
    text += before.gpu == now.gpu
                ? " · GPU same"
                : fmt::format(" · GPU changed ({} → {})", before.gpu.empty() ? "none" : before.gpu,
                              now.gpu.empty() ? "none" : now.gpu);
  }
  return text;
}

std::string profile_differences(const EnvironmentProfile& before, const EnvironmentProfile& now) {
  std::vector<std::string> changed;
  const auto compare = [&](std::string_view field, const std::string& a, const std::string& b) {
    if (a != b) {
      changed.push_back(
          fmt::format("{} '{}' → '{}'", field, a.empty() ? "none" : a, b.empty() ? "none" : b));
    }
  };
  compare("framework", before.framework, now.framework);
  compare("build", before.build, now.build);
  compare("CPU", before.cpu, now.cpu);
  compare("machine", before.machine, now.machine);
  if (before.threads != now.threads) {
    changed.push_back(fmt::format("threads {} → {}", before.threads, now.threads));
  }
  compare("GPU", before.gpu, now.gpu);
  return fmt::format("{}", fmt::join(changed, "; "));
}

}  // namespace mlregress::internal
