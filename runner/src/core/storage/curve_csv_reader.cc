#include "storage/curve_csv_reader.h"

#include <fmt/format.h>

#include <charconv>
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
