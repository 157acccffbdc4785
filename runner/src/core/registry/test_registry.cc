#include "registry/test_registry.h"

#include <fmt/format.h>

#include <set>

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

void TestRegistry::add(RegisteredTest test) {
  const std::string where = fmt::format("{}:{}", test.file, test.line);
  if (const RegisteredTest* other = find(test.name)) {
    // --set and baselines address tests by name alone, so names must be unique across tiers.
    add_error(fmt::format("{}: test name '{}' is already used by {}:{}", where, test.name,
                          other->file, other->line));
    return;
  }
  std::set<std::string> seen;
  for (const ParamSpec& spec : test.params) {
    if (spec.name.empty() || spec.name.find_first_of(".= \t\n") != std::string::npos) {
      add_error(
          fmt::format("{}: parameter name '{}' of test '{}' must be non-empty and contain "
                      "no '.', '=' or whitespace",
                      where, spec.name, test.name));
      return;
    }
    if (!seen.insert(spec.name).second) {
      add_error(fmt::format("{}: parameter '{}' of test '{}' is declared twice", where, spec.name,
                            test.name));
      return;
    }
  }
  if (test.seeds.sequential() &&
      (test.seeds.count() < 2 || test.seeds.max_count() < test.seeds.count())) {
    add_error(fmt::format(
        "{}: seeded test '{}' declares Seeds({}).{}({}); a sequential plan needs blocks of at "
        "least 2 seeds and a cap no smaller than the block",
        where, test.name, test.seeds.count(), test.seeds.anytime() ? "until_decided" : "up_to",
        test.seeds.max_count()));
    return;
  }
  if (test.seeds.anytime() && (test.seeds.has_planned_cap() || test.seeds.passes_early())) {
    add_error(fmt::format(
        "{}: seeded test '{}' declares Seeds({}).until_decided({}) with {}; an anytime-valid "
        "study spends no error over planned looks: declare either Seeds({}).until_decided(N) or "
        "Seeds({}).up_to(CAP){}",
        where, test.name, test.seeds.count(), test.seeds.max_count(),
        test.seeds.has_planned_cap() ? "up_to()" : "pass_early()", test.seeds.count(),
        test.seeds.count(), test.seeds.passes_early() ? ".pass_early()" : ""));
    return;
  }
  if (test.seeds.has_next_block() && (!test.seeds.sequential() || test.seeds.next_block() < 2)) {
    add_error(fmt::format(
        "{}: seeded test '{}' declares Seeds({}).then_blocks_of({}){}; the blocks after the "
        "first need at least 2 seeds, and a plan that looks again: "
        "Seeds({}).then_blocks_of(N).up_to(CAP)",
        where, test.name, test.seeds.count(), test.seeds.next_block(),
        test.seeds.sequential() ? "" : " without up_to(cap) or until_decided(cap)",
        test.seeds.count()));
    return;
  }
  if (test.seeds.passes_early() && !test.seeds.sequential()) {
    add_error(fmt::format(
        "{}: seeded test '{}' declares Seeds({}).pass_early() without up_to(cap); passing early "
        "spends the PASS error over the looks of a sequential plan: Seeds({}).up_to(CAP)"
        ".pass_early()",
        where, test.name, test.seeds.count(), test.seeds.count()));
    return;
  }
  const double detect = test.attempts.detect_rate();
  // A cap is attempts planned and seeds reserved: 100,000 is more than any gate needs.
  if (test.flaky() && (test.attempts.cap() < test.attempts.block() ||
                       test.attempts.cap() > 100000 || !(detect > 0.0 && detect < 1.0))) {
    add_error(fmt::format(
        "{}: flaky test '{}' declares Attempts({}).up_to({}).detect({}); it needs a cap no "
        "smaller than the block (and at most 100000) and a rate to detect between 0 and 1",
        where, test.name, test.attempts.block(), test.attempts.cap(), detect));
    return;
  }
  std::set<std::string> variant_names;
  for (const Variant& variant : test.seeds.variant_list()) {
    if (variant.name.empty() ||
        variant.name.find_first_not_of(
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") !=
            std::string::npos) {
      add_error(
          fmt::format("{}: variant name '{}' of test '{}' must be non-empty and use only "
                      "letters, digits, '_' and '-'",
                      where, variant.name, test.name));
      return;
    }
    if (!variant_names.insert(variant.name).second) {
      add_error(fmt::format("{}: variant '{}' of test '{}' is declared twice", where, variant.name,
                            test.name));
      return;
    }
    for (const ParamSpec& change : variant.overrides) {
      const ParamSpec* declared = test.find_param(change.name);
      if (declared == nullptr) {
        add_error(
            fmt::format("{}: variant '{}' of test '{}' sets '{}', which the test does not declare",
                        where, variant.name, test.name, change.name));
        return;
      }
      const bool int_for_double = std::holds_alternative<double>(declared->default_value) &&
                                  std::holds_alternative<std::int64_t>(change.default_value);
      if (declared->default_value.index() != change.default_value.index() && !int_for_double) {
        add_error(fmt::format(
            "{}: variant '{}' of test '{}' sets '{}' to a {}, but it is declared as {}", where,
            variant.name, test.name, change.name, param_type_name(change.default_value),
            param_type_name(declared->default_value)));
        return;
      }
    }
  }
  tests_.push_back(std::move(test));
}

namespace {

bool register_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                   TestFactory factory, Seeds seeds, bool timing,
                   Attempts attempts = Attempts(0)) noexcept {
  try {
    RegisteredTest test;
    test.tier = tier;
    // The macro passes the enumerator, not the token; the suite name is the capitalised tier.
    std::string token(tier_name(tier));
    token[0] = static_cast<char>(token[0] - 'a' + 'A');
    test.tier_token = token;
    test.name = name;
    test.file = file;
    test.line = line;
    test.params = std::move(params);
    test.factory = factory;
    test.seeds = std::move(seeds);
    test.timing = timing;
    test.attempts = attempts;
    TestRegistry::instance().add(std::move(test));
    return true;
  } catch (...) {
    // Out of memory during static init; there is nobody to tell but the registry itself.
    return false;
  }
}

}  // namespace

bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, PlainTestTag) noexcept {
  return register_test(tier, name, file, line, std::move(params), factory, Seeds(0), false);
}

bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, Seeds seeds) noexcept {
  if (seeds.count() <= 0) {
    TestRegistry::instance().add_error(
        fmt::format("{}:{}: seeded test '{}' declares Seeds({}); it needs at least 1", file, line,
                    name, seeds.count()));
    return false;
  }
  return register_test(tier, name, file, line, std::move(params), factory, std::move(seeds), false);
}

bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, Attempts attempts) noexcept {
  // Attempts(0) would read as "not flaky" once registered: refused here, the plan's other
  // limits in TestRegistry::add, as for seeded tests.
  if (attempts.block() < 1) {
    TestRegistry::instance().add_error(fmt::format(
        "{}:{}: flaky test '{}' declares Attempts({}); it needs blocks of at least 1 attempt", file,
        line, name, attempts.block()));
    return false;
  }
  return register_test(tier, name, file, line, std::move(params), factory, Seeds(0), false,
                       attempts);
}

bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, TimingTestTag) noexcept {
  return register_test(tier, name, file, line, std::move(params), factory, Seeds(0), true);
}

}  // namespace mlregress::internal
