#include "observers/ctest_measurements.h"

#include <fmt/format.h>

#include <cmath>

#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

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
                   std::string(type).c_str(), escape_markup(xml_safe(prefix + name)).c_str(),
                   escape_markup(xml_safe(value)).c_str());
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
