#include "comparison/predictions_gate.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "comparison/reference_file.h"
#include "storage/predictions_file.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

constexpr std::size_t kListedFlips = 5;
constexpr std::size_t kListedClasses = 10;
constexpr std::size_t kListedSlices = 10;  // of each attribute

FlipsAnalysis flips_analysis(std::shared_ptr<const PredictionComparison> comparison) {
  FlipsAnalysis a;
  a.compared = comparison->compared;
  a.correct_to_wrong = comparison->correct_to_wrong.size();
  a.wrong_to_correct = comparison->wrong_to_correct.size();
  a.baseline_accuracy = comparison->baseline_accuracy;
  a.candidate_accuracy = comparison->candidate_accuracy;
  a.p_worse = comparison->mcnemar.p_worse;
  a.p_better = comparison->mcnemar.p_better;
  for (std::size_t i = 0; i < comparison->by_class.size() && i < kListedClasses; ++i)
    a.by_class.push_back(comparison->by_class[i]);
  a.by_attribute = cap_slices(comparison->by_attribute, kListedSlices);
  a.summary = format_flip_summary(*comparison, kListedFlips);
  a.full = std::move(comparison);
  return a;
}

// The share of a whole set's examples predicted right: what the baseline stored, before any
// pairing with the candidate's (NaN for an empty set).
double accuracy_of(const Predictions& predictions) {
  if (predictions.ids.empty()) return std::nan("");
  std::size_t correct = 0;
  for (std::size_t i = 0; i < predictions.ids.size(); ++i) {
    correct += predictions.predicted[i] == predictions.target[i] ? 1 : 0;
  }
  return static_cast<double>(correct) / static_cast<double>(predictions.ids.size());
}

std::string predictions_sizes(const MetricComparison& c, std::size_t baseline_examples,
                              const RecordedPredictions& recorded) {
  return fmt::format("the baseline's accuracy {} on {} examples, this run's {} on {}",
                     c.baseline ? format_value(*c.baseline) : "—", baseline_examples,
                     format_value(recorded.accuracy), recorded.examples);
}

}  // namespace

MetricComparison compare_predictions_metric(const RecordedPredictions& recorded,
                                            const std::string& reference_csv) {
  MetricComparison c;
  c.metric = recorded.name;
  c.kind = MetricKind::kPredictions;
  c.observed = recorded.accuracy;
  c.tolerance = "McNemar exact";
  const std::optional<Predictions> reference =
      read_reference_file(reference_csv, "predictions", "them", read_predictions_csv, c);
  if (!reference) return c;
  if (!recorded.data) {
    c.verdict = Verdict::kNotComparable;
    c.note = "this run's predictions could not be read";
    return c;
  }
  auto comparison = std::make_shared<const PredictionComparison>(
      compare_predictions(*reference, *recorded.data, kListedFlips));
  c.baseline = comparison->baseline_accuracy;
  if (!comparison->comparable()) {
    // Nothing was paired: the baseline is the stored set as a whole, beside this run's.
    c.baseline = accuracy_of(*reference);
    c.verdict = Verdict::kNotComparable;
    c.note = fmt::format("not compared, the evaluation set changed: {}; {}",
                         comparison->not_comparable_reason,
                         predictions_sizes(c, reference->ids.size(), recorded));
    return c;
  }
  c.observed = comparison->candidate_accuracy;
  c.delta = comparison->candidate_accuracy - comparison->baseline_accuracy;
  if (comparison->baseline_accuracy != 0.0)
    c.relative_change = *c.delta / comparison->baseline_accuracy;
  c.flips = flips_analysis(std::move(comparison));
  c.verdict = Verdict::kInconclusive;
  c.note = "decided when the run ends, with Holm's correction across the run's statistical checks";
  return c;
}

GateDecision decide_predictions(const FlipsAnalysis& flips, const OtherCheck& adjusted,
                                double alpha) {
  GateDecision d;
  d.p_worse_adjusted = adjusted.p_worse;
  d.p_better_adjusted = adjusted.p_better;
  const std::string counts =
      fmt::format("{} correct→wrong, {} wrong→correct on {} examples", flips.correct_to_wrong,
                  flips.wrong_to_correct, flips.compared);
  if (adjusted.p_worse < alpha) {
    d.verdict = Verdict::kRegression;
    d.reason = fmt::format("{}: McNemar p(worse)={:.2g} (Holm {:.2g}) < {}", counts, flips.p_worse,
                           adjusted.p_worse, alpha);
    if (const auto loss =
            concentrated_loss(flips.by_attribute, flips.correct_to_wrong, flips.compared, alpha)) {
      d.reason += "; lost mostly in " +
                  describe_concentrated_loss(*loss, flips.correct_to_wrong, flips.compared);
    }
  } else if (adjusted.p_better < alpha) {
    d.verdict = Verdict::kImproved;
    d.reason = fmt::format("{}: McNemar p(better)={:.2g} (Holm {:.2g}) < {}", counts,
                           flips.p_better, adjusted.p_better, alpha);
  } else {
    d.verdict = Verdict::kPass;
    d.reason = fmt::format("{}: no significant change (McNemar p(worse)={:.2g}, Holm {:.2g})",
                           counts, flips.p_worse, adjusted.p_worse);
  }
  return d;
}

}  // namespace mlregress::internal
