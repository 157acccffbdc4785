// What a test's recorded predictions look like at a glance, from their confusion matrix: the
// accuracy against the majority rate (what always answering the commonest class scores), the
// label balance, the class the predictions crowd into, and the matrix itself. report.html's
// Predictions block and the Markdown summary's Predictions lines. Shows, never decides:
// checks::check_above_class_prior is the check.
#pragma once

#include <string>

#include "record/run_result.h"

namespace mlregress::internal {

/// "<h3>Predictions</h3>" and, per recorded set with a matrix, its summary line and the matrix
/// (rows the true classes with their count and share, columns the predicted ones, the diagonal
/// shaded, a last row of predicted totals; above kConfusionMatrixMaxClasses classes the line
/// only). Empty when no set has a matrix.
std::string predictions_html(const TestResult& test);

/// "eval: accuracy 0.8500 vs majority rate 0.8500 (class 1); predicts class 1 for 100% of 100
/// examples; labels 0: 15%, 1: 85%", the sets joined by "; "; empty when no set has a matrix.
std::string predictions_line(const TestResult& test);

}  // namespace mlregress::internal
