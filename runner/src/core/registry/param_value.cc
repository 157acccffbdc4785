#include "registry/param_value.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "support/text_sanitize.h"

namespace mlregress {

std::string_view param_type_name(const ParamValue& value) {
  switch (value.index()) {
    case 0:
      return "bool";
    case 1:
      return "int";
    case 2:
      return "double";
    default:
      return "string";
  }
}

std::string param_value_to_string(const ParamValue& value) {
  if (const bool* b = std::get_if<bool>(&value)) return *b ? "true" : "false";
  if (const std::int64_t* i = std::get_if<std::int64_t>(&value)) return fmt::format("{}", *i);
  // fmt's shortest round-trip form, independent of the C locale.
  if (const double* d = std::get_if<double>(&value)) return fmt::format("{}", *d);
  return std::get<std::string>(value);
}

namespace internal {

std::optional<ParamValue> parse_param_value(std::string_view text, const ParamValue& like) {
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  switch (like.index()) {
    case 0:
      if (text == "true" || text == "1") return ParamValue{true};
      if (text == "false" || text == "0") return ParamValue{false};
      return std::nullopt;
    case 1: {
      std::int64_t parsed = 0;
      auto [ptr, ec] = std::from_chars(begin, end, parsed);
      if (text.empty() || ec != std::errc() || ptr != end) return std::nullopt;
      return ParamValue{parsed};
    }
    case 2: {
      double parsed = 0.0;
      auto [ptr, ec] = std::from_chars(begin, end, parsed);
      if (text.empty() || ec != std::errc() || ptr != end || !std::isfinite(parsed)) {
        return std::nullopt;
      }
      return ParamValue{parsed};
    }
    default:
      // Parameter strings travel in JSON (config.json, events), which must be valid UTF-8.
      if (valid_utf8(text) != text) return std::nullopt;
      return ParamValue{std::string(text)};
  }
}

}  // namespace internal
}  // namespace mlregress
