#include "environment/environment_probe.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "environment/cpu_isa.h"
#include "environment/kernel_paths.h"
#include "record/json_text.h"
#include "support/errors.h"
#include "support/forked_child.h"

#ifndef MLREGRESS_CXX_FLAGS
#define MLREGRESS_CXX_FLAGS "unknown"
#endif
#ifndef MLREGRESS_BUILD_TYPE
#define MLREGRESS_BUILD_TYPE "unknown"
#endif

namespace mlregress::internal {
namespace {

std::string cpu_model() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      const std::size_t colon = line.find(':');
      if (colon != std::string::npos) return line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

std::string compiler() {
#if defined(__clang__)
  return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
  return std::string("gcc ") + __VERSION__;
#else
  return "unknown";
#endif
}

// Calls `probe` in a child process and returns what it returned (an object with an "error" key
// if the child failed).
nlohmann::json probe_in_child_process(const std::function<nlohmann::json()>& probe) {
  const ForkedChild child = fork_child([&](int output_fd) {
    nlohmann::json answer;
    try {
      answer = probe();
    } catch (const std::exception& error) {
      answer = {{"error", error.what()}};
    }
    write_line(output_fd, json_text(answer));
    return 0;
  });
  std::string output;
  read_lines(child.output_fd, [&](const std::string& line) { output = line; });
  ::close(child.output_fd);
  const int status = wait_for_child(child.pid);
  nlohmann::json result = nlohmann::json::parse(output, nullptr, /*allow_exceptions=*/false);
  if (result.is_discarded()) {
    return {{"error", "framework probe: " + describe_wait_status(status, "the probe process")}};
  }
  return result;
}

// MLREGRESS_ENVIRONMENT_OVERRIDE: a JSON object merged over what was probed (RFC 7386: a key
// set to null is removed). For a machine the probe describes badly, and for checking that
// nothing a run decides depends on the machine it ran on.
void apply_environment_override(nlohmann::json& environment) {
  const char* text = std::getenv("MLREGRESS_ENVIRONMENT_OVERRIDE");
  if (text == nullptr || *text == '\0') return;
  const nlohmann::json patch = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (patch.is_discarded() || !patch.is_object()) {
    throw ConfigError(std::string("MLREGRESS_ENVIRONMENT_OVERRIDE: expected a JSON object such as "
                                  "{\"cpu\": {\"model\": \"...\"}}, got: ") +
                      text);
  }
  environment.merge_patch(patch);
}

}  // namespace

nlohmann::json probe_environment(const GitInfo& git, const RunnerHooks& hooks,
                                 const nlohmann::json& run_section) {
  utsname os{};
  ::uname(&os);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  const CpuIsa isa = probe_cpu_isa();
  nlohmann::json environment = {
      {"cpu",
       {{"model", cpu_model()},
        {"vendor", isa.vendor},
        {"isa", isa.isa},
        {"logical_cores", std::thread::hardware_concurrency()}}},
      {"os", {{"name", os.sysname}, {"release", os.release}, {"machine", os.machine}}},
      {"hostname", host},
      {"compiler",
       {{"id", compiler()}, {"flags", MLREGRESS_CXX_FLAGS}, {"build_type", MLREGRESS_BUILD_TYPE}}},
      {"git", {{"commit", git.commit}, {"dirty", git.dirty}}},
  };
  if (git.untracked_count > 0) {
    environment["git"]["untracked"] = git.untracked;
    environment["git"]["untracked_count"] = git.untracked_count;
  }
  // The variables that change which kernels ATen, oneDNN and MKL run (runner/docs/numerics.md):
  // part of the numerics profile, so a run with them never gates against one without.
  nlohmann::json pins = nlohmann::json::object();
  for (const char* name : kernel_variables()) {
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0') {
      pins[name] = value;
    }
  }
  if (!pins.empty()) environment["cpu"]["kernel_pins"] = pins;
  if (hooks.probe_framework)
    environment["framework"] = probe_in_child_process(hooks.probe_framework);
  if (!run_section.is_null()) environment["run"] = run_section;
  apply_environment_override(environment);
  return environment;
}

}  // namespace mlregress::internal
