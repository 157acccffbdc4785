// The regression report of one test, in the seeds' format:
//
//   RUN: <run id>          BASELINE: <file> v<version> (<commit>, <date>)
//   METRIC        final_loss   0.0002 → 0.031   +0.0308 (+15400%)   band ±0.0011   REGRESSION
//   ENVIRONMENT   framework same · build same · CPU same · threads same · config same
#pragma once

#include <string>

#include "record/run_result.h"

namespace mlregress::internal {

/// One line per comparison; empty when the test was not compared with a baseline.
std::string format_regression_report(const std::string& run_id, const TestResult& test);

/// "final_loss 0.031 vs baseline 0.0002 (+0.0308, +15400%; band ±0.0011)"
std::string format_comparison_summary(const MetricComparison& c);

/// "+0.0308 (+15400%)"
std::string format_delta(const MetricComparison& c);

/// The comparison's note, the operators behind the change ("operators: aten::mul +2 calls
/// (100%)") and, when the baseline was promoted with another direction, "the test now says
/// higher_is_better, the baseline lower_is_better; promote to adopt". Empty when none.
std::string comparison_note(const MetricComparison& c);

}  // namespace mlregress::internal
