#include "registry/test_registry.h"

#include <fmt/format.h>

#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

#include "registry/random_search.h"
#include "registry/randomness_study.h"

namespace mlregress::internal {

const ParamSpec* RegisteredTest::find_param(std::string_view key) const {
  for (const ParamSpec& spec : params) {
    if (spec.name == key) return &spec;
  }
  return nullptr;
}

TestRegistry& TestRegistry::instance() {
  static TestRegistry registry;
  return registry;
}

const RegisteredTest* TestRegistry::find(std::string_view name) const {
  for (const RegisteredTest& test : tests_) {
    if (test.name == name) return &test;
  }
  return nullptr;
}

std::vector<std::string> TestRegistry::source_files() const {
  std::vector<std::string> files;
  for (const RegisteredTest& test : tests_) files.push_back(test.file);
  return files;
}

namespace {

// Each returns what is wrong with one part of a test's declaration, "" when nothing is; `where`
// is the test's "file:line".

// The name of a test's parameter or variant (`kind`): non-empty, without a character its kind
// refuses (`bad_characters`; `rule` says which it allows), and not declared before (in `seen`,
// which takes it).
std::string declared_name_problem(std::string_view kind, const std::string& name,
                                  bool bad_characters, std::string_view rule,
                                  std::set<std::string>& seen, const RegisteredTest& test,
                                  const std::string& where) {
  if (name.empty() || bad_characters) {
    return fmt::format("{}: {} name '{}' of test '{}' must be non-empty and {}", where, kind, name,
                       test.name, rule);
  }
  if (!seen.insert(name).second) {
    return fmt::format("{}: {} '{}' of test '{}' is declared twice", where, kind, name, test.name);
  }
  return "";
}

std::string parameter_problem(const RegisteredTest& test, const std::string& where) {
  std::set<std::string> seen;
  for (const ParamSpec& spec : test.params) {
    if (std::string problem = declared_name_problem(
            "parameter", spec.name, spec.name.find_first_of(".= \t\n") != std::string::npos,
            "contain no '.', '=' or whitespace", seen, test, where);
        !problem.empty()) {
      return problem;
    }
  }
  return "";
}

// pass_rise() raises the PASS boundary of likelihood-ratio looks, by a rise a calibration can
// absorb, from a look the plan has; constant_pass() keeps the boundary of likelihood-ratio looks
// that declare no rise constant.
std::string pass_boundary_problem(const RegisteredTest& test, const std::string& where) {
  const Seeds& seeds = test.seeds;
  const bool fits = seeds.likelihood_ratio_looks() && seeds.pass_rise_value() > 0.0 &&
                    seeds.pass_rise_value() <= 5.0 && seeds.pass_rise_from() >= seeds.count() &&
                    seeds.pass_rise_from() <= seeds.max_count();
  if (seeds.has_pass_rise() && !fits) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).pass_rise({}, {}); the PASS boundary of "
        "likelihood-ratio looks may rise by more than 0 and at most 5, from a look between the "
        "first block ({}) and the cap ({}): Seeds(2).then_blocks_of(2).up_to(52)"
        ".likelihood_ratio().pass_error(0.2).pass_rise(2.0, 10)",
        where, test.name, seeds.count(), seeds.pass_rise_value(), seeds.pass_rise_from(),
        seeds.count(), seeds.max_count());
  }
  if (seeds.constant_pass_boundary() &&
      (!seeds.likelihood_ratio_looks() || seeds.has_pass_rise())) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).constant_pass(){}; a constant PASS boundary is a "
        "choice of likelihood-ratio looks that declare no rise: Seeds(2).then_blocks_of(2)"
        ".up_to(52).likelihood_ratio().pass_error(0.2).constant_pass()",
        where, test.name, seeds.count(),
        seeds.has_pass_rise() ? " with pass_rise()" : " without likelihood_ratio()");
  }
  return "";
}

std::string seed_plan_problem(const RegisteredTest& test, const std::string& where) {
  const Seeds& seeds = test.seeds;
  if (seeds.sequential() && (seeds.count() < 2 || seeds.max_count() < seeds.count())) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).{}({}); a sequential plan needs blocks of at "
        "least 2 seeds and a cap no smaller than the block",
        where, test.name, seeds.count(), seeds.anytime() ? "until_decided" : "up_to",
        seeds.max_count());
  }
  if (seeds.anytime() && (seeds.has_planned_cap() || seeds.passes_early())) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).until_decided({}) with {}; an anytime-valid "
        "study spends no error over planned looks: declare either Seeds({}).until_decided(N) or "
        "Seeds({}).up_to(CAP){}",
        where, test.name, seeds.count(), seeds.max_count(),
        seeds.has_planned_cap() ? "up_to()" : "pass_early()", seeds.count(), seeds.count(),
        seeds.passes_early() ? ".pass_early()" : "");
  }
  if (seeds.has_next_block() &&
      (!seeds.sequential() || seeds.next_block() < (seeds.likelihood_ratio_looks() ? 1 : 2))) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).then_blocks_of({}){}; the blocks after the "
        "first need at least 2 seeds (1 with likelihood_ratio()), and a plan that looks again: "
        "Seeds({}).then_blocks_of(N).up_to(CAP)",
        where, test.name, seeds.count(), seeds.next_block(),
        seeds.sequential() ? "" : " without up_to(cap) or until_decided(cap)", seeds.count());
  }
  if (seeds.has_pass_error() && (!seeds.has_planned_cap() || !(seeds.pass_error_value() > 0.0 &&
                                                               seeds.pass_error_value() < 0.5))) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).pass_error({}){}; the PASS error is a one-sided "
        "error in (0, 0.5) spent over the looks of a planned sequential plan: "
        "Seeds({}).up_to(CAP).pass_error(0.2)",
        where, test.name, seeds.count(), seeds.pass_error_value(),
        seeds.has_planned_cap() ? "" : " without up_to(cap)", seeds.count());
  }
  if (seeds.likelihood_ratio_looks() && (!seeds.has_planned_cap() || seeds.passes_early())) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).likelihood_ratio(){}; likelihood-ratio looks "
        "need a planned cap, and calibrate the PASS error themselves (pass_error(), not "
        "pass_early()): Seeds({}).then_blocks_of(1).up_to(CAP).likelihood_ratio().pass_error(0.2)",
        where, test.name, seeds.count(),
        !seeds.has_planned_cap() ? " without up_to(cap)" : " with pass_early()", seeds.count());
  }
  if (std::string problem = pass_boundary_problem(test, where); !problem.empty()) return problem;
  if (seeds.passes_early() && !seeds.sequential()) {
    return fmt::format(
        "{}: seeded test '{}' declares Seeds({}).pass_early() without up_to(cap); passing early "
        "spends the PASS error over the looks of a sequential plan: Seeds({}).up_to(CAP)"
        ".pass_early()",
        where, test.name, seeds.count(), seeds.count());
  }
  return "";
}

std::string attempts_problem(const RegisteredTest& test, const std::string& where) {
  const double detect = test.attempts.detect_rate();
  // A cap is attempts planned and seeds reserved: 100,000 is more than any gate needs.
  if (test.flaky() && (test.attempts.cap() < test.attempts.block() ||
                       test.attempts.cap() > 100000 || !(detect > 0.0 && detect < 1.0))) {
    return fmt::format(
        "{}: flaky test '{}' declares Attempts({}).up_to({}).detect({}); it needs a cap no "
        "smaller than the block (and at most 100000) and a rate to detect between 0 and 1",
        where, test.name, test.attempts.block(), test.attempts.cap(), detect);
  }
  return "";
}

std::string variant_override_problem(const RegisteredTest& test, const Variant& variant,
                                     const std::string& where) {
  for (const ParamSpec& change : variant.overrides) {
    const ParamSpec* declared = test.find_param(change.name);
    if (declared == nullptr) {
      return fmt::format("{}: variant '{}' of test '{}' sets '{}', which the test does not declare",
                         where, variant.name, test.name, change.name);
    }
    const bool int_for_double = std::holds_alternative<double>(declared->default_value) &&
                                std::holds_alternative<std::int64_t>(change.default_value);
    if (declared->default_value.index() != change.default_value.index() && !int_for_double) {
      return fmt::format(
          "{}: variant '{}' of test '{}' sets '{}' to a {}, but it is declared as {}", where,
          variant.name, test.name, change.name, param_type_name(change.default_value),
          param_type_name(declared->default_value));
    }
  }
  return "";
}

std::string variant_problem(const RegisteredTest& test, const std::string& where) {
  std::set<std::string> variant_names;
  for (const Variant& variant : test.seeds.variant_list()) {
    const bool bad_characters =
        variant.name.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
        std::string::npos;
    if (std::string problem = declared_name_problem("variant", variant.name, bad_characters,
                                                    "use only letters, digits, '_' and '-'",
                                                    variant_names, test, where);
        !problem.empty()) {
      return problem;
    }
    if (std::string problem = variant_override_problem(test, variant, where); !problem.empty()) {
      return problem;
    }
  }
  return "";
}

}  // namespace

void TestRegistry::add(RegisteredTest test) {
  const std::string where = fmt::format("{}:{}", test.file, test.line);
  if (const RegisteredTest* other = find(test.name)) {
    // --set and baselines address tests by name alone, so names must be unique across tiers.
    add_error(fmt::format("{}: test name '{}' is already used by {}:{}", where, test.name,
                          other->file, other->line));
    return;
  }
  // The first problem found is reported; the test is not registered. A random search's trials
  // join the variants once its ranges are known to be good, and are checked as variants then.
  for (const auto problem_of : {parameter_problem, seed_plan_problem, attempts_problem,
                                search_problem, randomness_study_problem}) {
    if (std::string problem = problem_of(test, where); !problem.empty()) {
      add_error(std::move(problem));
      return;
    }
  }
  if (!test.seeds.searches().empty()) {
    std::vector<Variant> variants = test.seeds.variant_list();
    for (const RandomSearch& search : test.seeds.searches()) {
      for (Variant& trial : draw_trials(test.name, search)) variants.push_back(std::move(trial));
    }
    test.seeds.variants(std::move(variants));
  }
  add_randomness_study_variants(test);
  if (std::string problem = variant_problem(test, where); !problem.empty()) {
    add_error(std::move(problem));
    return;
  }
  tests_.push_back(std::move(test));
}

}  // namespace mlregress::internal
