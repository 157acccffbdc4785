#include "e2e_fixture.h"

#include <stdexcept>

namespace mlregress::e2e {

ProcessResult run_fixture_in(const std::string& folder, const std::string& binary,
                             const std::string& args, const std::string& environment) {
  const std::string variables = environment.empty() ? "" : environment + " ";
  return run_command("cd " + folder + " && MLREGRESS_REPO=" + folder + " " + variables + binary +
                     " " + args);
}

json test_named(const json& document, const std::string& name) {
  for (const json& test : document.at("tests")) {
    if (test.at("name") == name) return test;
  }
  throw std::runtime_error("no test " + name + " in results.json");
}

json metric_named(const json& test, const std::string& name) {
  for (const json& metric : test.at("metrics")) {
    if (metric.at("name") == name) return metric;
  }
  throw std::runtime_error("no metric " + name);
}

::testing::AssertionResult junit_validates(const std::string& path) {
  const ProcessResult lint =
      run_command("xmllint --noout --schema " + std::string(MLREGRESS_JUNIT_XSD) + " " + path);
  if (lint.exit_code == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "xmllint rejects " << path << ":\n" << lint.err;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

}  // namespace mlregress::e2e
