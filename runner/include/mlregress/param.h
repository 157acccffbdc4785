// Typed, overridable test parameters ("config"). A test declares each parameter with its default
// when it is registered, so `list` can show them and `--set Test.key=value` can be checked before
// any test runs.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace mlregress {

using ParamValue = std::variant<bool, std::int64_t, double, std::string>;

/// "bool", "int", "double", "string".
std::string_view param_type_name(const ParamValue& value);

/// Renders a value the way `--set` accepts it back (doubles round-trip exactly).
std::string param_value_to_string(const ParamValue& value);

/// One declared parameter: a name and a default whose type fixes the parameter's type.
struct ParamSpec {
  ParamSpec(std::string name, bool value) : name(std::move(name)), default_value(value) {}
  ParamSpec(std::string name, int value)
      : name(std::move(name)), default_value(std::int64_t{value}) {}
  ParamSpec(std::string name, long value)
      : name(std::move(name)), default_value(std::int64_t{value}) {}
  ParamSpec(std::string name, long long value)
      : name(std::move(name)), default_value(static_cast<std::int64_t>(value)) {}
  ParamSpec(std::string name, double value) : name(std::move(name)), default_value(value) {}
  ParamSpec(std::string name, const char* value)
      : name(std::move(name)), default_value(std::string(value)) {}
  ParamSpec(std::string name, std::string value)
      : name(std::move(name)), default_value(std::move(value)) {}

  std::string name;
  ParamValue default_value;
};

using ParamSpecs = std::vector<ParamSpec>;

/// Resolved parameters of one test: defaults with the command line's overrides applied.
using ResolvedParams = std::map<std::string, ParamValue, std::less<>>;

}  // namespace mlregress
