// Reading typed values out of the JSON files of a run folder with errors that name the field:
//   "tests[3].metrics[1].value: expected a number (or "NaN", "Infinity", "-Infinity"), got "abc""
// Each reader wraps what it reads in the key it reads it from, so the path builds itself as an
// error unwinds through nested readers. Used by every from_json of the stored formats.
#pragma once

#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace mlregress::internal {

class JsonFieldError : public std::runtime_error {
 public:
  JsonFieldError(std::string path, std::string problem);
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }
  /// The same error one level further out: "metrics[1].value" within "tests[3]".
  JsonFieldError within(std::string_view parent) const;

 private:
  std::string path_;
  std::string problem_;
};

/// Runs `read` and turns whatever it throws into a JsonFieldError under `key`.
void with_field_context(std::string_view key, const std::function<void()>& read);

/// `value` as T. Numbers are converted strictly, unlike nlohmann's get<T>: an integer field
/// takes an integer in T's range (no 1.5 -> 1, no -1 -> 18446744073709551615), a bool field a
/// bool. Anything else goes through get<T> (and so through our from_json overloads).
template <typename T>
T convert(const nlohmann::json& value) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!value.is_boolean())
      throw std::invalid_argument("expected true or false, got " + value.dump());
    return value.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    const bool fits = value.is_number_unsigned()  ? std::in_range<T>(value.get<std::uint64_t>())
                      : value.is_number_integer() ? std::in_range<T>(value.get<std::int64_t>())
                                                  : false;
    if (!fits) {
      throw std::invalid_argument(std::string("expected an integer") +
                                  (std::is_unsigned_v<T> ? " >= 0" : "") + ", got " + value.dump());
    }
    return value.get<T>();
  } else {
    return value.get<T>();
  }
}

/// A required field, converted with nlohmann's get<T> (and so with our from_json overloads).
template <typename T>
T field(const nlohmann::json& object, std::string_view key) {
  T value{};
  with_field_context(key, [&] {
    if (!object.is_object())
      throw std::invalid_argument("expected an object, got " + object.dump());
    const auto it = object.find(key);
    if (it == object.end()) throw std::invalid_argument("missing");
    value = convert<T>(*it);
  });
  return value;
}

/// An optional field: `fallback` when it is missing or null.
template <typename T>
T field_or(const nlohmann::json& object, std::string_view key, T fallback) {
  const auto it = object.find(key);
  if (it == object.end() || it->is_null()) return fallback;
  return field<T>(object, key);
}

/// A number written by json_number (finite numbers, "NaN", "Infinity", "-Infinity").
double number_field(const nlohmann::json& object, std::string_view key);
/// The same, or nullopt when the field is missing or null.
std::optional<double> optional_number_field(const nlohmann::json& object, std::string_view key);
/// An array of such numbers.
std::vector<double> numbers_field(const nlohmann::json& object, std::string_view key);

/// An array field whose elements are converted with get<T>; an error names the element's index.
template <typename T>
std::vector<T> array_field(const nlohmann::json& object, std::string_view key) {
  const nlohmann::json array = field<nlohmann::json>(object, key);
  std::vector<T> values;
  with_field_context(key, [&] {
    if (!array.is_array()) throw std::invalid_argument("expected an array, got " + array.dump());
  });
  for (std::size_t i = 0; i < array.size(); ++i) {
    with_field_context(std::string(key) + "[" + std::to_string(i) + "]",
                       [&] { values.push_back(convert<T>(array[i])); });
  }
  return values;
}

/// An enumeration stored by name: `parse` returns nullopt for a name it does not know.
template <typename E, typename Parse>
E enum_field(const nlohmann::json& object, std::string_view key, Parse parse) {
  const std::string name = field<std::string>(object, key);
  const std::optional<E> value = parse(name);
  if (!value) throw JsonFieldError(std::string(key), "unknown value \"" + name + "\"");
  return *value;
}

}  // namespace mlregress::internal
