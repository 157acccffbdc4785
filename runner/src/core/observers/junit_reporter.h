// JUnit XML that the Jenkins xunit plugin's junit-10.xsd accepts: one <testsuite> per tier, one
// <testcase> per test, failures naming the failing assertion, the test's report in system-out.
// The file is rewritten (atomically) after every test, so a run that dies keeps what finished.
#pragma once

#include <string>
#include <utility>

#include "observers/run_document_writer.h"

namespace mlregress::internal {

/// The JUnit document for a run, as text. Exposed for golden-file tests.
std::string render_junit(const RunResult& run);

/// Seconds with exactly three decimals and no exponent, whatever the locale: "12.345".
std::string junit_seconds(double seconds);

/// The run's JUnit document, rewritten after every test (the path may be the run folder's
/// junit.xml or the --junit copy).
class JunitReporter final : public RunDocumentWriter {
 public:
  explicit JunitReporter(std::string path) : RunDocumentWriter(std::move(path), render_junit) {}
};

}  // namespace mlregress::internal
