// report.html of an A/B timing folder (`run --ab`, ab.json): per timing metric the cost ratio of
// every round (candidate / other; above 1 the candidate was slower), the median with its
// interval against 1 and the margin, the Wilcoxon p-value and the verdict.
#pragma once

#include <string>

namespace mlregress::internal {

/// Reads `folder`/ab.json (and environment.json when present). Throws RunFolderError naming the
/// file and field of anything malformed.
std::string render_ab_html_report(const std::string& folder);

}  // namespace mlregress::internal
