// Paired comparison of two prediction sets of one classifier on a frozen evaluation set: which
// examples flipped correct -> wrong and wrong -> correct, by true class and by confusion cell,
// and McNemar's exact test on the flips. Two accuracies alone hide this: 91.2% -> 88.7% may be
// 25 examples lost at random or one class wiped out; and pairing makes the test see only the
// examples that changed, usually far stronger evidence than two unpaired accuracies give.
//
// Examples are paired by their stable id, never by position. Two prediction sets are only
// comparable when they cover the same ids with the same targets; otherwise the comparison says
// why, and still reports what it found on the examples they share.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/slice_flips.h"
#include "statistics/mcnemar.h"

namespace mlregress::internal {

/// One run's predictions: example i has id ids[i], predicted class predicted[i] and true class
/// target[i]. Ids are unique; classes are indices >= 0. Each attribute (record_predictions with
/// attributes) holds one value per example, in the same order.
struct Predictions {
  std::vector<std::int64_t> ids;
  std::vector<std::int64_t> predicted;
  std::vector<std::int64_t> target;
  std::vector<ExampleAttribute> attributes = {};
};

/// An example whose correctness changed between the baseline and the candidate.
struct PredictionFlip {
  std::int64_t id = 0;
  std::int64_t target = 0;
  std::int64_t baseline_predicted = 0;
  std::int64_t candidate_predicted = 0;
  /// The example's value of each of PredictionComparison::attribute_names (NaN: none).
  std::vector<double> attributes = {};
};

/// The flips of one true class.
struct ClassFlips {
  std::int64_t target = 0;
  std::size_t correct_to_wrong = 0;
  std::size_t wrong_to_correct = 0;
  /// correct_to_wrong - wrong_to_correct: examples of this class the candidate lost (negative:
  /// gained).
  std::int64_t net_lost = 0;
};

/// One cell of the confusion matrix (row: true class, column: predicted class) that changed.
struct ConfusionCellDelta {
  std::int64_t target = 0;
  std::int64_t predicted = 0;
  std::int64_t delta = 0;  ///< candidate count - baseline count
};

struct PredictionComparison {
  std::size_t paired = 0;                           ///< ids in both sets
  std::size_t only_in_baseline = 0;                 ///< ids the candidate lacks
  std::size_t only_in_candidate = 0;                ///< ids the baseline lacks
  std::vector<std::int64_t> only_in_baseline_ids;   ///< the smallest, at most list_limit
  std::vector<std::int64_t> only_in_candidate_ids;  ///< the smallest, at most list_limit
  std::size_t targets_changed = 0;                  ///< paired ids whose target differs
  std::vector<std::int64_t> targets_changed_ids;    ///< the smallest, at most list_limit
  /// Empty when the two sets are comparable; otherwise every reason, joined by "; ". A gate
  /// must not decide on a comparison that is not comparable.
  std::string not_comparable_reason;
  bool comparable() const { return not_comparable_reason.empty(); }

  // Everything below is over the `compared` examples: paired, with the same target.
  std::size_t compared = 0;
  double baseline_accuracy = 0.0;                ///< NaN when compared == 0
  double candidate_accuracy = 0.0;               ///< NaN when compared == 0
  std::vector<PredictionFlip> correct_to_wrong;  ///< all of them, by ascending id
  std::vector<PredictionFlip> wrong_to_correct;  ///< all of them, by ascending id
  /// True classes with at least one flip, the most examples lost first (net_lost descending,
  /// then more flips, then the class index).
  std::vector<ClassFlips> by_class;
  /// Nonzero cells only, the largest |delta| first, then by (target, predicted). Each row sums to
  /// zero: an example lost from the diagonal lands in another column of the same row.
  std::vector<ConfusionCellDelta> confusion_delta;
  /// b = correct_to_wrong.size(), c = wrong_to_correct.size().
  stats::McNemarResult mcnemar;
  /// The attributes either set carries (analysis/slice_flips.h), and the flips sliced by each.
  std::vector<std::string> attribute_names;
  std::vector<SliceFlips> by_attribute;
};

/// Pairs `candidate` with `baseline` by id. `list_limit` bounds the example id lists of the
/// id-set and target differences (and the reason text); the flip lists are always complete.
/// Throws std::invalid_argument for predictions that are malformed: vectors of different
/// lengths, an id listed twice, a negative class index, an attribute with another number of
/// values than ids (the message names the set and the first offending id or attribute).
PredictionComparison compare_predictions(const Predictions& baseline, const Predictions& candidate,
                                         std::size_t list_limit);

/// A few lines for the console, e.g.
///   flips on 1000 paired examples: 40 correct→wrong, 15 wrong→correct (net 25 worse);
///   McNemar exact p = 0.00051 (one-sided, worse)
///     accuracy 0.9120 → 0.8870
///     by true class: 3: 31 →wrong, 2 →correct; 7: 4 →wrong, 1 →correct
///     by position: [12, 16) lost most, 31 →wrong, 1 →correct of 250 (Holm p 1.5e-08); 4 slices
///     confusion change (true→predicted): 3→3 -29, 3→5 +25, 3→0 +6, 7→7 -3, ...
///     first correct→wrong: id 12 (class 3 → 5), id 31 (class 3 → 0), ... (38 more)
///     first wrong→correct: id 40 (class 7, was 2), ...
/// (the first line is one line; "McNemar Holm p" in the by-attribute line, shortened here). At most
/// `list_limit` flips of each kind, 10 classes and 10 confusion cells are named; the rest are
/// counted. A comparison that is not comparable starts with its reason.
std::string format_flip_summary(const PredictionComparison& comparison, std::size_t list_limit);

/// The "by true class" part of that summary: "0: 86 →wrong; 3: 16 →wrong, 1 →correct", at most
/// 10 classes named, the rest counted. Empty for no classes.
std::string format_class_flips(const std::vector<ClassFlips>& by_class);

}  // namespace mlregress::internal
