// Flips sliced by a per-example attribute. Planted: 40 examples lost among positions 12–15 of
// 200 (they must all land in that quartile, with a Holm p far below 0.01, and no other slice
// lose any); an attribute with few integer values (one slice per value) against one with many or
// fractional values (quartiles); examples without a value (the slice "missing"); an attribute only
// the baseline carries (its values are used); losses spread evenly (not concentrated).
#include "analysis/slice_flips.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/prediction_flips.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// n examples, ids 0..n-1, every one correct, with the attribute `name` = values(id).
template <typename Values>
Predictions all_correct(std::int64_t n, const std::string& name, Values values) {
  Predictions p;
  ExampleAttribute attribute{name, {}};
  for (std::int64_t id = 0; id < n; ++id) {
    p.ids.push_back(id);
    p.target.push_back(id % 3);
    p.predicted.push_back(id % 3);
    attribute.values.push_back(values(id));
  }
  p.attributes.push_back(attribute);
  return p;
}

// The candidate loses the first `count` examples whose id passes `lose`.
template <typename Lose>
Predictions losing(Predictions p, int count, Lose lose) {
  for (std::size_t i = 0; i < p.ids.size() && count > 0; ++i) {
    if (!lose(p.ids[i])) continue;
    p.predicted[i] = (p.target[i] + 1) % 3;
    --count;
  }
  return p;
}

std::vector<std::string> labels(const std::vector<SliceFlips>& slices) {
  std::vector<std::string> out;
  for (const SliceFlips& s : slices) out.push_back(s.label);
  return out;
}

const auto position = [](std::int64_t id) { return static_cast<double>(id % 16); };

TEST(SliceFlips, FortyLossesInTheLatePositionsLandInTheirQuartile) {
  const Predictions baseline = all_correct(200, "position", position);
  const Predictions candidate = losing(baseline, 40, [](std::int64_t id) { return id % 16 >= 12; });
  const std::vector<SliceFlips> slices = slice_flips(baseline, candidate, "position");
  // 16 integer values: quartiles, the last one [12, 16).
  ASSERT_THAT(labels(slices), ElementsAre("[0, 4)", "[4, 8)", "[8, 12)", "[12, 16)"));
  const SliceFlips& late = slices[3];
  EXPECT_EQ(late.attribute, "position");
  EXPECT_EQ(late.low, 12.0);
  EXPECT_EQ(late.high, 16.0);
  EXPECT_EQ(late.compared, 48u);  // 12 examples of each of the positions 12–15
  EXPECT_EQ(late.correct_to_wrong, 40u);
  EXPECT_EQ(late.wrong_to_correct, 0u);
  EXPECT_DOUBLE_EQ(late.accuracy_before, 1.0);
  EXPECT_DOUBLE_EQ(late.accuracy_after, 8.0 / 48.0);
  EXPECT_LT(late.p_holm, 0.01);
  EXPECT_GE(late.p_holm, late.p_two_sided);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_EQ(slices[k].correct_to_wrong, 0u) << slices[k].label;
    EXPECT_EQ(slices[k].p_holm, 1.0) << slices[k].label;
  }
  EXPECT_EQ(slice_that_lost_most(slices, "position"), &slices[3]);
  EXPECT_THAT(
      format_slice_flips(slices),
      ElementsAre(HasSubstr("by position: [12, 16) lost most, 40 →wrong, 0 →correct of 48")));

  // The comparison carries the slices and their summary line, and each flip its value.
  const PredictionComparison comparison = compare_predictions(baseline, candidate, 5);
  EXPECT_EQ(comparison.by_attribute.size(), 4u);
  EXPECT_THAT(comparison.attribute_names, ElementsAre("position"));
  ASSERT_EQ(comparison.correct_to_wrong.size(), 40u);
  for (const PredictionFlip& flip : comparison.correct_to_wrong) {
    ASSERT_EQ(flip.attributes.size(), 1u);
    EXPECT_GE(flip.attributes[0], 12.0);
  }
  EXPECT_THAT(format_flip_summary(comparison, 5),
              HasSubstr("  by position: [12, 16) lost most, 40 →wrong"));

  // Concentrated: all the lost on a quarter of the examples.
  const auto loss = concentrated_loss(slices, 40, 200, 0.05);
  ASSERT_TRUE(loss.has_value());
  EXPECT_THAT(loss->slices, ElementsAre("[12, 16)"));
  EXPECT_EQ(describe_concentrated_loss(*loss, 40, 200),
            "position [12, 16) (40 of 40 correct→wrong, on 48 of 200 examples)");
}

TEST(SliceFlips, FewIntegerValuesGetOneSliceEachOthersQuartiles) {
  // 3 values: one slice each, labelled by the value.
  const Predictions three = all_correct(90, "bucket", [](std::int64_t id) { return id % 3 + 1; });
  const std::vector<SliceFlips> categorical = slice_flips(three, three, "bucket");
  EXPECT_THAT(labels(categorical), ElementsAre("1", "2", "3"));
  EXPECT_EQ(categorical[0].compared, 30u);
  EXPECT_EQ(categorical[0].low, 1.0);
  EXPECT_EQ(categorical[0].high, 2.0);
  // 12 integer values are still one slice each; 13 are quartiles.
  EXPECT_EQ(slice_flips(all_correct(120, "v", [](std::int64_t id) { return id % 12; }),
                        all_correct(120, "v", [](std::int64_t id) { return id % 12; }), "v")
                .size(),
            12u);
  EXPECT_EQ(slice_flips(all_correct(130, "v", [](std::int64_t id) { return id % 13; }),
                        all_correct(130, "v", [](std::int64_t id) { return id % 13; }), "v")
                .size(),
            4u);
  // Two fractional values: quartiles, not one slice per value; the last one closed.
  const Predictions fractional =
      all_correct(100, "size", [](std::int64_t id) { return 0.25 * static_cast<double>(id); });
  const std::vector<SliceFlips> quartiles = slice_flips(fractional, fractional, "size");
  EXPECT_THAT(labels(quartiles),
              ElementsAre("[0, 6.25)", "[6.25, 12.5)", "[12.5, 18.75)", "[18.75, 24.75]"));
  for (const SliceFlips& s : quartiles) EXPECT_EQ(s.compared, 25u) << s.label;
  // A value most examples share stays in one slice: fewer than four.
  const Predictions tied =
      all_correct(100, "n", [](std::int64_t id) { return id < 90 ? 1.5 : 2.5 + id; });
  EXPECT_THAT(labels(slice_flips(tied, tied, "n")), ElementsAre("[1.5, 92.5)", "[92.5, 101.5]"));
}

TEST(SliceFlips, ExamplesWithoutAValueAreCountedAsMissing) {
  const auto nan_every_tenth = [](std::int64_t id) {
    return id % 10 == 0 ? std::nan("") : static_cast<double>(id % 2);
  };
  const Predictions baseline = all_correct(100, "parity", nan_every_tenth);
  const Predictions candidate = losing(baseline, 6, [](std::int64_t id) { return id % 10 == 0; });
  const std::vector<SliceFlips> slices = slice_flips(baseline, candidate, "parity");
  ASSERT_THAT(labels(slices), ElementsAre("0", "1", "missing"));
  EXPECT_EQ(slices[2].compared, 10u);
  EXPECT_EQ(slices[2].correct_to_wrong, 6u);
  EXPECT_TRUE(slices[2].missing());
  EXPECT_TRUE(std::isnan(slices[2].low));
  EXPECT_EQ(slices[0].compared + slices[1].compared, 90u);
}

TEST(SliceFlips, ValuesComeFromTheCandidateElseTheBaseline) {
  const Predictions baseline = all_correct(64, "position", position);
  Predictions candidate = losing(baseline, 8, [](std::int64_t id) { return id % 16 >= 14; });
  candidate.attributes.clear();  // the old file, or a run that records none
  const std::vector<SliceFlips> slices = slice_flips_by_attribute(baseline, candidate);
  ASSERT_EQ(slices.size(), 4u);
  EXPECT_EQ(slices[3].label, "[12, 16)");
  EXPECT_EQ(slices[3].correct_to_wrong, 8u);
  // The candidate's value wins where both have one.
  candidate.attributes = {{"position", std::vector<double>(64, 3.0)}};
  EXPECT_THAT(labels(slice_flips(baseline, candidate, "position")), ElementsAre("3"));
  // Neither carries it: no slices.
  EXPECT_TRUE(slice_flips(baseline, candidate, "length").empty());
}

TEST(SliceFlips, LossesSpreadOverEverySliceAreNotConcentrated) {
  const Predictions baseline = all_correct(400, "position", position);
  const Predictions candidate = losing(baseline, 80, [](std::int64_t id) { return id % 5 == 0; });
  const std::vector<SliceFlips> slices = slice_flips(baseline, candidate, "position");
  EXPECT_FALSE(concentrated_loss(slices, 80, 400, 0.05).has_value());
  // A slice list of 16 values capped at 10 keeps those that lost most, in the values' order.
  const Predictions many = all_correct(160, "v", [](std::int64_t id) { return id % 12; });
  const Predictions lost_late = losing(many, 30, [](std::int64_t id) { return id % 12 >= 9; });
  const std::vector<SliceFlips> kept = cap_slices(slice_flips(many, lost_late, "v"), 3);
  EXPECT_THAT(labels(kept), ElementsAre("9", "10", "11"));
}

TEST(SliceFlips, AnAttributeOfTheWrongLengthIsRejected) {
  Predictions p = all_correct(10, "position", position);
  p.attributes[0].values.pop_back();
  EXPECT_THROW(compare_predictions(p, p, 0), std::invalid_argument);
}

}  // namespace
}  // namespace mlregress::internal
