#include "analysis/prediction_flips.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <unordered_map>
#include <utility>

namespace mlregress::internal {
namespace {

// Classes named in the summary's by-class line; the rest are counted.
constexpr std::size_t kMaxClassesListed = 10;

// id -> position, after checking what compare_predictions promises to reject.
std::unordered_map<std::int64_t, std::size_t> index_by_id(const Predictions& predictions,
                                                          std::string_view which) {
  const std::size_t n = predictions.ids.size();
  if (predictions.predicted.size() != n || predictions.target.size() != n) {
    throw std::invalid_argument(fmt::format(
        "{} predictions: {} ids, {} predicted classes and {} targets (the lengths must agree)",
        which, n, predictions.predicted.size(), predictions.target.size()));
  }
  for (const ExampleAttribute& a : predictions.attributes) {
    if (a.values.size() != n) {
      throw std::invalid_argument(
          fmt::format("{} predictions: {} ids but {} values of the attribute '{}'", which, n,
                      a.values.size(), a.name));
    }
  }
  std::unordered_map<std::int64_t, std::size_t> index;
  index.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t id = predictions.ids[i];
    const auto [it, inserted] = index.emplace(id, i);
    if (!inserted) {
      throw std::invalid_argument(fmt::format(
          "{} predictions: id {} appears twice (positions {} and {})", which, id, it->second, i));
    }
    if (predictions.predicted[i] < 0 || predictions.target[i] < 0) {
      throw std::invalid_argument(
          fmt::format("{} predictions: id {} has a negative class index (predicted {}, target {})",
                      which, id, predictions.predicted[i], predictions.target[i]));
    }
  }
  return index;
}

std::string join_ids(const std::vector<std::int64_t>& ids) {
  return fmt::format("{}", fmt::join(ids, ", "));
}

// " (e.g. 17, 18, 19)", or nothing when there is nothing to show.
std::string examples(const std::vector<std::int64_t>& ids, std::string_view prefix = "") {
  return ids.empty() ? std::string() : fmt::format(" (e.g. {}{})", prefix, join_ids(ids));
}

std::vector<std::int64_t> first_ids(std::vector<std::int64_t> ids, std::size_t limit) {
  std::sort(ids.begin(), ids.end());
  if (ids.size() > limit) ids.resize(limit);
  return ids;
}

// Why the two sets cannot be compared (ids or labels differ), or "".
std::string not_comparable_reason(const PredictionComparison& result) {
  std::vector<std::string> reasons;
  if (result.only_in_baseline > 0 || result.only_in_candidate > 0) {
    reasons.push_back(fmt::format(
        "the evaluation sets differ: {} ids only in the baseline{}, {} only in the candidate{}",
        result.only_in_baseline, examples(result.only_in_baseline_ids), result.only_in_candidate,
        examples(result.only_in_candidate_ids)));
  }
  if (result.targets_changed > 0) {
    reasons.push_back(
        fmt::format("the labels differ: {} paired examples have another target in the candidate{}",
                    result.targets_changed, examples(result.targets_changed_ids, "ids ")));
  }
  return fmt::format("{}", fmt::join(reasons, "; "));
}

// The classes that lost most first, then the confusion cells that moved most.
void rank_changes(
    PredictionComparison& result, std::map<std::int64_t, ClassFlips>& by_class,
    const std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t>& confusion_delta) {
  for (auto& [target, flips] : by_class) {
    flips.net_lost = static_cast<std::int64_t>(flips.correct_to_wrong) -
                     static_cast<std::int64_t>(flips.wrong_to_correct);
    result.by_class.push_back(flips);
  }
  // std::map gave them by class index; stable_sort keeps that as the last tie-break.
  std::stable_sort(
      result.by_class.begin(), result.by_class.end(), [](const ClassFlips& a, const ClassFlips& b) {
        if (a.net_lost != b.net_lost) return a.net_lost > b.net_lost;
        return a.correct_to_wrong + a.wrong_to_correct > b.correct_to_wrong + b.wrong_to_correct;
      });

  for (const auto& [cell, delta] : confusion_delta) {
    if (delta != 0) result.confusion_delta.push_back({cell.first, cell.second, delta});
  }
  std::stable_sort(result.confusion_delta.begin(), result.confusion_delta.end(),
                   [](const ConfusionCellDelta& a, const ConfusionCellDelta& b) {
                     return std::llabs(a.delta) > std::llabs(b.delta);
                   });
}

// What the walk over the baseline's examples gathers besides the flips it adds to the result.
struct PairedTally {
  std::vector<std::int64_t> only_baseline, changed_targets;
  std::size_t baseline_correct = 0, candidate_correct = 0;
  std::map<std::int64_t, ClassFlips> by_class;
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> confusion_delta;
};

// Baseline positions in id order, so every list below comes out sorted by id whatever order
// either file is in.
std::vector<std::size_t> positions_in_id_order(const Predictions& baseline) {
  std::vector<std::size_t> order(baseline.ids.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return baseline.ids[a] < baseline.ids[b]; });
  return order;
}

// One example both sets hold with the same target (baseline position i, candidate position j):
// its correctness before and after, the confusion cells it moves, and its flip if it flipped.
void compare_example(const Predictions& baseline, std::size_t i, const Predictions& candidate,
                     std::size_t j, PredictionComparison& result, PairedTally& tally) {
  const std::int64_t id = baseline.ids[i];
  const std::int64_t target = baseline.target[i];
  const std::int64_t before = baseline.predicted[i], after = candidate.predicted[j];
  const bool was_correct = before == target, is_correct = after == target;
  tally.baseline_correct += was_correct;
  tally.candidate_correct += is_correct;
  if (before != after) {
    --tally.confusion_delta[{target, before}];
    ++tally.confusion_delta[{target, after}];
  }
  if (was_correct == is_correct) return;
  const PredictionFlip flip{id, target, before, after};
  ClassFlips& of_class = tally.by_class[target];
  of_class.target = target;
  if (was_correct) {
    result.correct_to_wrong.push_back(flip);
    ++of_class.correct_to_wrong;
  } else {
    result.wrong_to_correct.push_back(flip);
    ++of_class.wrong_to_correct;
  }
}

// Pairs the baseline's examples with the candidate's by id and compares those with one target.
PairedTally pair_examples(const Predictions& baseline, const Predictions& candidate,
                          const std::unordered_map<std::int64_t, std::size_t>& candidate_index,
                          PredictionComparison& result) {
  PairedTally tally;
  for (const std::size_t i : positions_in_id_order(baseline)) {
    const std::int64_t id = baseline.ids[i];
    const auto found = candidate_index.find(id);
    if (found == candidate_index.end()) {
      tally.only_baseline.push_back(id);
      continue;
    }
    ++result.paired;
    const std::size_t j = found->second;
    if (candidate.target[j] != baseline.target[i]) {
      tally.changed_targets.push_back(id);
      continue;
    }
    ++result.compared;
    compare_example(baseline, i, candidate, j, result, tally);
  }
  return tally;
}

// Where the lost examples went (by predicted class): the confusion matrix's changed cells.
std::string format_confusion_change(const std::vector<ConfusionCellDelta>& confusion_delta) {
  if (confusion_delta.empty()) return "";
  std::vector<std::string> cells;
  for (std::size_t k = 0; k < confusion_delta.size() && k < kMaxClassesListed; ++k) {
    const ConfusionCellDelta& cell = confusion_delta[k];
    cells.push_back(fmt::format("{}→{} {:+d}", cell.target, cell.predicted, cell.delta));
  }
  std::string out = fmt::format("  confusion change (true→predicted): {}", fmt::join(cells, ", "));
  if (confusion_delta.size() > kMaxClassesListed) {
    out += fmt::format(" (and {} more cells)", confusion_delta.size() - kMaxClassesListed);
  }
  return out + "\n";
}

}  // namespace

PredictionComparison compare_predictions(const Predictions& baseline, const Predictions& candidate,
                                         std::size_t list_limit) {
  const auto baseline_index = index_by_id(baseline, "baseline");
  const auto candidate_index = index_by_id(candidate, "candidate");

  PredictionComparison result;
  PairedTally tally = pair_examples(baseline, candidate, candidate_index, result);
  std::vector<std::int64_t> only_candidate;
  for (const std::int64_t id : candidate.ids) {
    if (!baseline_index.contains(id)) only_candidate.push_back(id);
  }

  result.only_in_baseline = tally.only_baseline.size();
  result.only_in_candidate = only_candidate.size();
  result.targets_changed = tally.changed_targets.size();
  result.only_in_baseline_ids = first_ids(std::move(tally.only_baseline), list_limit);
  result.only_in_candidate_ids = first_ids(std::move(only_candidate), list_limit);
  result.targets_changed_ids = first_ids(std::move(tally.changed_targets), list_limit);

  result.not_comparable_reason = not_comparable_reason(result);

  const double nan = std::numeric_limits<double>::quiet_NaN();
  const auto compared = static_cast<double>(result.compared);
  result.baseline_accuracy =
      result.compared == 0 ? nan : static_cast<double>(tally.baseline_correct) / compared;
  result.candidate_accuracy =
      result.compared == 0 ? nan : static_cast<double>(tally.candidate_correct) / compared;

  rank_changes(result, tally.by_class, tally.confusion_delta);
  attach_flip_attributes(result, baseline, candidate);
  result.by_attribute = slice_flips_by_attribute(baseline, candidate);
  result.mcnemar = stats::mcnemar_exact(static_cast<std::int64_t>(result.correct_to_wrong.size()),
                                        static_cast<std::int64_t>(result.wrong_to_correct.size()));
  return result;
}

std::string format_class_flips(const std::vector<ClassFlips>& by_class) {
  std::vector<std::string> classes;
  for (std::size_t k = 0; k < by_class.size() && k < kMaxClassesListed; ++k) {
    const ClassFlips& c = by_class[k];
    std::vector<std::string> counts;  // zero counts left out, to keep the line short
    if (c.correct_to_wrong > 0) counts.push_back(fmt::format("{} →wrong", c.correct_to_wrong));
    if (c.wrong_to_correct > 0) counts.push_back(fmt::format("{} →correct", c.wrong_to_correct));
    classes.push_back(fmt::format("{}: {}", c.target, fmt::join(counts, ", ")));
  }
  std::string out = fmt::format("{}", fmt::join(classes, "; "));
  if (by_class.size() > kMaxClassesListed) {
    out += fmt::format(" (and {} more classes)", by_class.size() - kMaxClassesListed);
  }
  return out;
}

std::string format_flip_summary(const PredictionComparison& comparison, std::size_t list_limit) {
  std::string out;
  if (!comparison.comparable()) {
    out += fmt::format("not comparable: {}\n", comparison.not_comparable_reason);
  }
  const auto& test = comparison.mcnemar;
  const std::int64_t net = test.b - test.c;
  // The p-value of the side the flips point to; two-sided when they balance.
  const std::string verdict =
      net > 0   ? fmt::format("(net {} worse); McNemar exact p = {:.2g} (one-sided, worse)", net,
                              test.p_worse)
      : net < 0 ? fmt::format("(net {} better); McNemar exact p = {:.2g} (one-sided, better)", -net,
                              test.p_better)
                : fmt::format("(net 0); McNemar exact p = {:.2g} (two-sided)", test.p_two_sided);
  out += fmt::format("flips on {} paired examples: {} correct→wrong, {} wrong→correct {}\n",
                     comparison.compared, test.b, test.c, verdict);
  if (comparison.compared > 0) {
    out += fmt::format("  accuracy {:.4f} → {:.4f}\n", comparison.baseline_accuracy,
                       comparison.candidate_accuracy);
  }

  if (!comparison.by_class.empty()) {
    out += fmt::format("  by true class: {}\n", format_class_flips(comparison.by_class));
  }
  for (const std::string& line : format_slice_flips(comparison.by_attribute)) {
    out += "  " + line + "\n";
  }
  out += format_confusion_change(comparison.confusion_delta);

  const auto list = [&](std::string_view label, const std::vector<PredictionFlip>& flips) {
    if (flips.empty() || list_limit == 0) return;
    std::vector<std::string> items;
    for (std::size_t k = 0; k < flips.size() && k < list_limit; ++k) {
      const PredictionFlip& f = flips[k];
      // A lost example shows what it is now mistaken for; a gained one what it was.
      items.push_back(
          f.candidate_predicted == f.target
              ? fmt::format("id {} (class {}, was {})", f.id, f.target, f.baseline_predicted)
              : fmt::format("id {} (class {} → {})", f.id, f.target, f.candidate_predicted));
    }
    out += fmt::format("  first {}: {}", label, fmt::join(items, ", "));
    if (flips.size() > list_limit) out += fmt::format(", ... ({} more)", flips.size() - list_limit);
    out += "\n";
  };
  list("correct→wrong", comparison.correct_to_wrong);
  list("wrong→correct", comparison.wrong_to_correct);
  return out;
}

}  // namespace mlregress::internal
