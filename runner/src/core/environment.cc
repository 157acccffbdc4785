#include "environment.h"

#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

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

}  // namespace

nlohmann::json probe_environment(const GitInfo& git) {
  utsname os{};
  ::uname(&os);
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  return {
      {"cpu", {{"model", cpu_model()}, {"logical_cores", std::thread::hardware_concurrency()}}},
      {"os", {{"name", os.sysname}, {"release", os.release}, {"machine", os.machine}}},
      {"hostname", host},
      {"compiler", {{"id", compiler()}, {"flags", MLREGRESS_CXX_FLAGS},
                    {"build_type", MLREGRESS_BUILD_TYPE}}},
      {"git", {{"commit", git.commit}, {"dirty", git.dirty}}},
  };
}

}  // namespace mlregress::internal
