// The shared harness of the end-to-end tests: runs the fixture binary (tests/fixture) with a
// private runs folder and reads back what it wrote.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "e2e_fixture.h"
#include "process.h"
#include "tests/support/files.h"

namespace mlregress::e2e {

inline constexpr int kPassed = 0, kTestFailed = 1, kNoTestsMatched = 3, kUsageError = 4,
                     kOutputError = 5, kAllSkipped = 77, kRegression = 2, kBaselineError = 6,
                     kRunFolderError = 7, kPromotionRefused = 8, kNotGated = 11,
                     kConstraintViolated = 12;

class FixtureRunnerTest : public FixtureBinaryTest {
 protected:
  FixtureRunnerTest() : FixtureBinaryTest(MLREGRESS_FIXTURE_BINARY) {}
  // `run` with the given arguments, writing under this test's temporary runs folder.
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --out " + runs() + " " + args);
  }
  std::string runs() const { return temp_.path() + "/runs"; }
  std::string latest() const { return runs() + "/latest"; }
  nlohmann::json results() const {
    return nlohmann::json::parse(test_support::read_file(latest() + "/results.json"));
  }
};

}  // namespace mlregress::e2e
