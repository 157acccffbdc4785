#include "registry/random_search.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <utility>
#include <variant>

#include "support/fnv1a.h"
#include "support/overloaded.h"

namespace mlregress::internal {

namespace {

// A drawn double at 6 significant digits, kept inside the declared range. to_chars and
// from_chars round correctly and ignore the locale.
double six_digits(double value, double low, double high) {
  char text[64];
  const auto written =
      std::to_chars(text, text + sizeof text, value, std::chars_format::general, 6);
  double rounded = value;
  std::from_chars(text, written.ptr, rounded);
  return std::clamp(rounded, low, high);
}

// floor(u · n) for a range of n values, at most n - 1.
std::uint64_t index_below(double u, std::uint64_t n) {
  const auto index = static_cast<std::uint64_t>(u * static_cast<double>(n));
  return std::min(index, n - 1);
}

}  // namespace

std::uint64_t search_seed(const std::string& test, const std::string& method) {
  return fnv1a_64(test + "/" + method);
}

double unit_draw(std::mt19937_64& engine) {
  return static_cast<double>(engine() >> 11) * 0x1.0p-53;
}

ParamValue draw_from(const SearchRange& range, std::mt19937_64& engine) {
  const double u = unit_draw(engine);
  return std::visit(
      Overloaded{
          [&](const Uniform& r) -> ParamValue {
            return six_digits(r.low + u * (r.high - r.low), r.low, r.high);
          },
          [&](const LogUniform& r) -> ParamValue {
            const double log_low = std::log(r.low);
            return six_digits(std::exp(log_low + u * (std::log(r.high) - log_low)), r.low, r.high);
          },
          [&](const IntRange& r) -> ParamValue {
            const std::uint64_t n =
                static_cast<std::uint64_t>(r.high) - static_cast<std::uint64_t>(r.low) + 1;
            return static_cast<std::int64_t>(static_cast<std::uint64_t>(r.low) + index_below(u, n));
          },
          [&](const Choice& r) -> ParamValue {
            return r.choices.at(index_below(u, r.choices.size()));
          },
      },
      range);
}

std::string range_text(const SearchRange& range) {
  return std::visit(
      Overloaded{
          [](const Uniform& r) { return fmt::format("Uniform({}, {})", r.low, r.high); },
          [](const LogUniform& r) { return fmt::format("LogUniform({}, {})", r.low, r.high); },
          [](const IntRange& r) { return fmt::format("IntRange({}, {})", r.low, r.high); },
          [](const Choice& r) { return fmt::format("Choice({{{}}})", fmt::join(r.choices, ", ")); },
      },
      range);
}

std::vector<Variant> draw_trials(const std::string& test, const RandomSearch& search) {
  std::mt19937_64 engine(search_seed(test, search.method));
  std::vector<Variant> trials;
  for (int trial = 0; trial < search.trials; ++trial) {
    Variant variant;
    variant.name = fmt::format("{}-{}", search.method, trial);
    variant.method = search.method;
    variant.trial = trial;
    for (const SearchParam& param : search.params) {
      const ParamValue value = draw_from(param.range, engine);
      std::visit([&](const auto& v) { variant.overrides.emplace_back(param.name, v); }, value);
    }
    trials.push_back(std::move(variant));
  }
  return trials;
}

namespace {

// What is wrong with a range itself: "" when nothing.
std::string bad_range(const SearchRange& range) {
  return std::visit(
      Overloaded{
          [](const Uniform& r) -> std::string {
            const bool ok = std::isfinite(r.low) && std::isfinite(r.high) && r.low < r.high;
            return ok ? "" : "a uniform range needs finite bounds with low < high";
          },
          [](const LogUniform& r) -> std::string {
            const bool ok =
                std::isfinite(r.low) && std::isfinite(r.high) && r.low > 0.0 && r.low < r.high;
            return ok ? "" : "a log-uniform range needs finite bounds with 0 < low < high";
          },
          [](const IntRange& r) -> std::string {
            return r.low < r.high ? "" : "an integer range needs low < high";
          },
          [](const Choice& r) -> std::string {
            const std::set<std::string> distinct(r.choices.begin(), r.choices.end());
            if (r.choices.size() < 2) return "a choice needs at least 2 values";
            return distinct.size() == r.choices.size() ? "" : "a choice lists a value twice";
          },
      },
      range);
}

// The type a range draws must be the parameter's: a double range for a double, an integer range
// for an int (or a double), a choice for a string.
bool draws_the_type_of(const SearchRange& range, const ParamValue& declared) {
  const bool is_double = std::holds_alternative<double>(declared);
  return std::visit(
      Overloaded{
          [&](const Uniform&) { return is_double; },
          [&](const LogUniform&) { return is_double; },
          [&](const IntRange&) {
            return is_double || std::holds_alternative<std::int64_t>(declared);
          },
          [&](const Choice&) { return std::holds_alternative<std::string>(declared); },
      },
      range);
}

std::string param_problem(const RegisteredTest& test, const RandomSearch& search,
                          const SearchParam& param, const std::string& where) {
  const std::string head =
      fmt::format("{}: random_search '{}' of test '{}' draws '{}' from {}", where, search.method,
                  test.name, param.name, range_text(param.range));
  const ParamSpec* declared = test.find_param(param.name);
  if (declared == nullptr) return head + ", but the test declares no parameter of that name";
  if (!draws_the_type_of(param.range, declared->default_value)) {
    return fmt::format("{}, but '{}' is declared as {}", head, param.name,
                       param_type_name(declared->default_value));
  }
  if (std::string bad = bad_range(param.range); !bad.empty()) return head + "; " + bad;
  return "";
}

std::string one_search_problem(const RegisteredTest& test, const RandomSearch& search,
                               const std::string& where) {
  const bool usable_name =
      !search.method.empty() &&
      search.method.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == std::string::npos;
  if (!usable_name) {
    return fmt::format(
        "{}: random_search method name '{}' of test '{}' must be non-empty and use only letters, "
        "digits and '_'",
        where, search.method, test.name);
  }
  if (search.trials < 1 || search.params.empty()) {
    return fmt::format(
        "{}: random_search '{}' of test '{}' declares {} trials over {} parameters; it needs at "
        "least 1 trial and 1 parameter",
        where, search.method, test.name, search.trials, search.params.size());
  }
  std::set<std::string> drawn;
  for (const SearchParam& param : search.params) {
    if (!drawn.insert(param.name).second) {
      return fmt::format("{}: random_search '{}' of test '{}' draws '{}' twice", where,
                         search.method, test.name, param.name);
    }
    if (std::string problem = param_problem(test, search, param, where); !problem.empty()) {
      return problem;
    }
  }
  return "";
}

}  // namespace

std::string search_problem(const RegisteredTest& test, const std::string& where) {
  std::set<std::string> methods;
  for (const RandomSearch& search : test.seeds.searches()) {
    if (std::string problem = one_search_problem(test, search, where); !problem.empty()) {
      return problem;
    }
    if (!methods.insert(search.method).second) {
      return fmt::format("{}: random_search '{}' of test '{}' is declared twice", where,
                         search.method, test.name);
    }
  }
  return "";
}

std::vector<MethodTrials> tuning_budgets(const Seeds& seeds) {
  std::vector<std::string> methods;
  for (const Variant& v : seeds.variant_list()) methods.push_back(v.method);
  return count_trials(methods);
}

}  // namespace mlregress::internal
