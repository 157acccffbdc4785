#include "record/json_fields.h"

#include <fmt/format.h>

#include "record/json_number.h"
#include "record/json_text.h"

namespace mlregress::internal {
namespace {

// nlohmann's messages start with "[json.exception.type_error.302] ": the field path says more.
std::string without_exception_tag(std::string_view text) {
  if (text.starts_with("[json.exception.")) {
    const std::size_t end = text.find("] ");
    if (end != std::string_view::npos) return std::string(text.substr(end + 2));
  }
  return std::string(text);
}

double number_from(const nlohmann::json& value) {
  const std::optional<double> number = read_json_number(value);
  if (!number) {
    throw std::invalid_argument(
        "expected a number (or \"NaN\", \"Infinity\", \"-Infinity\"), got " + json_text(value));
  }
  return *number;
}

}  // namespace

JsonFieldError::JsonFieldError(std::string path, std::string problem)
    : std::runtime_error(path + ": " + problem),
      path_(std::move(path)),
      problem_(std::move(problem)) {}

JsonFieldError JsonFieldError::within(std::string_view parent) const {
  return JsonFieldError(fmt::format("{}.{}", parent, path_), problem_);
}

void with_field_context(std::string_view key, const std::function<void()>& read) {
  try {
    read();
  } catch (const JsonFieldError& error) {
    throw error.within(key);
  } catch (const std::exception& error) {
    throw JsonFieldError(std::string(key), without_exception_tag(error.what()));
  }
}

double number_field(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json value = field<nlohmann::json>(object, key);
  double number = 0.0;
  with_field_context(key, [&] { number = number_from(value); });
  return number;
}

std::optional<double> optional_number_field(const nlohmann::json& object, std::string_view key) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return std::nullopt;
  return number_field(object, key);
}

std::vector<double> numbers_field(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json array = field<nlohmann::json>(object, key);
  std::vector<double> numbers;
  with_field_context(key, [&] {
    if (!array.is_array())
      throw std::invalid_argument("expected an array, got " + json_text(array));
  });
  for (std::size_t i = 0; i < array.size(); ++i) {
    with_field_context(std::string(key) + "[" + std::to_string(i) + "]",
                       [&] { numbers.push_back(number_from(array[i])); });
  }
  return numbers;
}

}  // namespace mlregress::internal
