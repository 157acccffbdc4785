// A confusion matrix of one set of class predictions, with what it says at a glance: the label
// balance, the majority rate (what always answering the most common true class scores), the
// accuracy against it, and the class the predictions crowd into. A classifier at 0.85 accuracy
// on labels that are 85% one class learned nothing; the matrix shows it where the accuracy
// alone cannot. record_predictions() fills one for every recorded set (results.json
// `predictions[].confusion`, report.html's Predictions block); checks::check_above_class_prior
// judges one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mlregress {

/// The cells are kept (in memory and in results.json) up to this many classes; above it, only
/// the per-class totals: a language model's predictions over a vocabulary of 32000 tokens would
/// otherwise make a matrix of a billion cells.
inline constexpr std::int64_t kConfusionMatrixMaxClasses = 50;
/// results.json keeps the per-class totals up to this many classes; above it, the scalars only.
inline constexpr std::int64_t kConfusionTotalsMaxClasses = 1000;
/// confusion_matrix refuses a class index at or above this (a label that is not a class index).
inline constexpr std::int64_t kConfusionMaxClasses = 1000000;

struct ConfusionMatrix {
  std::int64_t classes = 0;
  /// counts[target][predicted]; empty above kConfusionMatrixMaxClasses classes.
  std::vector<std::vector<std::int64_t>> counts;
  /// Per class (empty when read back from a results.json above kConfusionTotalsMaxClasses):
  std::vector<std::int64_t> target_counts;     ///< examples per true class (the label balance)
  std::vector<std::int64_t> predicted_counts;  ///< examples per predicted class
  std::vector<std::int64_t> correct_counts;    ///< the diagonal: correct examples per true class
  std::int64_t examples = 0;
  std::int64_t correct = 0;
  double accuracy = 0.0;                 ///< correct / examples; 0 for no examples
  std::int64_t majority_class = 0;       ///< the most common true class (ties: the lowest)
  double majority_rate = 0.0;            ///< its share of the examples
  std::int64_t top_predicted_class = 0;  ///< the most often predicted class (ties: the lowest)
  double top_predicted_share = 0.0;      ///< its share of the predictions
  /// Per class: correct / target count, correct / predicted count; NaN where the count is 0.
  std::vector<double> recall;
  std::vector<double> precision;

  /// The matrix as aligned text, rows the true classes, columns the predicted ones:
  ///   true\pred      0      1
  ///           0      3     12
  ///           1      0     85
  /// At most `max_classes` rows and columns; a larger matrix says how many it left out.
  std::string table(std::int64_t max_classes = 20) const;
  /// "accuracy 0.8800 vs majority rate 0.8500 (class 1); predicts class 1 for 97% of 100
  /// examples; labels 0: 15%, 1: 85%" (at most 10 classes in the label balance).
  std::string summary() const;
};

/// The matrix of `predicted` against `target` (class indices >= 0, paired by position). The
/// class count is the larger of `classes` and 1 + the largest index seen, so classes no example
/// has keep their rows. Throws std::invalid_argument for vectors of different lengths, a negative
/// index or one of kConfusionMaxClasses or more.
ConfusionMatrix confusion_matrix(const std::vector<std::int64_t>& predicted,
                                 const std::vector<std::int64_t>& target, std::int64_t classes = 0);

/// A matrix from its per-class totals (as results.json keeps them), `counts` optional: fills
/// examples, correct, accuracy, the majority, the top predicted class, recall and precision.
/// Throws std::invalid_argument when the vectors' lengths disagree.
ConfusionMatrix confusion_from_totals(std::vector<std::int64_t> target_counts,
                                      std::vector<std::int64_t> predicted_counts,
                                      std::vector<std::int64_t> correct_counts,
                                      std::vector<std::vector<std::int64_t>> counts = {});

}  // namespace mlregress
