#include "storage/predictions_file.h"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>

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

// "a,b,c" into three integers; false for anything else (two or four fields included).
bool parse_row(std::string_view line, std::int64_t& id, std::int64_t& predicted,
               std::int64_t& target) {
  const std::size_t first = line.find(',');
  if (first == std::string_view::npos) return false;
  const std::size_t second = line.find(',', first + 1);
  if (second == std::string_view::npos) return false;
  return parse_integer(line.substr(0, first), id) &&
         parse_integer(line.substr(first + 1, second - first - 1), predicted) &&
         parse_integer(line.substr(second + 1), target);
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
  std::string out;
  out.reserve(kHeader.size() + 1 + n * 16);
  out += kHeader;
  out += '\n';
  for (std::size_t i = 0; i < n; ++i) {
    fmt::format_to(std::back_inserter(out), "{},{},{}\n", predictions.ids[i],
                   predictions.predicted[i], predictions.target[i]);
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
      if (line != kHeader) {
        throw RunFolderError(
            fmt::format("{}:1: expected the header '{}', got '{}'", path, kHeader, line));
      }
      continue;
    }
    std::int64_t id = 0, predicted = 0, target = 0;
    if (!parse_row(line, id, predicted, target)) {
      throw RunFolderError(
          fmt::format("{}:{}: expected 'id,predicted,target' (three integers), got '{}'", path,
                      line_number, line));
    }
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
    predictions.ids.push_back(id);
    predictions.predicted.push_back(predicted);
    predictions.target.push_back(target);
  }
  return predictions;
}

}  // namespace mlregress::internal
