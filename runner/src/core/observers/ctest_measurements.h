// Each metric as a <CTestMeasurement> line on stdout, once the run has decided its verdicts,
// so that `ctest -T Test` stores it as a NamedMeasurement of the ctest test and CDash shows it
// beside the test (ctest takes such tags out of the output it keeps). mlregress_discover_tests
// turns it on with `run --ctest-measurements`.
//
//   <CTestMeasurement type="numeric/double" name="final_loss">0.000246</CTestMeasurement>
//   <CTestMeasurement type="numeric/double" name="final_loss baseline">0.00025</CTestMeasurement>
//   <CTestMeasurement type="text/string" name="final_loss verdict">PASS</CTestMeasurement>
//
// A ctest test runs one ML test, so names are the metric's; a run of several tests prefixes
// them with the test's name.
#pragma once

#include <cstdio>

#include "execution/run_observer.h"

namespace mlregress::internal {

class CTestMeasurementReporter final : public RunObserver {
 public:
  explicit CTestMeasurementReporter(std::FILE* out) : out_(out) {}
  void on_run_end(const RunResult& run) override;

 private:
  std::FILE* out_;
};

}  // namespace mlregress::internal
