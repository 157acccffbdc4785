// Registration of seeded tests: a variant that names an undeclared parameter, gives it the
// wrong type, repeats a name or uses a name the metric suffix cannot carry is refused when the
// binary starts (exit code usage_error), not discovered half-way through a 20-seed run; so is a
// flaky test's plan that cannot gate (a cap below its block, a rate to detect outside (0, 1)),
// and pass_early() without the looks of up_to().
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "builders.h"
#include "registry/test_registry.h"

namespace mlregress::internal {
namespace {

RegisteredTest seeded_test(std::vector<Variant> variants, Seeds seeds = Seeds(8)) {
  RegisteredTest test = registered_test(Tier::Full, "Full", "Study", "study_test.cc", 7,
                                        {{"width", 32}, {"lr", 1e-3}});
  test.seeds = seeds.variants(std::move(variants));
  return test;
}

std::string error_of(std::vector<Variant> variants, Seeds seeds = Seeds(8)) {
  TestRegistry registry;
  registry.add(seeded_test(std::move(variants), seeds));
  if (registry.errors().empty()) {
    EXPECT_EQ(registry.tests().size(), 1u);
    return "";
  }
  EXPECT_TRUE(registry.tests().empty()) << "a refused test must not be registered";
  return registry.errors().front();
}

TEST(SeedRegistrationTest, WellFormedVariantsAreAcceptedAndAnIntegerMayStandForADouble) {
  EXPECT_EQ(error_of({{"baseline", {}}, {"half_width", {{"width", 16}}}, {"lr_1e-2", {{"lr", 1}}}}),
            "");
}

TEST(SeedRegistrationTest, AVariantThatSetsAnUndeclaredParameterIsRefused) {
  const std::string error = error_of({{"baseline", {}}, {"deep", {{"depth", 3}}}});
  EXPECT_THAT(error,
              ::testing::HasSubstr("study_test.cc:7: variant 'deep' of test 'Study' sets 'depth'"))
      << error;
}

TEST(SeedRegistrationTest, AVariantThatChangesAParameterTypeIsRefused) {
  const std::string error = error_of({{"baseline", {}}, {"narrow", {{"width", "sixteen"}}}});
  EXPECT_THAT(error, ::testing::HasSubstr("sets 'width' to a string, but it is declared as int"))
      << error;
}

TEST(SeedRegistrationTest, RepeatedOrUnusableVariantNamesAreRefused) {
  EXPECT_THAT(error_of({{"a", {}}, {"a", {{"width", 16}}}}),
              ::testing::HasSubstr("declared twice"));
  EXPECT_THAT(error_of({{"half width", {}}}), ::testing::HasSubstr("must be non-empty"));
  EXPECT_THAT(error_of({{"", {}}}), ::testing::HasSubstr("must be non-empty"));
}

TEST(SeedRegistrationTest, ASequentialPlanThatCannotLookIsRefused) {
  EXPECT_EQ(error_of({}, Seeds(8).up_to(40)), "");
  EXPECT_EQ(error_of({}, Seeds(8).up_to(8)), "");  // one look: the plain gate
  EXPECT_THAT(error_of({}, Seeds(8).up_to(4)),
              ::testing::HasSubstr("study_test.cc:7: seeded test 'Study' declares "
                                   "Seeds(8).up_to(4); a sequential plan needs"));
  EXPECT_THAT(error_of({}, Seeds(1).up_to(10)), ::testing::HasSubstr("blocks of at least 2"));
  EXPECT_THAT(error_of({}, Seeds(8).up_to(0)), ::testing::HasSubstr("Seeds(8).up_to(0)"));
}

// pass_early() chooses how the PASS error is spent over the looks: without looks it has nothing
// to choose, and a test that asks for it must not silently run the single-look gate.
TEST(SeedRegistrationTest, PassingEarlyWithoutASequentialPlanIsRefused) {
  EXPECT_EQ(error_of({}, Seeds(8).up_to(40).pass_early()), "");
  EXPECT_THAT(error_of({}, Seeds(8).pass_early()),
              ::testing::HasSubstr("study_test.cc:7: seeded test 'Study' declares "
                                   "Seeds(8).pass_early() without up_to(cap)"));
}

// then_blocks_of() sizes the blocks after the first: a size that cannot be tested, or a plan
// without looks to size, is refused rather than run as another plan.
TEST(SeedRegistrationTest, LaterBlocksNeedASequentialPlanAndTwoSeeds) {
  EXPECT_EQ(error_of({}, Seeds(12).then_blocks_of(8).up_to(44)), "");
  EXPECT_EQ(error_of({}, Seeds(12).then_blocks_of(8).until_decided(200)), "");
  EXPECT_THAT(error_of({}, Seeds(12).then_blocks_of(1).up_to(44)),
              ::testing::HasSubstr("study_test.cc:7: seeded test 'Study' declares "
                                   "Seeds(12).then_blocks_of(1); the blocks after the first need "
                                   "at least 2 seeds"));
  EXPECT_THAT(error_of({}, Seeds(12).then_blocks_of(8)),
              ::testing::HasSubstr("Seeds(12).then_blocks_of(8) without up_to(cap) or "
                                   "until_decided(cap)"));
}

// pass_error() is the PASS side's error over the looks of a planned sequential plan: refused
// without up_to() (no looks, or an anytime-valid study that spends nothing over planned looks)
// and outside (0, 0.5).
TEST(SeedRegistrationTest, APassErrorNeedsPlannedLooksAndAnErrorBelowOneHalf) {
  EXPECT_EQ(error_of({}, Seeds(4).then_blocks_of(4).up_to(52).pass_early().pass_error(0.2)), "");
  EXPECT_THAT(error_of({}, Seeds(8).pass_error(0.2)),
              ::testing::HasSubstr("Seeds(8).pass_error(0.2) without up_to(cap)"));
  EXPECT_THAT(error_of({}, Seeds(8).until_decided(200).pass_error(0.2)),
              ::testing::HasSubstr("without up_to(cap)"));
  for (const double bad : {0.0, 0.5, 0.7, -0.1, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_THAT(error_of({}, Seeds(8).up_to(40).pass_error(bad)),
                ::testing::HasSubstr("a one-sided error in (0, 0.5)"))
        << bad;
  }
}

// likelihood_ratio() weighs the margin against none at planned looks, which may come every seed:
// blocks of 1 are accepted with it (and only with it); without up_to(), or with pass_early() (a
// spending it does not do: it calibrates the PASS error), it is refused.
TEST(SeedRegistrationTest, LikelihoodRatioLooksNeedAPlannedCapAndMayLookEverySeed) {
  EXPECT_EQ(error_of({}, Seeds(2).then_blocks_of(1).up_to(52).likelihood_ratio().pass_error(0.2)),
            "");
  EXPECT_THAT(error_of({}, Seeds(2).then_blocks_of(1).up_to(52)),
              ::testing::HasSubstr("at least 2 seeds (1 with likelihood_ratio())"));
  EXPECT_THAT(error_of({}, Seeds(8).likelihood_ratio()),
              ::testing::HasSubstr("Seeds(8).likelihood_ratio() without up_to(cap)"));
  EXPECT_THAT(error_of({}, Seeds(8).until_decided(200).likelihood_ratio()),
              ::testing::HasSubstr("without up_to(cap)"));
  EXPECT_THAT(error_of({}, Seeds(8).up_to(40).pass_early().likelihood_ratio()),
              ::testing::HasSubstr("with pass_early()"));
  EXPECT_THAT(error_of({}, Seeds(1).up_to(40).likelihood_ratio()),
              ::testing::HasSubstr("blocks of at least 2 seeds"));
}

// pass_rise() raises the PASS boundary of likelihood-ratio looks: refused without them, for a
// rise outside (0, 5] and from a look outside the first block .. the cap.
TEST(SeedRegistrationTest, APassRiseNeedsLikelihoodRatioLooksAndALookInThePlan) {
  const auto lr = [] { return Seeds(2).then_blocks_of(2).up_to(52).likelihood_ratio(); };
  EXPECT_EQ(error_of({}, lr().pass_error(0.2).pass_rise(2.0, 10)), "");
  EXPECT_EQ(error_of({}, lr().pass_rise(5.0, 2)), "");
  EXPECT_EQ(error_of({}, lr().pass_rise(0.5, 52)), "");
  EXPECT_THAT(error_of({}, Seeds(2).then_blocks_of(2).up_to(52).pass_rise(2.0, 10)),
              ::testing::HasSubstr("declares Seeds(2).pass_rise(2, 10); the PASS boundary of "
                                   "likelihood-ratio looks may rise"));
  for (const double bad : {0.0, -1.0, 5.5, std::numeric_limits<double>::quiet_NaN()}) {
    EXPECT_THAT(error_of({}, lr().pass_rise(bad, 10)),
                ::testing::HasSubstr("by more than 0 and at most 5"))
        << bad;
  }
  for (const int from : {1, 53}) {
    EXPECT_THAT(error_of({}, lr().pass_rise(2.0, from)),
                ::testing::HasSubstr("between the first block (2) and the cap (52)"))
        << from;
  }
}

// constant_pass() keeps the PASS boundary of likelihood-ratio looks constant: refused without them
// and beside a declared rise, which says the opposite.
TEST(SeedRegistrationTest, AConstantPassBoundaryNeedsLikelihoodRatioLooksWithoutARise) {
  const auto lr = [] { return Seeds(2).then_blocks_of(2).up_to(52).likelihood_ratio(); };
  EXPECT_EQ(error_of({}, lr().pass_error(0.2).constant_pass()), "");
  EXPECT_THAT(
      error_of({}, Seeds(2).then_blocks_of(2).up_to(52).constant_pass()),
      ::testing::HasSubstr("declares Seeds(2).constant_pass() without likelihood_ratio(); "
                           "a constant PASS boundary is a choice of likelihood-ratio looks"));
  EXPECT_THAT(error_of({}, lr().pass_rise(2.0, 10).constant_pass()),
              ::testing::HasSubstr("declares Seeds(2).constant_pass() with pass_rise()"));
}

// until_decided() is its own design: combined with up_to() (a second cap) or pass_early() (a
// spending of the PASS error it does not do) the declaration is ambiguous and refused.
TEST(SeedRegistrationTest, AnAnytimeStudyRefusesThePlannedDesignsOptions) {
  EXPECT_EQ(error_of({}, Seeds(8).until_decided(200)), "");
  EXPECT_THAT(error_of({}, Seeds(8).up_to(40).until_decided(200)),
              ::testing::HasSubstr("study_test.cc:7: seeded test 'Study' declares "
                                   "Seeds(8).until_decided(200) with up_to()"));
  EXPECT_THAT(error_of({}, Seeds(8).until_decided(200).pass_early()),
              ::testing::HasSubstr("with pass_early()"));
  EXPECT_THAT(error_of({}, Seeds(8).until_decided(4)),
              ::testing::HasSubstr("declares Seeds(8).until_decided(4); a sequential plan needs"));
}

std::string flaky_error_of(Attempts attempts) {
  RegisteredTest test = seeded_test({}, Seeds(0));
  test.attempts = attempts;
  TestRegistry registry;
  registry.add(test);
  if (registry.errors().empty()) return "";
  EXPECT_TRUE(registry.tests().empty()) << "a refused test must not be registered";
  return registry.errors().front();
}

TEST(SeedRegistrationTest, AFlakyPlanThatCannotGateIsRefused) {
  EXPECT_EQ(flaky_error_of(Attempts(4).up_to(200)), "");
  EXPECT_EQ(flaky_error_of(Attempts(4)), "");  // one look at 4 attempts
  EXPECT_THAT(flaky_error_of(Attempts(8).up_to(4)),
              ::testing::HasSubstr("study_test.cc:7: flaky test 'Study' declares "
                                   "Attempts(8).up_to(4).detect(0.2); it needs a cap no smaller"));
  EXPECT_THAT(flaky_error_of(Attempts(4).up_to(200001)), ::testing::HasSubstr("at most 100000"));
  EXPECT_THAT(flaky_error_of(Attempts(4).up_to(60).detect(1.5)),
              ::testing::HasSubstr("a rate to detect between 0 and 1"));
  EXPECT_THAT(flaky_error_of(Attempts(4).up_to(60).detect(0.0)),
              ::testing::HasSubstr(".detect(0)"));
}

}  // namespace
}  // namespace mlregress::internal
