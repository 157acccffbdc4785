#include "commands/list_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <nlohmann/json.hpp>

#include "analysis/sequential_seeds.h"
#include "record/json_text.h"
#include "registry/random_search.h"
#include "registry/test_selection.h"

namespace mlregress::internal {
namespace {

// A sequential test's design, as list --format json names it.
void add_sequential_fields(nlohmann::json& entry, const Seeds& seeds) {
  entry["seeds_up_to"] = seeds.max_count();
  entry["seeds_pass_early"] = seeds.passes_early();
  if (seeds.has_pass_error()) entry["seeds_pass_error"] = seeds.pass_error_value();
  if (seeds.has_next_block()) entry["seeds_then_blocks_of"] = seeds.next_block();
  if (seeds.anytime()) entry["seeds_anytime"] = true;
  if (seeds.likelihood_ratio_looks()) entry["seeds_likelihood_ratio"] = true;
  if (seeds.has_pass_rise()) {
    entry["seeds_pass_rise"] = seeds.pass_rise_value();
    entry["seeds_pass_rise_from"] = seeds.pass_rise_from();
  }
  if (seeds.constant_pass_boundary()) entry["seeds_constant_pass"] = true;
}

}  // namespace

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
    nlohmann::json entry = {{"name", test->name},
                            {"full_name", test->full_name()},
                            {"tier", tier_name(test->tier)},
                            {"labels", {tier_name(test->tier)}},
                            {"file", test->file},
                            {"line", test->line},
                            {"params", std::move(params)},
                            {"timing", test->timing}};
    if (test->capability) {
      // ctest -L capability: the tests that report targets (MET / NOT MET), never failing.
      entry["labels"].push_back("capability");
      entry["capability"] = true;
    }
    if (test->flaky()) {
      // ctest -L flaky: the tests gated on their failure rate.
      entry["labels"].push_back("flaky");
      entry["attempts"] = test->attempts.block();
      entry["attempts_up_to"] = test->attempts.cap();
      entry["detect"] = test->attempts.detect_rate();
    }
    if (test->seeded()) {
      nlohmann::json variants = nlohmann::json::array();
      for (const Variant& v : test->seeds.variant_list()) variants.push_back(v.name);
      entry["seeds"] = test->seeds.count();
      if (test->seeds.sequential()) add_sequential_fields(entry, test->seeds);
      entry["variants"] = std::move(variants);
      if (const auto budgets = tuning_budgets(test->seeds); !budgets.empty()) {
        nlohmann::json trials = nlohmann::json::object();
        for (const MethodTrials& b : budgets) trials[b.method] = b.trials;
        entry["trials_per_method"] = std::move(trials);
        entry["equal_budgets"] = unequal_budget_warning(budgets).empty();
      }
    }
    list.push_back(std::move(entry));
  }
  const nlohmann::json document = {
      {"schema_version", kListSchemaVersion}, {"binary", binary}, {"tests", std::move(list)}};
  return json_text(document, 2) + "\n";
}

namespace {

// A seeded test's random searches: "          trials per method: adam 8, sgd 8", and a warning
// line when the budgets differ.
std::string budget_text(const RegisteredTest& test) {
  return budget_lines(tuning_budgets(test.seeds), "          ");
}

}  // namespace

std::string render_list_text(const std::vector<const RegisteredTest*>& tests) {
  std::string out;
  for (const RegisteredTest* test : tests) {
    std::string kind;
    if (test->seeded()) {
      const Seeds& seeds = test->seeds;
      const std::string blocks =
          seeds.next_block() != seeds.count()
              ? fmt::format("{} seeds, then {} at a time", seeds.count(), seeds.next_block())
              : fmt::format("{} seeds at a time", seeds.count());
      kind = seeds.sequential()
                 ? fmt::format(
                       "  [{}, up to {}{}{}{}", blocks, seeds.max_count(),
                       seeds.anytime()                  ? ", anytime-valid"
                       : seeds.likelihood_ratio_looks() ? ", likelihood-ratio looks"
                       : seeds.passes_early()           ? ", PASS early"
                                                        : "",
                       seeds.has_pass_error()
                           ? fmt::format(", PASS error {:g}", seeds.pass_error_value())
                           : "",
                       pass_boundary_clause(seeds.likelihood_ratio_looks(), seeds.pass_rise_value(),
                                            seeds.pass_rise_from(), seeds.constant_pass_boundary()))
                 : fmt::format("  [{} seeds", seeds.count());
      for (const Variant& v : test->seeds.variant_list())
        kind += (&v == &test->seeds.variant_list().front() ? " × " : ", ") + v.name;
      kind += "]";
    }
    if (test->timing) kind = "  [timing]";
    if (test->capability) kind = "  [capability]";
    if (test->flaky()) {
      kind = fmt::format(
          "  [{} attempts at a time, up to {}; failure rate gated, a rise to {:g}% "
          "caught]",
          test->attempts.block(), test->attempts.cap(), 100.0 * test->attempts.detect_rate());
    }
    out += fmt::format("{:<8}{}{}  ({}:{})\n", tier_name(test->tier), test->full_name(), kind,
                       test->file, test->line);
    out += budget_text(*test);
    for (const ParamSpec& spec : test->params) {
      out += fmt::format("          --set {}.{}={}  ({})\n", test->name, spec.name,
                         param_value_to_string(spec.default_value),
                         param_type_name(spec.default_value));
    }
  }
  out += fmt::format("{} test{}\n", tests.size(), tests.size() == 1 ? "" : "s");
  return out;
}

ExitCode list_command(const ListOptions& options, const std::string& binary,
                      const std::string& gtest_filter) {
  const auto tests =
      select_tests(TestRegistry::instance(), options.tiers, options.filter, gtest_filter);
  const std::string text =
      options.format == "json" ? render_list_json(tests, binary) : render_list_text(tests);
  std::fputs(text.c_str(), stdout);
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
