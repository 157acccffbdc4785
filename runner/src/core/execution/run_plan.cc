#include "execution/run_plan.h"

#include <fmt/format.h>

#include "registry/config_hash.h"
#include "registry/name_filter.h"
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
// The seeds S .. S + count - 1 a seeded or flaky test runs, refused when they would pass the
// largest seed.
std::vector<std::uint64_t> planned_seeds(const RegisteredTest& test, int count,
                                         std::uint64_t first) {
  const auto n = static_cast<std::uint64_t>(count);
  if (n > 0 && first > kMaxSeed - (n - 1)) {
    throw ConfigError(fmt::format(
        "{}: its {} seeds from --seed {} would go beyond the largest seed {}; use --seed {} or "
        "lower",
        test.full_name(), n, first, kMaxSeed, kMaxSeed - (n - 1)));
  }
  std::vector<std::uint64_t> seeds;
  for (std::uint64_t i = 0; i < n; ++i) seeds.push_back(first + i);
  return seeds;
}

// A flaky-aware test: the plain body as attempts, attempt k with seed S + k; its config hash is
// the plain test's at seed S (the first attempt's metrics are the test's).
PlannedTest plan_attempts(PlannedTest planned, Attempts attempts, const RunSettings& settings) {
  const RegisteredTest& test = *planned.test;
  planned.config_hash = config_hash(planned.params, settings.seed, settings.threads);
  planned.seeds = planned_seeds(test, attempts.cap(), settings.seed);
  planned.seed_block = attempts.block();
  planned.attempts = FailureRate{.detect = attempts.detect_rate()};
  planned.variants.push_back(PlannedVariant{"", planned.params, planned.config_hash});
  for (std::uint64_t seed : planned.seeds) planned.units.push_back({0, seed});
  return planned;
}

// A sequential test's design: its blocks, cap and how its looks decide.
void plan_sequential_design(PlannedTest& planned, const Seeds& seeds) {
  planned.seed_block = seeds.count();
  if (seeds.passes_early()) planned.pass_spending = stats::SpendingFunction::kPocock;
  planned.pass_error = seeds.pass_error_value();
  if (seeds.next_block() != seeds.count()) planned.seed_next_block = seeds.next_block();
  planned.seed_anytime = seeds.anytime();
  planned.seed_likelihood_ratio = seeds.likelihood_ratio_looks();
  planned.seed_pass_rise = seeds.pass_rise_value();
  planned.seed_pass_rise_from = seeds.pass_rise_from();
  planned.seed_constant_pass = seeds.constant_pass_boundary();
}

PlannedTest plan_test(const RegisteredTest& test, const std::vector<ParamOverride>& overrides,
                      const RunSettings& settings) {
  PlannedTest planned{&test, resolve_params(test, overrides), "", {}, {}};
  test_determinism(test.full_name(), planned.params, settings.determinism);  // checks the value
  const bool quarantined = !settings.quarantine.empty() &&
                           NameFilter(settings.quarantine).matches(test.name, test.full_name());
  if (quarantined && (test.seeded() || test.timing)) {
    throw ConfigError(
        fmt::format("--quarantine '{}' matches {}, a {} test; quarantine applies to ML_TEST and "
                    "ML_FLAKY_TEST (a seeded test's seeds are already judged together)",
                    settings.quarantine, test.full_name(), test.seeded() ? "seeded" : "timing"));
  }
  if (test.flaky() || quarantined) {
    planned.quarantined = quarantined;
    return plan_attempts(
        std::move(planned),
        test.flaky() ? test.attempts : Attempts(kQuarantineBlock).up_to(kQuarantineCap), settings);
  }
  if (!test.seeded()) {
    planned.config_hash = config_hash(planned.params, settings.seed, settings.threads);
    return planned;
  }
  planned.config_hash = config_hash(planned.params, 0, 1);
  // A sequential test plans every seed up to its cap; the supervisor runs them block by block.
  if (test.seeds.sequential()) plan_sequential_design(planned, test.seeds);
  planned.seeds = planned_seeds(test, test.seeds.max_count(), settings.seed);
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
    test_determinism(test.full_name(), v.params, settings.determinism);  // checks the value
    v.config_hash = config_hash(v.params, 0, 1);
    v.method = variant.method;
    v.trial = variant.trial;
    v.held = variant.held;
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

DeterminismMode test_determinism(const std::string& test_name, const ResolvedParams& params,
                                 DeterminismMode run_mode) {
  const auto it = params.find(kDeterminismParam);
  if (it == params.end()) return run_mode;
  const std::string* name = std::get_if<std::string>(&it->second);
  const std::optional<DeterminismMode> mode =
      name != nullptr ? parse_determinism_mode(*name) : std::nullopt;
  if (!mode) {
    throw ConfigError(fmt::format(
        "{}: its parameter '{}' chooses the test's determinism and is \"off\", \"warn\" or "
        "\"strict\", not {}",
        test_name, kDeterminismParam,
        name != nullptr ? fmt::format("'{}'", *name)
                        : fmt::format("a {}", param_type_name(it->second))));
  }
  return *mode;
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
      // The sequential design decides when a shard's merge settles a metric: in the plan (and
      // so in the shards' plan hash).
      if (planned.seed_block > 0 && !planned.attempts) {
        entry["pass_spending"] = stats::spending_function_name(planned.pass_spending);
        // Written only when declared, so that the plans (and hashes) of earlier runs still match.
        if (planned.pass_error != kDefaultPassError) entry["pass_error"] = planned.pass_error;
        if (planned.seed_next_block > 0) entry["seed_next_block"] = planned.seed_next_block;
        if (planned.seed_anytime) entry["anytime"] = true;
        if (planned.seed_likelihood_ratio) entry["likelihood_ratio"] = true;
        if (planned.seed_pass_rise > 0.0) {
          entry["pass_rise"] = planned.seed_pass_rise;
          entry["pass_rise_from"] = planned.seed_pass_rise_from;
        }
        if (planned.seed_constant_pass) entry["constant_pass"] = true;
      }
      if (planned.attempts) {
        entry["attempts"] = {{"detect", planned.attempts->detect},
                             {"quarantined", planned.quarantined}};
      }
      nlohmann::json variants = nlohmann::json::array();
      for (const PlannedVariant& v : planned.variants) {
        variants.push_back(
            {{"name", v.name}, {"params", params_json(v.params)}, {"config_hash", v.config_hash}});
        for (const SeedStream stream : v.held)
          variants.back()["held"].push_back(seed_stream_name(stream));
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
  // Written only when it is not the default, so the plans (and the shard plan hashes) of runs
  // made before the switch existed stay as they were; shards of two modes differ and merge refuses
  // them.
  if (plan.settings.determinism != DeterminismMode::Warn) {
    json["determinism"] = std::string(determinism_mode_name(plan.settings.determinism));
  }
}

}  // namespace mlregress::internal
