#include "storage/curve_csv.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>
#include <limits>

#include "support/errors.h"

namespace mlregress::internal {
namespace {

bool parse_value(std::string_view text, double& value) {
  if (text == "nan") {
    value = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  if (text == "inf" || text == "-inf") {
    value = text[0] == '-' ? -std::numeric_limits<double>::infinity()
                           : std::numeric_limits<double>::infinity();
    return true;
  }
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size();
}

bool parse_step(std::string_view text, std::int64_t& step) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), step);
  return error == std::errc() && end == text.data() + text.size() && !text.empty();
}

}  // namespace

CurveRecord reference_curve(const CurveRecord& curve) {
  const std::size_t n = curve.values.size();
  if (n <= kReferenceCurvePoints) return curve;
  CurveRecord out{curve.name, {}, {}, curve.policy};
  for (std::size_t k = 0; k < kReferenceCurvePoints; ++k) {
    const std::size_t i = static_cast<std::size_t>(std::llround(
        static_cast<double>(k) * static_cast<double>(n - 1) / (kReferenceCurvePoints - 1)));
    out.steps.push_back(curve.steps[i]);
    out.values.push_back(curve.values[i]);
  }
  return out;
}

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

CurveRecord read_curve_csv(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw RunFolderError(fmt::format("{}: cannot read the curve file", path));
  CurveRecord curve;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (line_number == 1) {
      if (line != "step,value")
        throw RunFolderError(
            fmt::format("{}:1: expected the header 'step,value', got '{}'", path, line));
      continue;
    }
    const std::size_t comma = line.find(',');
    std::int64_t step = 0;
    double value = 0.0;
    if (comma == std::string::npos || !parse_step(std::string_view(line).substr(0, comma), step) ||
        !parse_value(std::string_view(line).substr(comma + 1), value)) {
      throw RunFolderError(
          fmt::format("{}:{}: expected 'step,value' (an integer and a number), got '{}'", path,
                      line_number, line));
    }
    curve.steps.push_back(step);
    curve.values.push_back(value);
  }
  if (line_number == 0) throw RunFolderError(fmt::format("{}: the curve file is empty", path));
  return curve;
}

}  // namespace mlregress::internal
