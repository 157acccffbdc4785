#include "list_command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace mlregress::internal {

std::string render_list_json(const std::vector<const RegisteredTest*>& tests,
                             const std::string& binary) {
  nlohmann::json list = nlohmann::json::array();
  for (const RegisteredTest* test : tests) {
    nlohmann::json params = nlohmann::json::array();
    for (const ParamSpec& spec : test->params) {
      nlohmann::json param = {{"name", spec.name}, {"type", param_type_name(spec.default_value)}};
      std::visit([&](const auto& v) { param["default"] = v; }, spec.default_value);
      params.push_back(std::move(param));
    }
    list.push_back({{"name", test->name},
                    {"full_name", test->full_name()},
                    {"tier", tier_name(test->tier)},
                    {"labels", {tier_name(test->tier)}},
                    {"file", test->file},
                    {"line", test->line},
                    {"params", std::move(params)},
                    {"timing", test->timing}});
  }
  const nlohmann::json document = {
      {"schema_version", kListSchemaVersion}, {"binary", binary}, {"tests", std::move(list)}};
  return document.dump(2) + "\n";
}

std::string render_list_text(const std::vector<const RegisteredTest*>& tests) {
  std::string out;
  for (const RegisteredTest* test : tests) {
    out += fmt::format("{:<8}{}  ({}:{})\n", tier_name(test->tier), test->full_name(), test->file,
                       test->line);
    for (const ParamSpec& spec : test->params) {
      out += fmt::format("          --set {}.{}={}  ({})\n", test->name, spec.name,
                         param_value_to_string(spec.default_value),
                         param_type_name(spec.default_value));
    }
  }
  out += fmt::format("{} test{}\n", tests.size(), tests.size() == 1 ? "" : "s");
  return out;
}

}  // namespace mlregress::internal
