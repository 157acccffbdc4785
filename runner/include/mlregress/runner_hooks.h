// The seam between the torch-free core and a framework layer: the core calls these hooks so that
// seeding, thread control and the framework's environment probe live outside it.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>

#include "mlregress/determinism_mode.h"

namespace mlregress {

struct RunnerHooks {
  /// Runs in the test's process right before each test body: seed every RNG, fix threads.
  std::function<void(std::uint64_t seed, int threads)> before_each_test;
  /// Runs right after before_each_test, before every test: asks the framework for this test's
  /// determinism (the run's --determinism, or the test's own "determinism" parameter). Every test
  /// sets it afresh, so one test's mode never reaches the next in the same process.
  std::function<void(DeterminismMode mode)> apply_determinism;
  /// Describes the framework (version, build, devices, threads); stored in environment.json.
  /// Called in a child process, so that the runner itself never initialises a device (CUDA
  /// cannot be used in a process forked after it was initialised).
  std::function<nlohmann::json()> probe_framework;
};

/// Entry point of a test binary: parses the command line, runs or lists tests, returns the
/// ExitCode as an int. `main` should do nothing else.
int run_main(int argc, char** argv, const RunnerHooks& hooks);

}  // namespace mlregress
