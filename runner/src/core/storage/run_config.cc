#include "storage/run_config.h"

#include <fmt/format.h>

#include "record/json_fields.h"
#include "record/json_text.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

RunConfigTest read_test(const nlohmann::json& json) {
  RunConfigTest test;
  test.tier = parse_tier(field<std::string>(json, "tier"));
  const nlohmann::json params = field<nlohmann::json>(json, "params");
  with_field_context("params", [&] {
    if (!params.is_object())
      throw std::invalid_argument("expected an object, got " + params.dump());
  });
  for (const auto& [key, value] : params.items()) test.params.emplace(key, value);
  test.config_hash = field<std::string>(json, "config_hash");
  if (json.contains("seeds")) {
    test.seeds = array_field<std::uint64_t>(json, "seeds");
    test.seed_block = field_or<int>(json, "seed_block", 0);
    if (json.contains("pass_spending")) {
      test.pass_spending = enum_field<stats::SpendingFunction>(json, "pass_spending",
                                                               stats::parse_spending_function);
    }
    test.pass_error = field_or<double>(json, "pass_error", kDefaultPassError);
    test.seed_next_block = field_or<int>(json, "seed_next_block", 0);
    test.anytime = field_or<bool>(json, "anytime", false);
    test.likelihood_ratio = field_or<bool>(json, "likelihood_ratio", false);
    test.pass_rise = field_or<double>(json, "pass_rise", 0.0);
    test.pass_rise_from = field_or<int>(json, "pass_rise_from", 0);
    test.constant_pass = field_or<bool>(json, "constant_pass", false);
    if (json.contains("attempts")) {
      with_field_context("attempts", [&] {
        const nlohmann::json& attempts = json.at("attempts");
        test.attempts_detect = field<double>(attempts, "detect");
        test.quarantined = field_or<bool>(attempts, "quarantined", false);
      });
    }
    const nlohmann::json variants = field<nlohmann::json>(json, "variants");
    with_field_context("variants", [&] {
      if (!variants.is_array())
        throw std::invalid_argument("expected an array, got " + variants.dump());
    });
    for (std::size_t i = 0; i < variants.size(); ++i) {
      with_field_context(fmt::format("variants[{}]", i),
                         [&] { test.variants.push_back(field<std::string>(variants[i], "name")); });
    }
  }
  return test;
}

}  // namespace

const RunConfigTest* RunConfig::find(const std::string& name) const {
  const auto it = tests.find(name);
  return it == tests.end() ? nullptr : &it->second;
}

RunConfig read_run_config(const std::string& run_folder) {
  const std::string path = run_folder + "/config.json";
  RunConfig config;
  config.document = read_json_file(path);
  try {
    const nlohmann::json& json = config.document;
    if (!json.is_object()) {
      throw RunFolderError(
          fmt::format("{}: expected a JSON object, got {}", path, json_text(json).substr(0, 40)));
    }
    if (json.contains("seed")) config.seed = field<std::uint64_t>(json, "seed");
    if (json.contains("threads")) config.threads = field<int>(json, "threads");
    config.order = array_field<std::string>(json, "order");
    const nlohmann::json tests = field<nlohmann::json>(json, "tests");
    with_field_context("tests", [&] {
      if (!tests.is_object())
        throw std::invalid_argument("expected an object, got " + tests.dump());
    });
    for (auto it = tests.begin(); it != tests.end(); ++it) {
      with_field_context("tests." + it.key(),
                         [&] { config.tests.emplace(it.key(), read_test(it.value())); });
    }
  } catch (const JsonFieldError& error) {
    throw RunFolderError(
        fmt::format("{}: {} (see runner/docs/results-schema.md)", path, error.what()));
  }
  return config;
}

}  // namespace mlregress::internal
