#include "reporting/curve_csv_writer.h"

#include <fmt/format.h>

#include <cmath>

#include "support/atomic_file.h"

namespace mlregress::internal {

std::string render_curve_csv(const CurveRecord& curve) {
  std::string out = "step,value\n";
  for (std::size_t i = 0; i < curve.values.size(); ++i) {
    const double v = curve.values[i];
    // fmt's "{}" is the shortest representation that round-trips, and ignores the locale.
    const std::string value = std::isnan(v)   ? "nan"
                              : std::isinf(v) ? (v > 0 ? "inf" : "-inf")
                                              : fmt::format("{}", v);
    out += fmt::format("{},{}\n", curve.steps[i], value);
  }
  return out;
}

void CurveCsvWriter::on_curve(const TestResult& /*test*/, const RecordedCurve& curve) {
  write_file_atomically(run_folder_ + "/" + curve.csv_file, render_curve_csv(curve.curve));
}

}  // namespace mlregress::internal
