#include "analysis/capability.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "statistics/wilson.h"
#include "support/number_format.h"

namespace mlregress::internal {

CapabilityRate capability_rate(int met, int runs) {
  const stats::ProportionInterval interval = stats::wilson_interval(met, runs);
  return {met, runs, interval.lower, interval.upper};
}

std::string target_text(const Target& target) {
  return fmt::format("{} {}", target.direction == Direction::HigherIsBetter ? ">" : "<",
                     format_value(target.threshold));
}

std::string_view capability_outcome_name(bool met) { return met ? "MET" : "NOT MET"; }

std::string describe_capability(const MetricRecord& metric,
                                const std::optional<CapabilityRate>& rate) {
  const Target target = metric.target.value_or(Target{});
  std::string text =
      fmt::format("{}: {} (target {})", capability_outcome_name(target_met(target, metric.value)),
                  format_value(metric.value), target_text(target));
  if (rate && rate->runs > 0) {
    text += fmt::format("; met {} of {} run{} (95% CI {:.0f}%–{:.0f}%)", rate->met, rate->runs,
                        rate->runs == 1 ? "" : "s", 100.0 * rate->lower, 100.0 * rate->upper);
  }
  return text;
}

namespace {

// The lower Wilson bound of the last `window` outcomes (all when fewer), and how many met.
std::pair<int, double> window_bound(const std::vector<bool>& outcomes, int window, int& runs) {
  const auto size = static_cast<int>(outcomes.size());
  runs = std::min(window, size);
  const int met = static_cast<int>(std::count(outcomes.end() - runs, outcomes.end(), true));
  return {met, stats::wilson_interval(met, runs).lower};
}

bool enough(const std::vector<bool>& outcomes, int window, double threshold) {
  int runs = 0;
  const double lower = window_bound(outcomes, window, runs).second;
  return runs >= window && lower >= threshold;
}

}  // namespace

GraduationEvidence judge_graduation(const std::vector<bool>& outcomes, int window,
                                    double threshold) {
  if (window < 2) {
    throw std::invalid_argument(
        fmt::format("graduation needs a window of at least 2 runs, not {}", window));
  }
  if (!(threshold > 0.0 && threshold < 1.0)) {
    throw std::invalid_argument(
        fmt::format("the lower-bound threshold must be between 0 and 1, not {}", threshold));
  }
  GraduationEvidence e;
  e.window = window;
  e.threshold = threshold;
  std::tie(e.met, e.lower) = window_bound(outcomes, window, e.runs);
  e.graduates = enough(outcomes, window, threshold);
  if (e.graduates) return e;
  // Runs that meet the target from now on: after `window` of them the window holds nothing else.
  std::vector<bool> extended = outcomes;
  for (int more = 1; more <= window; ++more) {
    extended.push_back(true);
    if (enough(extended, window, threshold)) {
      e.more_met_runs_needed = more;
      break;
    }
  }
  return e;
}

std::string graduation_refusal(const GraduationEvidence& e) {
  std::string text = fmt::format(
      "met {} of the last {} run{} (a window of {}); the lower 95% Wilson bound of its success "
      "rate is {:.3f}, ",
      e.met, e.runs, e.runs == 1 ? "" : "s", e.window, e.lower);
  if (e.runs < e.window) {
    text += fmt::format("and the window needs {} recorded runs; ", e.window);
  } else {
    text += fmt::format("below the threshold {:g}; ", e.threshold);
  }
  if (e.more_met_runs_needed) {
    text += fmt::format("{} more run{} meeting the target in a row {} needed",
                        *e.more_met_runs_needed, *e.more_met_runs_needed == 1 ? "" : "s",
                        *e.more_met_runs_needed == 1 ? "is" : "are");
  } else {
    text += fmt::format(
        "even {} of {} would not reach {:g}: give a longer --last or a lower --min-lower-bound",
        e.window, e.window, e.threshold);
  }
  return text;
}

}  // namespace mlregress::internal
