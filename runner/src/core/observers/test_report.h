// The plain-text account of one test: its metrics, curves and conditions. The console prints
// metric lines from it and the JUnit testcase carries it whole in system-out.
#pragma once

#include <string>

#include "record/run_result.h"
#include "support/number_format.h"

namespace mlregress::internal {

/// "final_loss = 0.000213 (lower is better; band rtol=0.5 atol=0.001)"
std::string format_metric(const MetricRecord& metric);

/// Multi-line report: status, failures, metrics, curves, seed, threads, config hash.
std::string format_test_report(const TestResult& test);

}  // namespace mlregress::internal
