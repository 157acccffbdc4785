// The shared harness of the end-to-end tests: runs the fixture binary (tests/fixture) with a
// private runs folder and reads back what it wrote.
#pragma once

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {

inline constexpr int kPassed = 0, kTestFailed = 1, kNoTestsMatched = 3, kUsageError = 4,
                     kOutputError = 5, kAllSkipped = 77, kRegression = 2, kBaselineError = 6,
                     kRunFolderError = 7, kPromotionRefused = 8, kNotGated = 11;

class FixtureRunnerTest : public ::testing::Test {
 protected:
  // Runs in the temporary folder and records its git state (MLREGRESS_REPO), which is no git work
  // tree: the developer's uncommitted changes must not make promote refuse the runs these tests
  // make.
  ProcessResult fixture(const std::string& args) {
    return run_command("cd " + temp_.path() + " && MLREGRESS_REPO=" + temp_.path() + " " +
                       environment_ + " " + std::string(MLREGRESS_FIXTURE_BINARY) + " " + args);
  }
  // `run` with the given arguments, writing under this test's temporary runs folder.
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --out " + runs() + " " + args);
  }
  std::string runs() const { return temp_.path() + "/runs"; }
  std::string latest() const { return runs() + "/latest"; }
  nlohmann::json results() const {
    return nlohmann::json::parse(test_support::read_file(latest() + "/results.json"));
  }
  // By value: callers often pass the temporary from results().
  nlohmann::json test_named(const nlohmann::json& document, const std::string& name) const {
    for (const nlohmann::json& test : document.at("tests")) {
      if (test.at("name") == name) return test;
    }
    throw std::runtime_error("no test " + name + " in results.json");
  }
  ::testing::AssertionResult junit_validates(const std::string& path) const {
    const ProcessResult lint =
        run_command("xmllint --noout --schema " + std::string(MLREGRESS_JUNIT_XSD) + " " + path);
    if (lint.exit_code == 0) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "xmllint rejects " << path << ":\n" << lint.err;
  }

  test_support::TempDir temp_;
  std::string environment_;  ///< more VAR=value words for the fixture's environment
};

}  // namespace mlregress::e2e
