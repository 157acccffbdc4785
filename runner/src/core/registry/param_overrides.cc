#include "registry/param_overrides.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "registry/param_value.h"

namespace mlregress::internal {
namespace {

std::vector<std::string> declared_names(const RegisteredTest& test) {
  std::vector<std::string> names;
  for (const ParamSpec& spec : test.params) names.push_back(spec.name);
  return names;
}

}  // namespace

std::vector<ParamOverride> parse_param_overrides(const std::vector<std::string>& items,
                                                 const TestRegistry& registry) {
  std::vector<ParamOverride> overrides;
  for (const std::string& item : items) {
    const std::size_t equals = item.find('=');
    const std::size_t dot = item.substr(0, equals).rfind('.');
    if (equals == std::string::npos || dot == std::string::npos || dot == 0 || dot + 1 == equals) {
      throw ConfigError(
          fmt::format("--set '{}': expected TEST.KEY=VALUE, e.g. "
                      "CnnOverfitsOneBatch.lr=0.01",
                      item));
    }
    const std::string test_name = item.substr(0, dot);
    const std::string key = item.substr(dot + 1, equals - dot - 1);
    const std::string text = item.substr(equals + 1);
    const RegisteredTest* test = registry.find(test_name);
    if (test == nullptr) {
      throw ConfigError(
          fmt::format("--set '{}': no test named '{}' (see `list`)", item, test_name));
    }
    const ParamSpec* spec = test->find_param(key);
    if (spec == nullptr) {
      const std::string known = fmt::format("{}", fmt::join(declared_names(*test), ", "));
      throw ConfigError(fmt::format("--set '{}': test '{}' has no parameter '{}' (it has: {})",
                                    item, test_name, key, known.empty() ? "none" : known));
    }
    std::optional<ParamValue> value = parse_param_value(text, spec->default_value);
    if (!value) {
      throw ConfigError(fmt::format("--set '{}': '{}' is not a valid {} for {}.{} (default {})",
                                    item, text, param_type_name(spec->default_value), test_name,
                                    key, param_value_to_string(spec->default_value)));
    }
    overrides.push_back({test_name, key, std::move(*value)});
  }
  return overrides;
}

ResolvedParams resolve_params(const RegisteredTest& test,
                              const std::vector<ParamOverride>& overrides) {
  ResolvedParams params;
  for (const ParamSpec& spec : test.params) params[spec.name] = spec.default_value;
  for (const ParamOverride& o : overrides) {
    if (o.test == test.name) params[o.key] = o.value;
  }
  return params;
}

}  // namespace mlregress::internal
