// What the end-to-end tests of a fixture binary (tests/fixture) share: the binary run in a
// private temporary folder as a user would run it, the lookups into the results.json it writes,
// and the names the tests use unqualified.
#pragma once

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "process.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {

using nlohmann::json;
using test_support::read_file;
using test_support::TempDir;
using ::testing::HasSubstr;

/// Runs `binary` with `args` in `folder`, after the VAR=value words of `environment`. It records
/// the git state of `folder` (MLREGRESS_REPO), which is no git work tree: the developer's
/// uncommitted changes must not make promote refuse the runs these tests make.
ProcessResult run_fixture_in(const std::string& folder, const std::string& binary,
                             const std::string& args, const std::string& environment = "");

/// The test called `name` in a results.json document. By value: callers often pass a temporary.
json test_named(const json& document, const std::string& name);

/// The metric called `name` of a test in results.json.
json metric_named(const json& test, const std::string& name);

/// Whether the JUnit file at `path` validates against tests/junit_schema/junit-10.xsd (xmllint).
::testing::AssertionResult junit_validates(const std::string& path);

/// How often `what` occurs in `text` (overlapping occurrences counted).
std::size_t count(const std::string& text, const std::string& what);

/// A test of one fixture binary, run in this test's temporary folder.
class FixtureBinaryTest : public ::testing::Test {
 protected:
  explicit FixtureBinaryTest(std::string binary) : binary_(std::move(binary)) {}

  ProcessResult fixture(const std::string& args) { return fixture(args, environment_); }
  ProcessResult fixture(const std::string& args, const std::string& environment) {
    return run_fixture_in(temp_.path(), binary_, args, environment);
  }
  std::string baselines() const { return temp_.path() + "/baselines"; }

  TempDir temp_;
  std::string environment_;  ///< more VAR=value words for the fixture's environment

 private:
  std::string binary_;
};

}  // namespace mlregress::e2e
