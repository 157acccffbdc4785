// A change point in words: the same step reads as a regression, an improvement or a change
// depending on the metric's direction, and each output's wording (the sentence, history's text
// with the kind last, the page's arrow) keeps the kind, the commit and the numbers it names.
#include "renderers/change_point_text.h"

#include <gtest/gtest.h>

#include <string>

#include "storage/metric_history.h"

namespace mlregress::internal {
namespace {

// Eight commits whose value steps from 1 to 2 at the fifth ("c4"), a metric of `direction`.
Series step_series(Direction direction) {
  Series s;
  s.test = "Suite.Test";
  s.metric = "loss";
  s.profile = "env-0";
  s.direction = direction;
  for (int i = 0; i < 8; ++i) {
    const std::string commit = "c" + std::to_string(i);
    Point& p = s.points[commit];
    p.commit = commit;
    p.first_run_at = "2026-01-0" + std::to_string(i + 1) + "T00:00:00.000Z";
    p.values = {i < 4 ? 1.0 : 2.0};
  }
  return s;
}

// The one change point of the step, as history finds it.
FoundChange the_step(Direction direction) {
  const Series series = step_series(direction);
  const std::vector<FoundChange> found = changes(series, ordered(series), {});
  EXPECT_EQ(found.size(), 1u);
  return found.empty() ? FoundChange{} : found.front();
}

TEST(ChangePointTextTest, TheSameStepIsNamedByTheMetricsDirection) {
  EXPECT_EQ(change_point_sentence(the_step(Direction::LowerIsBetter), {.commit = "c4"}),
            "regression at c4: 1 -> 2 (+100.0%, p=0)");
  EXPECT_EQ(change_point_sentence(the_step(Direction::HigherIsBetter), {.commit = "c4"}),
            "improvement at c4: 1 -> 2 (+100.0%, p=0)");
  EXPECT_EQ(change_point_sentence(the_step(Direction::MustEqual), {.commit = "c4"}),
            "change at c4: 1 -> 2 (+100.0%, p=0)");
}

TEST(ChangePointTextTest, EachOutputsWordingKeepsTheKindAndTheNumbers) {
  const FoundChange better{{.index = 3,
                            .mean_before = 2.5,
                            .mean_after = 2.0,
                            .relative_change = -0.2,
                            .p_value = 0.00012},
                           "0123456789abcdef",
                           ChangeKind::kImprovement};
  EXPECT_EQ(change_point_sentence(better, {.commit = "0123456789ab"}),
            "improvement at 0123456789ab: 2.5 -> 2 (-20.0%, p=0.00012)");
  // history --format text
  EXPECT_EQ(change_point_sentence(better, {.commit = "0123456789ab", .kind_last = true}),
            "CHANGE at 0123456789ab: 2.5 -> 2 (-20.0%, p=0.00012): improvement");
  // the history page's labels and table
  EXPECT_EQ(change_point_sentence(better, {.commit = "#4 0123456", .arrow = "→"}),
            "improvement at #4 0123456: 2.5 → 2 (-20.0%, p=0.00012)");
  EXPECT_EQ(change_point_shift(better.point, "→"), "2.5 → 2 (-20.0%, p=0.00012)");
  // a chart's marker
  EXPECT_EQ(change_point_place(better, "0123456"), "improvement at 0123456");

  FoundChange worse = better;
  worse.kind = ChangeKind::kRegression;
  EXPECT_EQ(change_point_place(worse, "0123456"), "regression at 0123456");
  EXPECT_EQ(change_kind_name(ChangeKind::kRegression), "regression");
  EXPECT_EQ(change_kind_name(ChangeKind::kImprovement), "improvement");
  EXPECT_EQ(change_kind_name(ChangeKind::kChange), "change");
}

}  // namespace
}  // namespace mlregress::internal
