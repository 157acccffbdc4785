#include "environment/environment_profile.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <sstream>

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

std::string string_at(const nlohmann::json& json, const char* pointer) {
  const nlohmann::json::json_pointer at(pointer);
  return json.contains(at) && json.at(at).is_string() ? json.at(at).get<std::string>() : "";
}

// "  - CPU capability usage: AVX512" in at::show_config(), which every LibTorch since 1.x prints.
std::string capability_from_build_config(const std::string& config) {
  constexpr std::string_view kLabel = "CPU capability usage:";
  const std::size_t at = config.find(kLabel);
  if (at == std::string::npos) return "";
  std::size_t begin = at + kLabel.size();
  while (begin < config.size() && config[begin] == ' ') ++begin;
  std::size_t end = begin;
  while (end < config.size() && std::isalnum(static_cast<unsigned char>(config[end]))) ++end;
  return config.substr(begin, end - begin);
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// "AuthenticAMD avx avx2 avx512f" → "GenuineIntel avx avx2": "vendor 'AuthenticAMD' →
// 'GenuineIntel', −avx512f"; a list of forty extensions would hide the one that moved.
std::string isa_differences(const std::string& before, const std::string& now) {
  // The vendor is the first word, the extensions the rest (profile.isa's form).
  const auto split = [](const std::string& isa) {
    std::istringstream in(isa);
    std::string vendor;
    in >> vendor;
    std::set<std::string> extensions;
    for (std::string word; in >> word;) extensions.insert(word);
    return std::pair{vendor, extensions};
  };
  const auto [vendor_a, a] = split(before);
  const auto [vendor_b, b] = split(now);
  std::vector<std::string> parts;
  if (vendor_a != vendor_b) parts.push_back(fmt::format("vendor '{}' → '{}'", vendor_a, vendor_b));
  for (const std::string& gone : a) {
    if (!b.contains(gone)) parts.push_back("−" + gone);
  }
  for (const std::string& added : b) {
    if (!a.contains(added)) parts.push_back("+" + added);
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

std::string short_hash(const nlohmann::json& fields) {
  return fmt::format("{:08x}", fnv1a_64(json_text(fields)) >> 32);
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
  p.gpu = string_at(environment, "/framework/cuda/devices/0/name");
  p.capability = string_at(environment, "/framework/cpu_capability");
  if (p.capability.empty()) {
    p.capability = capability_from_build_config(string_at(environment, "/framework/build_config"));
  }
  const nlohmann::json::json_pointer pins("/cpu/kernel_pins");
  if (environment.contains(pins) && environment.at(pins).is_object()) {
    for (const auto& [name, value] : environment.at(pins).items()) {
      p.pins += fmt::format("{}{}={}", p.pins.empty() ? "" : " ", name,
                            value.is_string() ? value.get<std::string>() : json_text(value));
    }
  }
  const nlohmann::json::json_pointer isa("/cpu/isa");
  if (environment.contains(isa) && environment.at(isa).is_array() && !environment.at(isa).empty()) {
    p.isa = string_at(environment, "/cpu/vendor");
    for (const nlohmann::json& extension : environment.at(isa)) {
      if (extension.is_string()) p.isa += " " + extension.get<std::string>();
    }
  }
  const std::string kind = p.build == "none" ? "env" : p.build;
  nlohmann::json fields{p.framework, p.build, p.cpu, p.machine, p.threads};
  // A baseline measured on an H100 is another profile than one from an A100.
  if (!p.gpu.empty()) fields.push_back(p.gpu);
  p.id = fmt::format("{}-{}", kind, short_hash(fields));
  if (p.capability.empty() || p.isa.empty()) {
    p.numerics_id = p.id;  // without them only the machine says which kernels ran
  } else {
    nlohmann::json numerics{"numerics", p.framework, p.build,  p.capability,
                            p.isa,      p.machine,   p.threads};
    if (!p.gpu.empty()) numerics.push_back(p.gpu);
    // Left out when empty, so unpinned runs keep the ids they have.
    if (!p.pins.empty()) numerics.push_back(p.pins);
    p.numerics_id = fmt::format("{}-{}-{}", kind, lower(p.capability), short_hash(numerics));
  }
  return p;
}

EnvironmentProfile machine_profile(const EnvironmentProfile& profile) {
  EnvironmentProfile p = profile;
  p.numerics_id.clear();
  return p;
}

EnvironmentProfile numerics_profile(const EnvironmentProfile& profile) {
  EnvironmentProfile p = profile;
  p.numerics_id.clear();
  if (profile.numerics_id == profile.id) return p;
  p.id = profile.numerics_id;
  p.cpu.clear();
  return p;
}

std::string describe_environment_change(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now) {
  auto same = [](const std::string& a, const std::string& b) {
    return a == b ? "same" : "changed";
  };
  std::string text = fmt::format(
      "framework {} · build {} · CPU {}", same(before.framework, now.framework),
      same(before.build, now.build), before.cpu.empty() ? "any" : same(before.cpu, now.cpu));
  if (!before.capability.empty() && !now.capability.empty()) {
    text += fmt::format(" · capability {}", same(before.capability, now.capability));
  }
  text += fmt::format(" · threads {}", before.threads == now.threads ? "same" : "changed");
  if (!before.gpu.empty() || !now.gpu.empty()) {
    text += before.gpu == now.gpu
                ? " · GPU same"
                : fmt::format(" · GPU changed ({} → {})", before.gpu.empty() ? "none" : before.gpu,
                              now.gpu.empty() ? "none" : now.gpu);
  }
  return text;
}

std::vector<ProfileFieldDifference> profile_field_differences(const EnvironmentProfile& before,
                                                              const EnvironmentProfile& now) {
  // Every field, bound by name: a field added to EnvironmentProfile fails to compile here until
  // it is compared below (with its group) or named as not compared.
  const auto& [id, numerics_id, framework, build, cpu, machine, threads, gpu, capability, isa,
               pins] = now;
  static_cast<void>(id);           // not compared: a hash of the fields compared below
  static_cast<void>(numerics_id);  // the same
  using enum ProfileFieldGroup;
  std::vector<ProfileFieldDifference> changed;
  const auto compare = [&](ProfileFieldGroup group, std::string_view field, const std::string& a,
                           const std::string& b) {
    if (a != b) {
      changed.push_back({group, fmt::format("{} '{}' → '{}'", field, a.empty() ? "none" : a,
                                            b.empty() ? "none" : b)});
    }
  };
  compare(kKernels, "framework", before.framework, framework);
  compare(kKernels, "build", before.build, build);
  if (!before.cpu.empty()) compare(kMachine, "CPU", before.cpu, cpu);
  if (!before.capability.empty()) compare(kKernels, "capability", before.capability, capability);
  compare(kKernels, "kernel pins", before.pins, pins);
  if (!before.isa.empty() && before.isa != isa) {
    changed.push_back({kKernels, "instruction sets " + isa_differences(before.isa, isa)});
  }
  compare(kMachine, "machine", before.machine, machine);
  if (before.threads != threads) {
    changed.push_back({kMachine, fmt::format("threads {} → {}", before.threads, threads)});
  }
  compare(kKernels, "GPU", before.gpu, gpu);
  return changed;
}

std::string profile_differences(const EnvironmentProfile& before, const EnvironmentProfile& now,
                                std::optional<ProfileFieldGroup> group) {
  std::vector<std::string> texts;
  for (ProfileFieldDifference& d : profile_field_differences(before, now)) {
    if (!group || d.group == *group) texts.push_back(std::move(d.text));
  }
  return fmt::format("{}", fmt::join(texts, "; "));
}

}  // namespace mlregress::internal
