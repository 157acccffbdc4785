// The seam between the torch-free core and a framework layer: the core calls these hooks so that
// seeding, thread control and the framework's environment probe live outside it.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>

namespace mlregress {

struct RunnerHooks {
  /// Runs in the test's process right before each test body: seed every RNG, fix threads.
  std::function<void(std::uint64_t seed, int threads)> before_each_test;
  /// Describes the framework (version, build, devices, threads); stored in environment.json.
  /// Called in a child process, so that the runner itself never initialises a device (CUDA
  /// cannot be used in a process forked after it was initialised).
  std::function<nlohmann::json()> probe_framework;
};

/// Entry point of a test binary: parses the command line, runs or lists tests, returns the
/// ExitCode as an int. `main` should do nothing else.
int run_main(int argc, char** argv, const RunnerHooks& hooks);

}  // namespace mlregress
