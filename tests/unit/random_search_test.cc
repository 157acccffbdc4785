// Seeds(n).random_search(): the draws are pinned to numbers derived outside this code (a Python
// re-implementation of std::mt19937_64 and of the rules in registry/random_search.h:
// tests/unit/random_search_reference.py prints them), so a change
// of generator, transform or rounding shows here; bad ranges are refused at registration naming
// the test and the range; the methods' budgets are counted and an unequal pair is named.
#include "registry/random_search.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "builders.h"
#include "record/tuning_budget.h"
#include "registry/test_registry.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

// The parameters every search below draws from: lr, width, activation, dropout.
std::vector<SearchParam> four_params() {
  return {{"lr", LogUniform(1e-4, 1e-1)},
          {"width", IntRange(16, 64)},
          {"activation", Choice({"relu", "gelu", "tanh"})},
          {"dropout", Uniform(0.0, 0.5)}};
}

RegisteredTest study(Seeds seeds) {
  RegisteredTest test = registered_test(
      Tier::Full, "Full", "Study", "study_test.cc", 7,
      {{"lr", 1e-3}, {"width", 32}, {"activation", "relu"}, {"dropout", 0.1}, {"steps", 400}});
  test.seeds = std::move(seeds);
  return test;
}

// The registration error of the test, "" when it registered.
std::string error_of(Seeds seeds) {
  TestRegistry registry;
  registry.add(study(std::move(seeds)));
  if (registry.errors().empty()) return "";
  EXPECT_TRUE(registry.tests().empty()) << "a refused test must not be registered";
  return registry.errors().front();
}

std::int64_t int_of(const ParamSpec& spec) { return std::get<std::int64_t>(spec.default_value); }
double double_of(const ParamSpec& spec) { return std::get<double>(spec.default_value); }
std::string string_of(const ParamSpec& spec) { return std::get<std::string>(spec.default_value); }

// The standard fixes mt19937_64's output: its 10000th from the default seed is 9981545732273789042
// ([rand.predef]); the draws below rest on it.
TEST(RandomSearch, TheGeneratorIsTheStandardsMt19937_64) {
  std::mt19937_64 engine;
  engine.discard(9999);
  EXPECT_EQ(engine(), 9981545732273789042ULL);
}

TEST(RandomSearch, TheSeedIsFnv1aOfTestAndMethodAndTheFirstDrawsArePinned) {
  EXPECT_EQ(search_seed("Study", "adam"), 7553179674100057768ULL);
  std::mt19937_64 engine(search_seed("Study", "adam"));
  EXPECT_DOUBLE_EQ(unit_draw(engine), 0.5621127723771115);
  EXPECT_DOUBLE_EQ(unit_draw(engine), 0.7096557435035782);
  EXPECT_DOUBLE_EQ(unit_draw(engine), 0.4001880230594148);
}

TEST(RandomSearch, TrialsArePinnedNamedAndNumbered) {
  const std::vector<Variant> trials = draw_trials("Study", {"adam", 3, four_params()});
  ASSERT_EQ(trials.size(), 3u);
  const double lr[] = {0.00485667, 0.0612894, 0.00118122};
  const std::int64_t width[] = {50, 39, 16};
  const char* activation[] = {"gelu", "gelu", "tanh"};
  const double dropout[] = {0.311484, 0.365169, 0.156869};
  for (int t = 0; t < 3; ++t) {
    const Variant& v = trials[t];
    EXPECT_EQ(v.name, "adam-" + std::to_string(t));
    EXPECT_EQ(v.method, "adam");
    EXPECT_EQ(v.trial, t);
    ASSERT_EQ(v.overrides.size(), 4u);
    EXPECT_EQ(v.overrides[0].name, "lr");
    EXPECT_EQ(double_of(v.overrides[0]), lr[t]) << "rounded to 6 significant digits";
    EXPECT_EQ(int_of(v.overrides[1]), width[t]);
    EXPECT_EQ(string_of(v.overrides[2]), activation[t]);
    EXPECT_EQ(double_of(v.overrides[3]), dropout[t]);
  }
}

TEST(RandomSearch, AnotherMethodDrawsItsOwnValuesAndMoreTrialsKeepTheFirstOnes) {
  const std::vector<Variant> sgd =
      draw_trials("Study", {"sgd", 3, {{"lr", LogUniform(1e-3, 1.0)}}});
  ASSERT_EQ(sgd.size(), 3u);
  EXPECT_EQ(double_of(sgd[0].overrides[0]), 0.00329271);
  EXPECT_EQ(double_of(sgd[1].overrides[0]), 0.922491);
  EXPECT_EQ(double_of(sgd[2].overrides[0]), 0.0381418);
  const std::vector<Variant> more =
      draw_trials("Study", {"sgd", 8, {{"lr", LogUniform(1e-3, 1.0)}}});
  for (int t = 0; t < 3; ++t) {
    EXPECT_EQ(double_of(more[t].overrides[0]), double_of(sgd[t].overrides[0]));
  }
}

TEST(RandomSearch, DrawsStayInsideTheirRanges) {
  for (const Variant& v : draw_trials("Study", {"wide", 500, four_params()})) {
    EXPECT_GE(double_of(v.overrides[0]), 1e-4);
    EXPECT_LE(double_of(v.overrides[0]), 1e-1);
    EXPECT_GE(int_of(v.overrides[1]), 16);
    EXPECT_LE(int_of(v.overrides[1]), 64);
    EXPECT_GE(double_of(v.overrides[3]), 0.0);
    EXPECT_LE(double_of(v.overrides[3]), 0.5);
  }
}

TEST(RandomSearch, RegistrationAddsTheTrialsAfterTheHandVariants) {
  TestRegistry registry;
  registry.add(study(Seeds(4)
                         .variants({{"default", {}}})
                         .random_search("adam", 8, four_params())
                         .random_search("sgd", 8, {{"lr", LogUniform(1e-3, 1.0)}})));
  ASSERT_TRUE(registry.errors().empty()) << registry.errors().front();
  const std::vector<Variant>& variants = registry.tests().front().seeds.variant_list();
  ASSERT_EQ(variants.size(), 17u);
  EXPECT_EQ(variants[0].name, "default");
  EXPECT_EQ(variants[0].method, "");
  EXPECT_EQ(variants[1].name, "adam-0");
  EXPECT_EQ(variants[16].name, "sgd-7");
  EXPECT_EQ(tuning_budgets(registry.tests().front().seeds),
            (std::vector<MethodTrials>{{"adam", 8}, {"sgd", 8}}));
}

TEST(RandomSearch, BadRangesAreRefusedNamingTheTestAndTheRange) {
  EXPECT_EQ(error_of(Seeds(4).random_search("adam", 2, four_params())), "");
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"lr", LogUniform(0.0, 0.1)}})),
              HasSubstr("study_test.cc:7: random_search 'adam' of test 'Study' draws 'lr' from "
                        "LogUniform(0, 0.1); a log-uniform range needs finite bounds with 0 < low "
                        "< high"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"lr", LogUniform(-1.0, 0.1)}})),
              HasSubstr("0 < low < high"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"dropout", Uniform(0.5, 0.5)}})),
              HasSubstr("draws 'dropout' from Uniform(0.5, 0.5); a uniform range needs finite "
                        "bounds with low < high"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"width", IntRange(64, 16)}})),
              HasSubstr("draws 'width' from IntRange(64, 16); an integer range needs low < high"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"activation", Choice({})}})),
              HasSubstr("draws 'activation' from Choice({}); a choice needs at least 2 values"));
  EXPECT_THAT(
      error_of(Seeds(4).random_search("adam", 2, {{"activation", Choice({"relu", "relu"})}})),
      HasSubstr("a choice lists a value twice"));
}

TEST(RandomSearch, AParameterTheTestDoesNotDeclareOrOfAnotherTypeIsRefused) {
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"momentum", Uniform(0.0, 0.9)}})),
              HasSubstr("random_search 'adam' of test 'Study' draws 'momentum' from Uniform(0, "
                        "0.9), but the test declares no parameter of that name"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"width", Uniform(16.0, 64.0)}})),
              HasSubstr("but 'width' is declared as int"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {{"lr", Choice({"a", "b"})}})),
              HasSubstr("but 'lr' is declared as double"));
  // An integer range may stand for a double parameter, as a variant's integer override may.
  EXPECT_EQ(error_of(Seeds(4).random_search("adam", 2, {{"lr", IntRange(1, 3)}})), "");
}

TEST(RandomSearch, BadMethodsAndBudgetsAreRefused) {
  EXPECT_THAT(error_of(Seeds(4)
                           .random_search("adam", 2, {{"lr", LogUniform(1e-4, 1e-1)}})
                           .random_search("adam", 2, {{"lr", LogUniform(1e-4, 1e-1)}})),
              HasSubstr("random_search 'adam' of test 'Study' is declared twice"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 0, {{"lr", LogUniform(1e-4, 1e-1)}})),
              HasSubstr("declares 0 trials over 1 parameters; it needs at least 1 trial"));
  EXPECT_THAT(error_of(Seeds(4).random_search("adam", 2, {})), HasSubstr("1 parameter"));
  EXPECT_THAT(error_of(Seeds(4).random_search("ad am", 2, {{"lr", LogUniform(1e-4, 1e-1)}})),
              HasSubstr("method name 'ad am' of test 'Study' must be non-empty"));
  EXPECT_THAT(error_of(Seeds(4).random_search(
                  "adam", 2, {{"lr", LogUniform(1e-4, 1e-1)}, {"lr", LogUniform(1e-3, 1e-1)}})),
              HasSubstr("draws 'lr' twice"));
  // A trial's name must not be a hand variant's.
  EXPECT_THAT(error_of(Seeds(4)
                           .variants({{"adam-1", {}}})
                           .random_search("adam", 2, {{"lr", LogUniform(1e-4, 1e-1)}})),
              HasSubstr("variant 'adam-1' of test 'Study' is declared twice"));
}

TEST(TuningBudget, TrialsAreCountedPerMethodAndHandVariantsCountForNone) {
  const std::vector<MethodTrials> budgets =
      count_trials({"", "adam", "adam", "sgd", "adam", "sgd", "sgd"});
  EXPECT_EQ(budgets, (std::vector<MethodTrials>{{"adam", 3}, {"sgd", 3}}));
  EXPECT_EQ(trials_per_method_text(budgets), "trials per method: adam 3, sgd 3");
  EXPECT_EQ(unequal_budget_warning(budgets), "");
  EXPECT_EQ(trials_per_method_text(count_trials({"", ""})), "");
}

TEST(TuningBudget, UnequalBudgetsAreNamed) {
  const std::vector<MethodTrials> budgets = {{"adam", 8}, {"sgd", 3}};
  EXPECT_EQ(unequal_budget_warning(budgets),
            "unequal tuning budgets: adam 8 trials, sgd 3 — the comparison favours the method "
            "tuned more");
  EXPECT_EQ(unequal_budget_warning({{"adam", 8}}), "");
}

}  // namespace
}  // namespace mlregress::internal
