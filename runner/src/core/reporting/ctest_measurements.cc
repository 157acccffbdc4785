#include "reporting/ctest_measurements.h"

#include <fmt/format.h>

#include <cmath>

#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

std::string xml_escaped(std::string_view text) {
  std::string out;
  for (char c : xml_safe(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return fmt::format("{}", v);
}

}  // namespace

void CTestMeasurementReporter::on_run_end(const RunResult& run) {
  const bool one_test = run.tests.size() == 1;
  for (const TestResult& test : run.tests) {
    const std::string prefix = one_test ? "" : test.name + ".";
    auto measure = [&](std::string_view type, const std::string& name, const std::string& value) {
      std::fprintf(out_, "<CTestMeasurement type=\"%s\" name=\"%s\">%s</CTestMeasurement>\n",
                   std::string(type).c_str(), xml_escaped(prefix + name).c_str(),
                   xml_escaped(value).c_str());
    };
    for (const MetricRecord& metric : test.metrics) {
      measure("numeric/double", metric.name, number(metric.value));
    }
    for (const MetricComparison& c : test.comparisons) {
      if (c.baseline) measure("numeric/double", c.metric + " baseline", number(*c.baseline));
      measure("text/string", c.metric + " verdict", std::string(verdict_name(c.verdict)));
    }
  }
  std::fflush(out_);
}

}  // namespace mlregress::internal
