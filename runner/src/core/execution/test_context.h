// The state of the test that is running in this process: which test, its resolved parameters,
// its seed and threads, and where its events go. MlTest's static helpers read it.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "execution/event_sink.h"
#include "mlregress/determinism_mode.h"
#include "mlregress/seeds.h"
#include "registry/test_registry.h"

namespace mlregress::internal {

struct TestContext {
  const RegisteredTest* test = nullptr;
  const ResolvedParams* params = nullptr;
  std::uint64_t seed = 0;
  int threads = 1;
  EventSink* sink = nullptr;
  bool seeded = false;   ///< one seed of an ML_SEED_TEST: metrics are per-seed samples
  bool attempt = false;  ///< one attempt of a flaky-aware test: its failure_rate is the runner's
  std::string variant;   ///< its variant's name, "" when none
  std::string method;    ///< a random_search() trial's method, "" otherwise
  DeterminismMode determinism = DeterminismMode::Warn;  ///< the mode the test runs under
  std::uint64_t first_seed = 0;            ///< a seeded test's first seed: where held streams stay
  std::vector<SeedStream> held;            ///< randomness_study(): the streams this variant holds
  std::map<std::string, double> recorded;  ///< the metrics recorded so far, by name
  std::set<std::string> broken_down;       ///< the metrics given a breakdown so far
};

/// The running test's context; nullptr outside a test body.
TestContext* current_test_context();
void set_current_test_context(TestContext* context);

}  // namespace mlregress::internal
