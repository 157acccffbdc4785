// The plain-text account of one test: its metrics, curves and conditions. The console prints
// metric lines from it and the JUnit testcase carries it whole in system-out.
#pragma once

#include <string>

#include "record/run_result.h"
#include "support/number_format.h"

namespace mlregress::internal {

/// "final_loss = 0.000213 (lower is better; band rtol=0.5 atol=0.001)"
std::string format_metric(const MetricRecord& metric);

/// One line per capability of the test (a metric with a target), with its rate over the history
/// when the run knows it: "capability accuracy NOT MET: 0.8 (target > 0.9); met 3 of 10 runs (95%
/// CI 11%–60%)\n". Empty when the test has none.
std::string format_capabilities(const TestResult& test);

/// Multi-line report: status, failures, metrics, curves, seed, threads, config hash.
std::string format_test_report(const TestResult& test);

}  // namespace mlregress::internal
