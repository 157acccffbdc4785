// random_search(): the variants a seeded test's random searches add, drawn the same way on every
// machine, and what is wrong with a search's declaration.
//
// The draws: one std::mt19937_64 per (test, method), seeded with FNV-1a 64 of "TEST/METHOD"
// (the test's own name, "OptimizerSearch/adam"). Trial after trial, each declared parameter in
// order takes the next output x and u = (x >> 11) · 2^-53, a double in [0, 1) that does not
// depend on the standard library (std::uniform_*_distribution do). Then:
//   Uniform(low, high)     low + u · (high − low)
//   LogUniform(low, high)  exp(log low + u · (log high − log low))
//   IntRange(low, high)    low + floor(u · (high − low + 1))
//   Choice({c0, ...})      c[floor(u · n)]
// and a double is rounded to 6 significant digits (clamped into [low, high]), so that a last-bit
// difference between two maths libraries' exp or log does not change the value (and it reads well
// in a table). Trial k's values do not depend on how many trials are declared.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "mlregress/param.h"
#include "mlregress/seeds.h"
#include "record/tuning_budget.h"
#include "registry/test_registry.h"

namespace mlregress::internal {

/// The generator's seed for a test's method: FNV-1a 64 of "TEST/METHOD".
std::uint64_t search_seed(const std::string& test, const std::string& method);

/// The next u in [0, 1) from the generator: (x >> 11) · 2^-53.
double unit_draw(std::mt19937_64& engine);

/// One value of the range from the generator (one output drawn).
ParamValue draw_from(const SearchRange& range, std::mt19937_64& engine);

/// "LogUniform(0.0001, 0.1)", "IntRange(16, 64)", "Choice({relu, gelu})".
std::string range_text(const SearchRange& range);

/// The search's trials as variants METHOD-0, METHOD-1, ..., with method and trial set.
std::vector<Variant> draw_trials(const std::string& test, const RandomSearch& search);

/// What is wrong with the test's random searches ("" when nothing): a method name that is empty,
/// unusable or repeated, fewer than 1 trial, no parameter, a parameter the test does not declare
/// or of another type than its range draws, one drawn twice, or a bad range (low >= high, a
/// log-uniform low <= 0, a bound that is not finite, an empty or repeated choice). `where` is the
/// test's "file:line".
std::string search_problem(const RegisteredTest& test, const std::string& where);

/// The trials of each method of a seeded test, in declared order.
std::vector<MethodTrials> tuning_budgets(const Seeds& seeds);

}  // namespace mlregress::internal
