#include "observers/test_report.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/capability.h"
#include "analysis/failure_rate_gate.h"
#include "statistics/moments.h"
#include "support/number_format.h"

namespace mlregress::internal {

std::string format_metric(const MetricRecord& metric) {
  std::string direction(direction_name(metric.direction));
  for (char& c : direction) c = c == '_' ? ' ' : c;
  std::string policy;
  if (const Band* band = std::get_if<Band>(&metric.policy)) {
    policy =
        fmt::format("; band rtol={} atol={}", format_value(band->rtol), format_value(band->atol));
  } else if (std::holds_alternative<Exact>(metric.policy)) {
    policy = "; exact";
  } else if (const Margin* margin = std::get_if<Margin>(&metric.policy)) {
    policy = fmt::format("; margin {}", format_value(margin->delta));
  } else if (const Timing* timing = std::get_if<Timing>(&metric.policy)) {
    policy = fmt::format("; timing, cv {:.1f}%", timing->cv * 100.0);
  } else if (const FailureRate* rate = std::get_if<FailureRate>(&metric.policy)) {
    // Outcomes: how many of them were failures says more than a mean and an sd.
    const FailureCount count = count_failures(metric.samples, metric.direction);
    return fmt::format("{} = {} of {} failed ({:.1f}%; failure rate, a rise to {:g}% gated)",
                       metric.name, count.failures, count.trials,
                       count.trials == 0 ? 0.0 : 100.0 * count.failures / count.trials,
                       100.0 * rate->detect);
  }
  if (metric.target) policy = "; capability, target " + target_text(*metric.target);
  if (!metric.samples.empty() || !metric.sample_seeds.empty()) {
    const stats::SampleSummary s = stats::summarize_samples(metric.samples);
    return fmt::format("{} = mean {}, sd {}, n {} ({}{})", metric.name, format_value(s.mean),
                       format_value(s.sd), s.n, direction, policy);
  }
  return fmt::format("{} = {} ({}{})", metric.name, format_value(metric.value), direction, policy);
}

std::string format_test_report(const TestResult& test) {
  std::string out = fmt::format("{} [{}] {} in {:.3f} s\n", test.full_name, tier_name(test.tier),
                                test_status_name(test.status), test.duration_s);
  if (!test.crash_message.empty()) out += fmt::format("crash: {}\n", test.crash_message);
  if (!test.skip_message.empty()) out += fmt::format("skipped: {}\n", test.skip_message);
  for (const TestFailure& failure : test.failures) {
    out += failure.file.empty() ? "failure:\n"
                                : fmt::format("failure at {}:{}:\n", failure.file, failure.line);
    out += failure.message + "\n";
  }
  for (const MetricRecord& metric : test.metrics) out += "metric " + format_metric(metric) + "\n";
  for (const RecordedCurve& curve : test.curves) {
    out += fmt::format("curve {}: {} points -> {}\n", curve.curve.name, curve.curve.values.size(),
                       curve.csv_file);
  }
  out += fmt::format("seed {}, threads {}, config {}\n", test.seed, test.threads, test.config_hash);
  return out;
}

std::string format_capabilities(const TestResult& test) {
  std::string out;
  for (const MetricRecord& metric : test.metrics) {
    if (!metric.target) continue;
    const auto rate = test.capability_rates.find(metric.name);
    out += fmt::format("capability {} {}\n", metric.name,
                       describe_capability(metric, rate == test.capability_rates.end()
                                                       ? std::nullopt
                                                       : std::optional(rate->second)));
  }
  return out;
}

}  // namespace mlregress::internal
