// A test's scorecard (comparison/scorecard.h) as `compare` prints it and report.html shows it:
//
//   SCORECARD Fast.Experiment (A -> B)
//     metric        A        B        B/A     change   direction         verdict     constraint
//     val_loss      2        2.004    1.002x  +0.2%    lower_is_better   PASS        val_loss <=
//     +0.5%: B 2.004 <= limit 2.01 (A 2 +0.5%) held peak_bytes    1e+06    1.2e+06  1.2x    +20%
//     lower_is_better   REGRESSION  peak_bytes <= 1.10x: B 1.2e+06 > limit 1.1e+06 (1.1 × A 1e+06)
//     VIOLATED improved: none; worse: peak_bytes; constraints violated: peak_bytes <= 1.10x
#pragma once

#include <string>

#include "comparison/scorecard.h"

namespace mlregress::internal {

/// The table above, one line per row, and the summary line; every line but the first indented.
std::string format_scorecard(const TestScorecard& card);

/// "improved: tokens_per_s; worse: none; constraints violated: none", with "; not in B: ..." and
/// "; not evaluated (no value in A, or a ratio to A <= 0): ..." when there are any.
std::string scorecard_summary(const TestScorecard& card);

/// The same as an HTML <table class="scorecard"> and its summary paragraph, every text escaped.
std::string scorecard_html(const TestScorecard& card);

}  // namespace mlregress::internal
