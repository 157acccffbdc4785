// Paired prediction comparison. Planted: one class's predictions scrambled in the candidate
// (it must dominate the by-class table and give a small one-sided p), the same predictions in
// another order (no flips: pairing is by id, not position), evaluation sets and labels that
// changed (not comparable, with the reason), malformed predictions (rejected).
#include "analysis/prediction_flips.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;

constexpr std::int64_t kClasses = 10;

// 1,000 examples with ids that are not their positions, ~90% correct, errors spread evenly.
// mt19937's raw output is the same on every standard library (distributions are not).
Predictions make_baseline(std::mt19937& rng, std::size_t n = 1000) {
  Predictions p;
  for (std::size_t i = 0; i < n; ++i) {
    const auto target = static_cast<std::int64_t>(rng() % kClasses);
    const bool correct = rng() % 10 != 0;
    p.ids.push_back(static_cast<std::int64_t>(5000 + 7 * i));
    p.target.push_back(target);
    p.predicted.push_back(correct ? target
                                  : (target + 1 + static_cast<std::int64_t>(rng() % 9)) % kClasses);
  }
  return p;
}

// The same examples in another order.
Predictions shuffled(const Predictions& p, std::mt19937& rng) {
  std::vector<std::size_t> order(p.ids.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
  Predictions out;
  for (const std::size_t i : order) {
    out.ids.push_back(p.ids[i]);
    out.predicted.push_back(p.predicted[i]);
    out.target.push_back(p.target[i]);
  }
  return out;
}

// Appends one example to `p`.
void add_example(Predictions& p, std::int64_t id, std::int64_t target, std::int64_t predicted) {
  p.ids.push_back(id);
  p.target.push_back(target);
  p.predicted.push_back(predicted);
}

// What every comparison that is not comparable shows: why, and how many examples it paired and
// compared.
void expect_not_comparable(const PredictionComparison& r, const std::string& reason,
                           std::size_t paired, std::size_t compared) {
  EXPECT_FALSE(r.comparable());
  EXPECT_EQ(r.not_comparable_reason, reason);
  EXPECT_EQ(r.paired, paired);
  EXPECT_EQ(r.compared, compared);
}

std::string invalid_argument_of(const Predictions& baseline, const Predictions& candidate) {
  try {
    compare_predictions(baseline, candidate, 5);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(PredictionFlips, PlantedScrambledClassDominatesTheByClassTable) {
  std::mt19937 rng(20240611);
  const Predictions baseline = make_baseline(rng);
  Predictions candidate = shuffled(baseline, rng);
  for (std::size_t i = 0; i < candidate.ids.size(); ++i) {
    if (candidate.target[i] == 3) candidate.predicted[i] = static_cast<std::int64_t>(rng() % 10);
  }
  // Background noise: a few examples of other classes flip either way.
  for (std::size_t i = 0; i < 60; i += 3) {
    if (candidate.target[i] == 3) continue;
    candidate.predicted[i] = candidate.predicted[i] == candidate.target[i]
                                 ? (candidate.target[i] + 1) % kClasses
                                 : candidate.target[i];
  }

  const PredictionComparison r = compare_predictions(baseline, candidate, 5);
  ASSERT_TRUE(r.comparable()) << r.not_comparable_reason;
  EXPECT_EQ(r.paired, 1000u);
  EXPECT_EQ(r.compared, 1000u);
  ASSERT_FALSE(r.by_class.empty());
  const ClassFlips& worst = r.by_class.front();
  EXPECT_EQ(worst.target, 3);
  std::size_t others = 0;
  for (std::size_t k = 1; k < r.by_class.size(); ++k) others += r.by_class[k].correct_to_wrong;
  EXPECT_GT(worst.correct_to_wrong, 4 * others);
  EXPECT_EQ(worst.net_lost, static_cast<std::int64_t>(worst.correct_to_wrong) -
                                static_cast<std::int64_t>(worst.wrong_to_correct));
  EXPECT_LT(r.mcnemar.p_worse, 1e-10);
  EXPECT_GT(r.mcnemar.p_better, 0.999);
  EXPECT_LT(r.candidate_accuracy, r.baseline_accuracy - 0.05);
  // The largest confusion change is class 3's diagonal, emptied.
  ASSERT_FALSE(r.confusion_delta.empty());
  EXPECT_EQ(r.confusion_delta.front().target, 3);
  EXPECT_EQ(r.confusion_delta.front().predicted, 3);
  EXPECT_LT(r.confusion_delta.front().delta, -50);
  // Every row of the delta sums to zero, and the diagonal is what the by-class table says.
  std::map<std::int64_t, std::int64_t> row_sum;
  for (const auto& cell : r.confusion_delta) {
    row_sum[cell.target] += cell.delta;
    if (cell.target == cell.predicted) {
      const auto it = std::find_if(r.by_class.begin(), r.by_class.end(),
                                   [&](const ClassFlips& c) { return c.target == cell.target; });
      ASSERT_NE(it, r.by_class.end());
      EXPECT_EQ(cell.delta, -it->net_lost);
    }
  }
  for (const auto& [target, sum] : row_sum) EXPECT_EQ(sum, 0) << target;
  // Sorted by |delta|, then by cell.
  for (std::size_t k = 1; k < r.confusion_delta.size(); ++k) {
    const auto& a = r.confusion_delta[k - 1];
    const auto& b = r.confusion_delta[k];
    EXPECT_TRUE(std::llabs(a.delta) > std::llabs(b.delta) ||
                (std::llabs(a.delta) == std::llabs(b.delta) &&
                 std::pair(a.target, a.predicted) < std::pair(b.target, b.predicted)));
  }
  // Flip lists complete and by id.
  EXPECT_EQ(r.mcnemar.b, static_cast<std::int64_t>(r.correct_to_wrong.size()));
  EXPECT_EQ(r.mcnemar.c, static_cast<std::int64_t>(r.wrong_to_correct.size()));
  EXPECT_TRUE(std::is_sorted(r.correct_to_wrong.begin(), r.correct_to_wrong.end(),
                             [](const auto& a, const auto& b) { return a.id < b.id; }));
  for (const PredictionFlip& f : r.correct_to_wrong) {
    EXPECT_EQ(f.baseline_predicted, f.target);
    EXPECT_NE(f.candidate_predicted, f.target);
  }
  for (const PredictionFlip& f : r.wrong_to_correct) {
    EXPECT_NE(f.baseline_predicted, f.target);
    EXPECT_EQ(f.candidate_predicted, f.target);
  }
}

TEST(PredictionFlips, SameCopyInAnotherOrderHasNoFlips) {
  std::mt19937 rng(7);
  const Predictions baseline = make_baseline(rng);
  const PredictionComparison r = compare_predictions(baseline, shuffled(baseline, rng), 5);
  EXPECT_TRUE(r.comparable());
  EXPECT_EQ(r.paired, 1000u);
  EXPECT_TRUE(r.correct_to_wrong.empty());
  EXPECT_TRUE(r.wrong_to_correct.empty());
  EXPECT_TRUE(r.by_class.empty());
  EXPECT_TRUE(r.confusion_delta.empty());
  EXPECT_EQ(r.baseline_accuracy, r.candidate_accuracy);
  EXPECT_EQ(r.mcnemar.n, 0);
  EXPECT_EQ(r.mcnemar.p_worse, 1.0);
  EXPECT_EQ(r.mcnemar.p_two_sided, 1.0);
}

// ids 0..999, target i % 10; baseline right on the first 912. The candidate loses 40 examples
// (30 of class 3) and gains 15: 91.2% -> 88.7%. Ten classes flipped: all are named.
std::pair<Predictions, Predictions> motivating_example() {
  Predictions baseline;
  for (std::int64_t i = 0; i < 1000; ++i) {
    add_example(baseline, i, i % 10, i < 912 ? i % 10 : (i + 1) % 10);
  }
  Predictions candidate = baseline;
  int lost_3 = 0, lost_other = 0;
  for (std::int64_t i = 0; i < 912; ++i) {
    if (i % 10 == 3 && lost_3 < 30) {
      candidate.predicted[i] = 5;
      ++lost_3;
    } else if (i % 10 == 7 && lost_other < 10) {
      candidate.predicted[i] = 1;
      ++lost_other;
    }
  }
  for (std::int64_t i = 912; i < 927; ++i) candidate.predicted[i] = i % 10;
  return {baseline, candidate};
}

TEST(PredictionFlips, MotivatingExampleSummary) {
  const auto [baseline, candidate] = motivating_example();
  const PredictionComparison r = compare_predictions(baseline, candidate, 3);
  EXPECT_EQ(r.correct_to_wrong.size(), 40u);
  EXPECT_EQ(r.wrong_to_correct.size(), 15u);
  EXPECT_DOUBLE_EQ(r.baseline_accuracy, 0.912);
  EXPECT_DOUBLE_EQ(r.candidate_accuracy, 0.887);
  EXPECT_EQ(format_flip_summary(r, 3),
            "flips on 1000 paired examples: 40 correct→wrong, 15 wrong→correct (net 25 worse); "
            "McNemar exact p = 0.00051 (one-sided, worse)\n"
            "  accuracy 0.9120 → 0.8870\n"
            "  by true class: 3: 30 →wrong, 2 →correct; 7: 10 →wrong, 1 →correct; 0: 1 →correct; "
            "1: 1 →correct; 8: 1 →correct; 9: 1 →correct; 2: 2 →correct; 4: 2 →correct; "
            "5: 2 →correct; 6: 2 →correct\n"
            // Where class 3's lost examples went (to 5), and the 2 it won back (from 4).
            "  confusion change (true→predicted): 3→5 +30, 3→3 -28, 7→1 +10, 7→7 -9, 2→2 +2, "
            "2→3 -2, 3→4 -2, 4→4 +2, 4→5 -2, 5→5 +2 (and 12 more cells)\n"
            "  first correct→wrong: id 3 (class 3 → 5), id 7 (class 7 → 1), id 13 (class 3 → 5), "
            "... (37 more)\n"
            "  first wrong→correct: id 912 (class 2, was 3), id 913 (class 3, was 4), "
            "id 914 (class 4, was 5), ... (12 more)\n");
}

TEST(PredictionFlips, SummaryIsBounded) {
  // 30 classes, each losing one example: 10 named, 20 counted; no flip list when the limit is 0.
  Predictions baseline, candidate;
  for (std::int64_t i = 0; i < 30; ++i) add_example(baseline, i, i, i);
  candidate = baseline;
  for (auto& p : candidate.predicted) p += 1;
  const std::string text = format_flip_summary(compare_predictions(baseline, candidate, 0), 0);
  EXPECT_THAT(text, HasSubstr("(and 20 more classes)\n"));
  EXPECT_THAT(text, HasSubstr("0→0 -1, 0→1 +1, "));
  EXPECT_THAT(text, HasSubstr("(and 50 more cells)\n"));  // 60 changed cells, 10 named
  EXPECT_THAT(text, ::testing::Not(HasSubstr("first")));
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 4);
  const std::string improved = format_flip_summary(compare_predictions(candidate, baseline, 2), 2);
  EXPECT_THAT(improved,
              HasSubstr("(net 30 better); McNemar exact p = 9.3e-10 (one-sided, better)"));
  EXPECT_THAT(improved, HasSubstr("id 0 (class 0, was 1), id 1 (class 1, was 2), ... (28 more)"));
}

TEST(PredictionFlips, DifferentEvaluationSetsAreNotComparable) {
  Predictions baseline;
  for (std::int64_t i = 0; i < 40; ++i) add_example(baseline, i, i % 4, i % 4);
  Predictions candidate;
  for (std::size_t i = 0; i < baseline.ids.size(); ++i) {
    if (baseline.ids[i] >= 17 && baseline.ids[i] <= 20) continue;  // dropped from the set
    add_example(candidate, baseline.ids[i], baseline.target[i], baseline.predicted[i]);
  }
  PredictionComparison r = compare_predictions(baseline, candidate, 3);
  expect_not_comparable(r,
                        "the evaluation sets differ: 4 ids only in the baseline (e.g. 17, 18, 19), "
                        "0 only in the candidate",
                        36, 36);
  EXPECT_EQ(r.only_in_baseline, 4u);
  EXPECT_EQ(r.only_in_baseline_ids, (std::vector<std::int64_t>{17, 18, 19}));
  EXPECT_THAT(format_flip_summary(r, 3), ::testing::StartsWith("not comparable: the evaluation"));

  add_example(candidate, 900, 0, 0);
  r = compare_predictions(baseline, candidate, 3);
  EXPECT_EQ(r.not_comparable_reason,
            "the evaluation sets differ: 4 ids only in the baseline (e.g. 17, 18, 19), 1 only in "
            "the candidate (e.g. 900)");
}

TEST(PredictionFlips, ChangedLabelsAreNotComparable) {
  Predictions baseline;
  for (std::int64_t i = 0; i < 20; ++i) add_example(baseline, 100 - i, i % 2, 0);
  Predictions candidate = baseline;
  candidate.target[3] = 5;  // id 97
  candidate.target[8] = 5;  // id 92
  const PredictionComparison r = compare_predictions(baseline, candidate, 5);
  expect_not_comparable(r,
                        "the labels differ: 2 paired examples have another target in the "
                        "candidate (e.g. ids 92, 97)",
                        20, 18);
  EXPECT_EQ(r.targets_changed, 2u);
}

TEST(PredictionFlips, RejectsMalformedPredictions) {
  Predictions good{{1, 2, 3}, {0, 1, 2}, {0, 1, 1}};
  EXPECT_EQ(invalid_argument_of(good, good), "");

  Predictions duplicate{{1, 2, 3, 2, 3}, {0, 1, 2, 0, 0}, {0, 1, 1, 0, 0}};
  EXPECT_EQ(invalid_argument_of(good, duplicate),
            "candidate predictions: id 2 appears twice (positions 1 and 3)");
  EXPECT_EQ(invalid_argument_of(duplicate, good),
            "baseline predictions: id 2 appears twice (positions 1 and 3)");

  Predictions short_predicted{{1, 2, 3}, {0, 1}, {0, 1, 1}};
  EXPECT_THAT(invalid_argument_of(short_predicted, good),
              HasSubstr("baseline predictions: 3 ids, 2 predicted classes and 3 targets"));

  Predictions negative{{1, 2, 3}, {0, -1, 2}, {0, 1, 1}};
  EXPECT_EQ(invalid_argument_of(good, negative),
            "candidate predictions: id 2 has a negative class index (predicted -1, target 1)");
}

TEST(PredictionFlips, EmptySets) {
  const PredictionComparison r = compare_predictions({}, {}, 5);
  EXPECT_TRUE(r.comparable());
  EXPECT_EQ(r.compared, 0u);
  EXPECT_TRUE(std::isnan(r.baseline_accuracy));
  EXPECT_EQ(format_flip_summary(r, 5),
            "flips on 0 paired examples: 0 correct→wrong, 0 wrong→correct (net 0); McNemar exact "
            "p = 1 (two-sided)\n");
}

}  // namespace
}  // namespace mlregress::internal
