// Seeds(n).randomness_study(): registration adds the four variants with the streams each holds,
// and refuses the study combined with variants() or random_search(); MlTest::seed(SeedStream)
// gives each stream its own seed, fixed at the first seed when the variant holds the stream; the
// ablation table's spread block shows each variant's sd beside all's and warns when a varied
// stream changed nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "builders.h"
#include "execution/test_context.h"
#include "mlregress/ml_test.h"
#include "observers/seed_spread.h"
#include "registry/test_registry.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using enum SeedStream;

RegisteredTest study(Seeds seeds) {
  RegisteredTest test = registered_test(Tier::Full, "Full", "Study", "study_test.cc", 7,
                                        {{"width", 32}, {"lr", 1e-3}});
  test.seeds = std::move(seeds);
  return test;
}

// The registry after adding the test: its error, or the registered test.
struct Registered {
  TestRegistry registry;
  std::string error() const { return registry.errors().empty() ? "" : registry.errors().front(); }
};

TEST(RandomnessStudy, RegistrationAddsFourVariantsHoldingTheOtherStreams) {
  Registered r;
  r.registry.add(study(Seeds(8).randomness_study()));
  ASSERT_EQ(r.error(), "");
  ASSERT_EQ(r.registry.tests().size(), 1u);
  const std::vector<Variant>& variants = r.registry.tests().front().seeds.variant_list();
  ASSERT_EQ(variants.size(), 4u);
  EXPECT_EQ(variants[0].name, "all");
  EXPECT_TRUE(variants[0].held.empty());
  EXPECT_EQ(variants[1].name, "data_order_only");
  EXPECT_EQ(variants[1].held, (std::vector<SeedStream>{Data, Initialisation}));
  EXPECT_EQ(variants[2].name, "initialisation_only");
  EXPECT_EQ(variants[2].held, (std::vector<SeedStream>{Data, DataOrder}));
  EXPECT_EQ(variants[3].name, "data_only");
  EXPECT_EQ(variants[3].held, (std::vector<SeedStream>{Initialisation, DataOrder}));
  for (const Variant& v : variants) EXPECT_TRUE(v.overrides.empty()) << v.name;
}

TEST(RandomnessStudy, CombinedWithVariantsOrARandomSearchItIsRefused) {
  Registered with_variants;
  with_variants.registry.add(
      study(Seeds(8).randomness_study().variants({{"baseline", {}}, {"wide", {{"width", 64}}}})));
  EXPECT_THAT(with_variants.error(),
              HasSubstr("study_test.cc:7: seeded test 'Study' declares "
                        "Seeds(8).randomness_study() together with variants()"));
  EXPECT_TRUE(with_variants.registry.tests().empty());

  Registered with_search;
  with_search.registry.add(study(
      Seeds(4).random_search("adam", 2, {{"lr", LogUniform(1e-4, 1e-1)}}).randomness_study()));
  EXPECT_THAT(with_search.error(), HasSubstr("together with random_search()"));
  EXPECT_TRUE(with_search.registry.tests().empty());
}

// seed(SeedStream) emits nothing; a running test needs somewhere its events could go.
class IgnoringSink final : public EventSink {
 public:
  void emit(const TestEvent&) override {}
};

// The body's view of seed(SeedStream) in a variant that holds `held`, at `seed` of a test whose
// first seed is 100.
std::uint64_t stream_seed(SeedStream stream, std::uint64_t seed, std::vector<SeedStream> held) {
  IgnoringSink sink;
  TestContext context;
  context.sink = &sink;
  context.seeded = true;
  context.seed = seed;
  context.first_seed = 100;
  context.held = std::move(held);
  set_current_test_context(&context);
  const std::uint64_t value = MlTest::seed(stream);
  set_current_test_context(nullptr);
  return value;
}

TEST(RandomnessStudy, AHeldStreamKeepsTheFirstSeedsValueAndAVariedOneFollowsTheSeed) {
  const std::vector<SeedStream> order_only = {Data, Initialisation};
  std::set<std::uint64_t> order_seeds;
  for (std::uint64_t seed = 100; seed < 108; ++seed) {
    // Held: the same on every seed, and the value the first seed has in every variant.
    EXPECT_EQ(stream_seed(Data, seed, order_only), stream_seed(Data, 100, {}));
    EXPECT_EQ(stream_seed(Initialisation, seed, order_only), stream_seed(Initialisation, 100, {}));
    // Varied: what the variant "all" draws at this seed.
    EXPECT_EQ(stream_seed(DataOrder, seed, order_only), stream_seed(DataOrder, seed, {}));
    order_seeds.insert(stream_seed(DataOrder, seed, order_only));
  }
  EXPECT_EQ(order_seeds.size(), 8u);  // a fresh order on every seed
}

TEST(RandomnessStudy, EachStreamHasASeedOfItsOwn) {
  const std::set<std::uint64_t> three = {
      stream_seed(Data, 5, {}), stream_seed(Initialisation, 5, {}), stream_seed(DataOrder, 5, {})};
  EXPECT_EQ(three.size(), 3u);
  for (const std::uint64_t s : three) {
    EXPECT_NE(s, 5u);                      // not the plain seed, which the global RNG got
    EXPECT_LT(s, std::uint64_t{1} << 63);  // fits a TOML integer
  }
}

const std::vector<std::string> kStudy = {"all", "data_order_only", "initialisation_only",
                                         "data_only"};

TEST(RandomnessStudy, TheSpreadBlockShowsSdWithItsIntervalAndShareOfAll) {
  SpreadSamples samples;
  samples["loss"] = {{"all", {1.0, 3.0, 1.0, 3.0}},
                     {"data_order_only", {2.0, 2.5, 2.0, 2.5}},
                     {"initialisation_only", {1.0, 3.0, 1.0, 3.0}},
                     {"data_only", {2.0, 2.0, 2.0, 2.1}}};
  const std::string block = spread_over_seeds_block(kStudy, {"loss"}, samples);
  EXPECT_THAT(block, HasSubstr("spread over seeds"));
  // all: sd 1.155 over 4 seeds, 95% CI [0.6541, 4.305] (1.155·sqrt(3/9.348), 1.155·sqrt(3/0.2158)).
  EXPECT_THAT(block, HasSubstr("all                  1.155 [0.6541, 4.305] · 1.00 · 4 seeds"));
  // data_order_only: sd 0.2887, var 0.0833 of all's 1.333: 0.06.
  EXPECT_THAT(block, HasSubstr("data_order_only      0.2887 ["));
  EXPECT_THAT(block, HasSubstr("· 0.06 · 4 seeds"));
  EXPECT_THAT(block, Not(HasSubstr("warning")));
  // Another ablation's table gets no block.
  EXPECT_EQ(spread_over_seeds_block({"baseline", "half_width"}, {"loss"}, samples), "");
}

// The plant: the body drew its order from the global RNG, which the held streams do not move,
// so varying the order stream changed nothing.
TEST(RandomnessStudy, AVariedStreamThatChangedNothingIsWarnedAbout) {
  SpreadSamples samples;
  samples["loss"] = {{"all", {1.0, 3.0, 2.0}},
                     {"data_order_only", {2.0, 2.0, 2.0}},
                     {"initialisation_only", {1.0, 3.0, 2.5}},
                     {"data_only", {2.0, 2.2, 2.1}}};
  samples["params"] = {{"all", {9, 9, 9}},  // constant by nature: no warning on its own
                       {"data_order_only", {9, 9, 9}},
                       {"initialisation_only", {9, 9, 9}},
                       {"data_only", {9, 9, 9}}};
  const std::string block = spread_over_seeds_block(kStudy, {"loss", "params"}, samples);
  EXPECT_THAT(block, HasSubstr("warning: varying data_order changed nothing over 3 seeds "
                               "(data_order_only: every metric's sd is 0): is it drawn from "
                               "seed(SeedStream::DataOrder)?"));
  EXPECT_THAT(block, Not(HasSubstr("varying initialisation")));
  EXPECT_THAT(block, Not(HasSubstr("varying every stream")));
}

}  // namespace
}  // namespace mlregress::internal
