#include "renderers/openmetrics_report.h"

#include <fmt/format.h>

#include <cmath>

namespace mlregress::internal {
namespace {

// Label values escape backslash, double quote and line feed (OpenMetrics ABNF).
std::string label_value(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

// Shortest round-trip form; the spellings OpenMetrics gives non-finite numbers.
std::string sample_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

struct Family {
  std::string name, help;
  std::string samples;
};

void add(Family& family, const std::string& labels, double value) {
  family.samples += fmt::format("{}{{{}}} {}\n", family.name, labels, sample_value(value));
}

std::string test_labels(const TestResult& test) {
  return fmt::format("test=\"{}\"", label_value(test.full_name));
}

std::string metric_labels(const TestResult& test, const std::string& metric) {
  return fmt::format("test=\"{}\",metric=\"{}\"", label_value(test.full_name), label_value(metric));
}

}  // namespace

std::string render_openmetrics_report(const RunReport& r) {
  Family value{"mlregress_metric", "Value a test recorded (seeded tests: the mean over seeds)", ""};
  Family baseline{"mlregress_metric_baseline", "The baseline's value of the metric", ""};
  Family regression{"mlregress_metric_regression", "1 when the metric regressed, else 0", ""};
  Family duration{"mlregress_test_duration_seconds", "Wall time of the test in seconds", ""};
  Family passed{"mlregress_test_passed", "1 when the test passed, else 0", ""};
  Family tests{"mlregress_tests", "Tests of the run by status", ""};
  Family info{"mlregress_run_info", "The run this file describes", ""};

  for (const TestSection& s : r.sections) {
    const TestResult& t = s.test;
    for (const MetricRecord& m : t.metrics) add(value, metric_labels(t, m.name), m.value);
    // Predictions and gated curves are values too, though not in `metrics`: their value is the
    // recorded accuracy, and a compared curve's last point after its smoothing (results.json's
    // "value"), so that no baseline or regression sample stands without its value.
    for (const RecordedPredictions& p : t.predictions)
      add(value, metric_labels(t, p.name), p.accuracy);
    for (const MetricComparison& c : t.comparisons) {
      if (c.kind == MetricKind::kCurve) add(value, metric_labels(t, c.metric), c.observed);
    }
    for (const MetricComparison& c : t.comparisons) {
      if (c.baseline) add(baseline, metric_labels(t, c.metric), *c.baseline);
      add(regression, metric_labels(t, c.metric), c.verdict == Verdict::kRegression ? 1.0 : 0.0);
    }
    add(duration, test_labels(t), t.duration_s);
    add(passed, test_labels(t), t.status == TestStatus::kPassed ? 1.0 : 0.0);
  }
  const ReportCounts& c = r.counts;
  for (const auto& [status, n] :
       {std::pair{"passed", c.passed}, std::pair{"failed", c.failed},
        std::pair{"skipped", c.skipped}, std::pair{"crashed", c.crashed},
        std::pair{"regressed", c.regressed}, std::pair{"timed_out", c.timed_out}}) {
    add(tests, fmt::format("status=\"{}\"", status), static_cast<double>(n));
  }
  add(info,
      fmt::format("run=\"{}\",binary=\"{}\",commit=\"{}\",profile=\"{}\"",
                  label_value(r.info.run_id), label_value(r.info.binary), label_value(r.commit),
                  label_value(r.info.environment_profile)),
      1.0);

  std::string out;
  for (const Family* family : {&value, &baseline, &regression, &duration, &passed, &tests, &info}) {
    if (family->samples.empty()) continue;
    out += fmt::format("# TYPE {} gauge\n# HELP {} {}\n{}", family->name, family->name,
                       family->help, family->samples);
  }
  return out + "# EOF\n";
}

}  // namespace mlregress::internal
