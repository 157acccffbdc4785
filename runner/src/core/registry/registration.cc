// ML_TEST's registration calls: each adds a RegisteredTest to the registry, or an error the
// binary reports when it starts.
#include "mlregress/registration.h"

#include <fmt/format.h>

#include <string>
#include <utility>

#include "registry/test_registry.h"

namespace mlregress::internal {

namespace {

bool register_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                   TestFactory factory, Seeds seeds, bool timing, Attempts attempts = Attempts(0),
                   bool capability = false) noexcept {
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
    test.capability = capability;
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

bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, CapabilityTestTag) noexcept {
  return register_test(tier, name, file, line, std::move(params), factory, Seeds(0), false,
                       Attempts(0), /*capability=*/true);
}

}  // namespace mlregress::internal
