// The run's numbers in the OpenMetrics text format (which Prometheus' text parser also reads),
// for GitLab's metrics reports (artifacts:reports:metrics) and any dashboard that scrapes a
// file. Every family is a gauge; labels name the test and metric; the file ends with "# EOF".
//
//   mlregress_metric{test,metric}            the recorded value (seeded: the mean over seeds)
//   mlregress_metric_baseline{test,metric}   the baseline's value, when compared
//   mlregress_metric_regression{test,metric} 1 for a REGRESSION, else 0, when compared
//   mlregress_test_duration_seconds{test}    wall time of the test
//   mlregress_test_passed{test}              1 when the test passed (its body and its metrics)
//   mlregress_tests{status}                  how many tests ended with each status
//   mlregress_run_info{run,binary,commit,profile} 1
#pragma once

#include <string>

#include "renderers/run_report.h"

namespace mlregress::internal {

std::string render_openmetrics_report(const RunReport& report);

}  // namespace mlregress::internal
