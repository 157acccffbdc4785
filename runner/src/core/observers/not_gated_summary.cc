#include "observers/not_gated_summary.h"

#include <fmt/format.h>

namespace mlregress::internal {

std::string not_gated_summary(const RunResult& run) {
  std::size_t ungated = 0, not_comparable = 0;
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;
    for (const MetricComparison& c : test.comparisons) {
      ungated += c.verdict == Verdict::kUngated;
      not_comparable += c.verdict == Verdict::kNotComparable;
    }
  }
  if (ungated + not_comparable == 0) return "";
  const auto metrics = [](std::size_t n) {
    return fmt::format("{} metric{}", n, n == 1 ? "" : "s");
  };
  std::string text = fmt::format("{} not gated on this machine", metrics(ungated + not_comparable));
  const std::string folder = run.info.run_folder.empty() ? "RUN" : run.info.run_folder;
  const std::string baselines = run.info.baselines.empty() ? "DIR" : run.info.baselines;
  if (ungated > 0) {
    text += fmt::format(
        " — {} UNGATED (the baselines hold {} for other environment profiles only): `{} baselines "
        "adopt {} --confirm RUN2 --baselines {} --reason TEXT`, RUN2 a second run on this "
        "machine, adds this machine's values",
        ungated, ungated == 1 ? "it" : "them", run.info.binary, folder, baselines);
  }
  if (not_comparable > 0) {
    text += fmt::format(
        " — {} NOT_COMPARABLE (measured on other data, or another kind of value): promote the run "
        "if the change is intended",
        not_comparable);
  }
  text += run.info.strict_env ? "; --strict-env fails the run on them (exit 11, not_gated)"
                              : "; --strict-env would fail the run on them";
  return text;
}

}  // namespace mlregress::internal
