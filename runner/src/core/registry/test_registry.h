// Every ML_TEST of the binary, collected during static initialisation. Registration errors are
// kept rather than thrown (nothing may throw before main) and reported when the binary starts.
#pragma once

#include <string>
#include <vector>

#include "mlregress/attempts.h"
#include "mlregress/param.h"
#include "mlregress/registration.h"
#include "mlregress/seeds.h"
#include "mlregress/tier.h"

namespace mlregress::internal {

struct RegisteredTest {
  Tier tier = Tier::Fast;
  std::string tier_token;  ///< as written in ML_TEST ("Fast"): GoogleTest's suite name
  std::string name;        ///< the test's own name, unique in the binary
  std::string file;
  int line = 0;
  ParamSpecs params;
  TestFactory factory = nullptr;
  Seeds seeds{0};           ///< ML_SEED_TEST: count > 0; the body runs once per (variant, seed)
  bool timing = false;      ///< ML_TIMING_TEST: records timings; `run --ab` interleaves it
  bool capability = false;  ///< ML_CAPABILITY_TEST: its targets are reported, never failing it
  /// ML_FLAKY_TEST: block > 0; the body runs as attempts and its failure rate is gated.
  Attempts attempts{0};

  bool seeded() const { return seeds.count() > 0; }
  bool flaky() const { return attempts.block() > 0; }

  /// GoogleTest's full name, "Fast.CnnOverfitsOneBatch".
  std::string full_name() const { return tier_token + "." + name; }
  const ParamSpec* find_param(std::string_view key) const;
};

class TestRegistry {
 public:
  static TestRegistry& instance();

  void add(RegisteredTest test);
  const std::vector<RegisteredTest>& tests() const { return tests_; }
  const std::vector<std::string>& errors() const { return errors_; }
  void add_error(std::string message) { errors_.push_back(std::move(message)); }
  const RegisteredTest* find(std::string_view name) const;
  /// The source file of every test, as the build recorded it (__FILE__), in registration order.
  std::vector<std::string> source_files() const;

 private:
  std::vector<RegisteredTest> tests_;
  std::vector<std::string> errors_;
};

}  // namespace mlregress::internal
