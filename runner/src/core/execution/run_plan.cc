#include "execution/run_plan.h"

#include <fmt/format.h>

#include "registry/config_hash.h"
#include "support/errors.h"

namespace mlregress::internal {

const PlannedTest* RunPlan::find(std::string_view full_name) const {
  for (const PlannedTest& planned : tests) {
    if (planned.test->full_name() == full_name) return &planned;
  }
  return nullptr;
}

namespace {

// A seeded test's config hash leaves the seed out (a run on fresh seeds measures the same
// configuration) and counts one thread: each seed runs single-threaded whatever --threads says.
PlannedTest plan_test(const RegisteredTest& test, const std::vector<ParamOverride>& overrides,
                      const RunSettings& settings) {
  PlannedTest planned{&test, resolve_params(test, overrides), "", {}, {}};
  if (!test.seeded()) {
    planned.config_hash = config_hash(planned.params, settings.seed, settings.threads);
    return planned;
  }
  planned.config_hash = config_hash(planned.params, 0, 1);
  // A sequential test plans every seed up to its cap; the supervisor runs them block by block.
  const auto count = static_cast<std::uint64_t>(test.seeds.max_count());
  if (test.seeds.sequential()) planned.seed_block = test.seeds.count();
  if (count > 0 && settings.seed > kMaxSeed - (count - 1)) {
    throw ConfigError(fmt::format(
        "{}: its {} seeds from --seed {} would go beyond the largest seed {}; use --seed {} or "
        "lower",
        test.full_name(), count, settings.seed, kMaxSeed, kMaxSeed - (count - 1)));
  }
  for (int i = 0; i < test.seeds.max_count(); ++i) {
    planned.seeds.push_back(settings.seed + static_cast<std::uint64_t>(i));
  }
  std::vector<Variant> variants = test.seeds.variant_list();
  if (variants.empty()) variants.push_back(Variant{"", {}});
  for (const Variant& variant : variants) {
    PlannedVariant v{variant.name, planned.params, ""};
    for (const ParamSpec& change : variant.overrides) {
      const bool as_double = std::holds_alternative<double>(v.params.at(change.name));
      if (const auto* i = std::get_if<std::int64_t>(&change.default_value);
          i != nullptr && as_double) {
        v.params[change.name] = static_cast<double>(*i);
      } else {
        v.params[change.name] = change.default_value;
      }
    }
    v.config_hash = config_hash(v.params, 0, 1);
    planned.variants.push_back(std::move(v));
  }
  for (std::size_t v = 0; v < planned.variants.size(); ++v) {
    for (std::uint64_t seed : planned.seeds) planned.units.push_back({v, seed});
  }
  return planned;
}

}  // namespace

RunPlan make_run_plan(const std::vector<const RegisteredTest*>& selected,
                      const std::vector<ParamOverride>& overrides,
                      const std::vector<std::string>& items, const RunSettings& settings) {
  RunPlan plan;
  plan.settings = settings;
  plan.overrides = items;
  for (const RegisteredTest* test : selected) {
    plan.tests.push_back(plan_test(*test, overrides, settings));
    plan.order.push_back(test->full_name());
  }
  return plan;
}

std::vector<SeedJob> seed_jobs(const PlannedTest& planned) {
  std::vector<SeedJob> jobs;
  for (const SeedUnit& unit : planned.units) {
    jobs.push_back({&planned, &planned.variants.at(unit.variant_index), unit.seed});
  }
  return jobs;
}

double test_timeout_s(const RunSettings& settings, Tier tier) {
  if (settings.test_timeout_s > 0.0) return settings.test_timeout_s;
  switch (tier) {
    case Tier::Fast:
      return 120.0;
    case Tier::Medium:
      return 900.0;
    case Tier::Full:
      return 3600.0;
  }
  return 3600.0;
}

void to_json(nlohmann::json& json, const RunPlan& plan) {
  nlohmann::json tests = nlohmann::json::object();
  for (const PlannedTest& planned : plan.tests) {
    nlohmann::json& entry = tests[planned.test->name];
    entry = {{"tier", tier_name(planned.test->tier)},
             {"params", params_json(planned.params)},
             {"config_hash", planned.config_hash}};
    if (planned.seeded()) {
      entry["seeds"] = planned.seeds;
      if (planned.seed_block > 0) entry["seed_block"] = planned.seed_block;
      nlohmann::json variants = nlohmann::json::array();
      for (const PlannedVariant& v : planned.variants) {
        variants.push_back(
            {{"name", v.name}, {"params", params_json(v.params)}, {"config_hash", v.config_hash}});
      }
      entry["variants"] = std::move(variants);
    }
  }
  json = {{"schema_version", 1},
          {"seed", plan.settings.seed},
          {"threads", plan.settings.threads},
          {"jobs", plan.settings.jobs},
          {"overrides", plan.overrides},
          {"order", plan.order},
          {"tests", std::move(tests)}};
}

}  // namespace mlregress::internal
