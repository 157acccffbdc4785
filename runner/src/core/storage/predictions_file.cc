#include "storage/predictions_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

constexpr std::string_view kHeader = "id,predicted,target";

// One integer, the whole of `text`: no sign but '-', no spaces, no "1.0".
bool parse_integer(std::string_view text, std::int64_t& value) {
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && error == std::errc() && end == text.data() + text.size();
}

// The comma-separated fields of a line.
std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  for (std::size_t start = 0;;) {
    const std::size_t comma = line.find(',', start);
    fields.push_back(line.substr(start, comma == std::string_view::npos ? comma : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

// An attribute's value: a number, or nothing (NaN, no value for this example).
bool parse_value(std::string_view text, double& value) {
  if (text.empty()) {
    value = std::numeric_limits<double>::quiet_NaN();
    return true;
  }
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && std::isfinite(value);
}

bool valid_attribute_name(std::string_view name) {
  return !name.empty() && name != "id" && name != "predicted" && name != "target" &&
         std::all_of(name.begin(), name.end(), [](char ch) {
           return std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' ||
                  ch == '-';
         });
}

void check_attributes(const Predictions& predictions) {
  std::set<std::string_view> names;
  for (const ExampleAttribute& a : predictions.attributes) {
    if (!valid_attribute_name(a.name) || !names.insert(a.name).second) {
      throw std::invalid_argument(fmt::format(
          "predictions: the attribute name '{}' is not a column name (letters, digits, '_', '.', "
          "'-'; not id, predicted or target; each name once)",
          a.name));
    }
    if (a.values.size() != predictions.ids.size()) {
      throw std::invalid_argument(
          fmt::format("predictions: {} ids but {} values of the attribute '{}'",
                      predictions.ids.size(), a.values.size(), a.name));
    }
  }
}

// The header's attribute names after "id,predicted,target".
std::vector<ExampleAttribute> read_header(const std::string& path, std::string_view line) {
  const std::vector<std::string_view> fields = split_fields(line);
  if (fields.size() < 3 || fields[0] != "id" || fields[1] != "predicted" || fields[2] != "target") {
    throw RunFolderError(
        fmt::format("{}:1: expected the header '{}', got '{}'", path, kHeader, line));
  }
  std::vector<ExampleAttribute> attributes;
  std::set<std::string_view> names;
  for (std::size_t k = 3; k < fields.size(); ++k) {
    if (!valid_attribute_name(fields[k]) || !names.insert(fields[k]).second) {
      throw RunFolderError(fmt::format(
          "{}:1: expected attribute names after '{}' (letters, digits, '_', '.', '-', each once), "
          "got '{}'",
          path, kHeader, fields[k]));
    }
    attributes.push_back({std::string(fields[k]), {}});
  }
  return attributes;
}

// One example's line into `predictions`; false when it is not three integers and one value per
// attribute.
bool parse_row(std::string_view line, Predictions& predictions) {
  const std::vector<std::string_view> fields = split_fields(line);
  if (fields.size() != 3 + predictions.attributes.size()) return false;
  std::int64_t id = 0, predicted = 0, target = 0;
  if (!parse_integer(fields[0], id) || !parse_integer(fields[1], predicted) ||
      !parse_integer(fields[2], target)) {
    return false;
  }
  std::vector<double> values(predictions.attributes.size());
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (!parse_value(fields[3 + k], values[k])) return false;
  }
  predictions.ids.push_back(id);
  predictions.predicted.push_back(predicted);
  predictions.target.push_back(target);
  for (std::size_t k = 0; k < values.size(); ++k) {
    predictions.attributes[k].values.push_back(values[k]);
  }
  return true;
}

// What the rows must be, for the error message.
std::string expected_row(const Predictions& predictions) {
  if (predictions.attributes.empty()) return "'id,predicted,target' (three integers)";
  return fmt::format(
      "'id,predicted,target' (three integers) and {} attribute values (numbers or "
      "empty)",
      predictions.attributes.size());
}

}  // namespace

std::string predictions_file_name(const std::string& test, const std::string& name) {
  return "predictions/" + test + "." + name + ".csv";
}

std::string render_predictions_csv(const Predictions& predictions) {
  const std::size_t n = predictions.ids.size();
  if (predictions.predicted.size() != n || predictions.target.size() != n) {
    throw std::invalid_argument(fmt::format(
        "predictions: {} ids, {} predicted classes and {} targets (the lengths must agree)", n,
        predictions.predicted.size(), predictions.target.size()));
  }
  check_attributes(predictions);
  std::string out;
  out.reserve(kHeader.size() + 1 + n * (16 + 8 * predictions.attributes.size()));
  out += kHeader;
  for (const ExampleAttribute& a : predictions.attributes) out += "," + a.name;
  out += '\n';
  for (std::size_t i = 0; i < n; ++i) {
    fmt::format_to(std::back_inserter(out), "{},{},{}", predictions.ids[i],
                   predictions.predicted[i], predictions.target[i]);
    for (const ExampleAttribute& a : predictions.attributes) {
      out += ',';
      if (std::isfinite(a.values[i])) fmt::format_to(std::back_inserter(out), "{}", a.values[i]);
    }
    out += '\n';
  }
  return out;
}

void write_predictions_csv(const std::string& path, const Predictions& predictions) {
  write_file_atomically(path, render_predictions_csv(predictions));
}

Predictions read_predictions_csv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw RunFolderError(fmt::format("{}: cannot read the predictions file", path));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) throw RunFolderError(fmt::format("{}: cannot read the predictions file", path));
  if (text.empty()) throw RunFolderError(fmt::format("{}: the predictions file is empty", path));

  Predictions predictions;
  // id -> line, to name both lines of a repeated id.
  std::unordered_map<std::int64_t, int> line_of_id;
  int line_number = 0;
  for (std::size_t start = 0; start < text.size();) {
    ++line_number;
    const std::size_t newline = text.find('\n', start);
    const std::string_view line(text.data() + start,
                                (newline == std::string::npos ? text.size() : newline) - start);
    // The writer ends every line with a newline: a last line without one was cut short, and its
    // last number may be cut short too ("12" read as "1").
    if (newline == std::string::npos) {
      throw RunFolderError(fmt::format(
          "{}:{}: expected the line to end with a newline (the file is cut short), got '{}'", path,
          line_number, line));
    }
    start = newline + 1;
    if (line_number == 1) {
      predictions.attributes = read_header(path, line);
      continue;
    }
    if (!parse_row(line, predictions)) {
      throw RunFolderError(fmt::format("{}:{}: expected {}, got '{}'", path, line_number,
                                       expected_row(predictions), line));
    }
    const std::int64_t id = predictions.ids.back();
    const std::int64_t predicted = predictions.predicted.back();
    const std::int64_t target = predictions.target.back();
    if (predicted < 0 || target < 0) {
      throw RunFolderError(
          fmt::format("{}:{}: expected class indices >= 0, got predicted {} and target {}", path,
                      line_number, predicted, target));
    }
    const auto [seen, inserted] = line_of_id.emplace(id, line_number);
    if (!inserted) {
      throw RunFolderError(
          fmt::format("{}:{}: expected a new id, got id {} again (first on line {})", path,
                      line_number, id, seen->second));
    }
  }
  return predictions;
}

}  // namespace mlregress::internal
