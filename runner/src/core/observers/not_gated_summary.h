// The line that ends a run which could not gate everything: how many metrics were UNGATED (the
// baselines hold them for other environment profiles only) or NOT_COMPARABLE (other data), and
// the one command that fixes each. A gate that quietly stops gating on a new runner is the worst
// silent pass, so the console, report.html and the Markdown summary all end with it.
#pragma once

#include <string>

#include "record/run_result.h"

namespace mlregress::internal {

/// "7 metrics not gated on this machine: 7 UNGATED (...) — `suite baselines adopt RUN` ...";
/// empty when every compared metric was gated.
std::string not_gated_summary(const RunResult& run);

}  // namespace mlregress::internal
