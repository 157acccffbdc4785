#include "analysis/slice_flips.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

#include "analysis/prediction_flips.h"
#include "statistics/holm.h"
#include "statistics/mcnemar.h"

namespace mlregress::internal {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// One compared example: its attribute value (NaN: none) and whether each run got it right.
struct Example {
  double value = kNaN;
  bool before = false, after = false;
};

const std::vector<double>* values_of(const Predictions& predictions, const std::string& name) {
  for (const ExampleAttribute& a : predictions.attributes) {
    if (a.name == name) return &a.values;
  }
  return nullptr;
}

double value_at(const std::vector<double>* values, std::size_t i) {
  return values != nullptr && i < values->size() ? (*values)[i] : kNaN;
}

// The examples both sets hold with the same target, each with its value: the candidate's, else
// the baseline's.
std::vector<Example> compared_examples(const Predictions& baseline, const Predictions& candidate,
                                       const std::string& name) {
  const std::vector<double>* from_candidate = values_of(candidate, name);
  const std::vector<double>* from_baseline = values_of(baseline, name);
  std::unordered_map<std::int64_t, std::size_t> in_baseline;
  for (std::size_t i = 0; i < baseline.ids.size(); ++i) in_baseline.emplace(baseline.ids[i], i);
  std::vector<Example> examples;
  for (std::size_t j = 0; j < candidate.ids.size(); ++j) {
    const auto found = in_baseline.find(candidate.ids[j]);
    if (found == in_baseline.end()) continue;
    const std::size_t i = found->second;
    const std::int64_t target = candidate.target[j];
    if (baseline.target[i] != target) continue;
    double value = value_at(from_candidate, j);
    if (!std::isfinite(value)) value = value_at(from_baseline, i);
    examples.push_back({std::isfinite(value) ? value : kNaN, baseline.predicted[i] == target,
                        candidate.predicted[j] == target});
  }
  return examples;
}

// A slice's range: [low, high), or [low, high] for the last quartile of non-integer values.
struct Bin {
  double low = 0, high = 0;
  std::string label;
};

std::string number(double v, bool integers) {
  return integers ? fmt::format("{}", static_cast<std::int64_t>(v)) : fmt::format("{:.4g}", v);
}

// Quartile edges: the first value with at least k/4 of the values below it, k = 1, 2, 3 (a value
// that many examples share stays in one slice, so there may be fewer than four).
std::vector<double> quartile_lows(const std::vector<double>& sorted,
                                  const std::vector<double>& distinct) {
  std::vector<double> lows{distinct.front()};
  const auto n = static_cast<double>(sorted.size());
  for (int k = 1; k <= 3; ++k) {
    for (const double v : distinct) {
      const auto below =
          static_cast<double>(std::lower_bound(sorted.begin(), sorted.end(), v) - sorted.begin());
      if (below >= k * n / 4.0) {
        if (v > lows.back()) lows.push_back(v);
        break;
      }
    }
  }
  return lows;
}

std::vector<Bin> bins_for(std::vector<double> sorted) {
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> distinct = sorted;
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const bool integers = std::all_of(distinct.begin(), distinct.end(), [](double v) {
    return std::floor(v) == v && std::fabs(v) < 9.0e15;
  });
  std::vector<Bin> bins;
  if (integers && distinct.size() <= kMaxCategoricalValues) {
    for (const double v : distinct) bins.push_back({v, v + 1, number(v, true)});
    return bins;
  }
  const std::vector<double> lows = quartile_lows(sorted, distinct);
  for (std::size_t k = 0; k < lows.size(); ++k) {
    const bool last = k + 1 == lows.size();
    const double high = !last ? lows[k + 1] : integers ? distinct.back() + 1 : distinct.back();
    bins.push_back({lows[k], high,
                    fmt::format("[{}, {}{}", number(lows[k], integers), number(high, integers),
                                last && !integers ? "]" : ")")});
  }
  return bins;
}

void tally(SliceFlips& slice, const Example& e) {
  ++slice.compared;
  slice.accuracy_before += e.before ? 1.0 : 0.0;
  slice.accuracy_after += e.after ? 1.0 : 0.0;
  if (e.before && !e.after) ++slice.correct_to_wrong;
  if (!e.before && e.after) ++slice.wrong_to_correct;
}

// The slices' accuracies from their counts, their McNemar tests and Holm's adjustment of them.
void finish(std::vector<SliceFlips>& slices) {
  std::vector<double> p;
  for (SliceFlips& s : slices) {
    s.accuracy_before /= static_cast<double>(s.compared);
    s.accuracy_after /= static_cast<double>(s.compared);
    s.p_two_sided = stats::mcnemar_exact(static_cast<std::int64_t>(s.correct_to_wrong),
                                         static_cast<std::int64_t>(s.wrong_to_correct))
                        .p_two_sided;
    p.push_back(s.p_two_sided);
  }
  const std::vector<double> adjusted = stats::holm_adjust(p);
  for (std::size_t k = 0; k < slices.size(); ++k) slices[k].p_holm = adjusted[k];
}

}  // namespace

std::vector<SliceFlips> slice_flips(const Predictions& baseline, const Predictions& candidate,
                                    const std::string& attribute) {
  if (values_of(baseline, attribute) == nullptr && values_of(candidate, attribute) == nullptr) {
    return {};
  }
  const std::vector<Example> examples = compared_examples(baseline, candidate, attribute);
  std::vector<double> values;
  for (const Example& e : examples) {
    if (!std::isnan(e.value)) values.push_back(e.value);
  }
  const std::vector<Bin> bins = values.empty() ? std::vector<Bin>{} : bins_for(values);
  std::vector<double> lows;
  std::vector<SliceFlips> slices(bins.size() + 1);
  for (std::size_t k = 0; k < bins.size(); ++k) {
    lows.push_back(bins[k].low);
    slices[k].low = bins[k].low;
    slices[k].high = bins[k].high;
    slices[k].label = bins[k].label;
  }
  slices.back().label = "missing";
  for (const Example& e : examples) {
    const std::size_t k =
        std::isnan(e.value)
            ? bins.size()
            : static_cast<std::size_t>(std::upper_bound(lows.begin(), lows.end(), e.value) -
                                       lows.begin()) -
                  1;
    tally(slices[k], e);
  }
  std::erase_if(slices, [](const SliceFlips& s) { return s.compared == 0; });
  for (SliceFlips& s : slices) s.attribute = attribute;
  finish(slices);
  return slices;
}

std::vector<std::string> attribute_names(const Predictions& baseline,
                                         const Predictions& candidate) {
  std::vector<std::string> names;
  for (const Predictions* set : {&candidate, &baseline}) {
    for (const ExampleAttribute& a : set->attributes) {
      if (std::find(names.begin(), names.end(), a.name) == names.end()) names.push_back(a.name);
    }
  }
  return names;
}

void attach_flip_attributes(PredictionComparison& comparison, const Predictions& baseline,
                            const Predictions& candidate) {
  comparison.attribute_names = attribute_names(baseline, candidate);
  if (comparison.attribute_names.empty()) return;
  // id -> value, the baseline's first so that the candidate's overwrite them.
  std::vector<std::unordered_map<std::int64_t, double>> value_of(comparison.attribute_names.size());
  for (std::size_t k = 0; k < comparison.attribute_names.size(); ++k) {
    for (const Predictions* set : {&baseline, &candidate}) {
      const std::vector<double>* values = values_of(*set, comparison.attribute_names[k]);
      for (std::size_t i = 0; values != nullptr && i < set->ids.size(); ++i) {
        if (std::isfinite(value_at(values, i))) value_of[k][set->ids[i]] = (*values)[i];
      }
    }
  }
  for (auto* flips : {&comparison.correct_to_wrong, &comparison.wrong_to_correct}) {
    for (PredictionFlip& flip : *flips) {
      for (const auto& values : value_of) {
        const auto found = values.find(flip.id);
        flip.attributes.push_back(found == values.end() ? kNaN : found->second);
      }
    }
  }
}

std::vector<SliceFlips> slice_flips_by_attribute(const Predictions& baseline,
                                                 const Predictions& candidate) {
  std::vector<SliceFlips> all;
  for (const std::string& name : attribute_names(baseline, candidate)) {
    std::vector<SliceFlips> slices = slice_flips(baseline, candidate, name);
    all.insert(all.end(), slices.begin(), slices.end());
  }
  return all;
}

const SliceFlips* slice_that_lost_most(const std::vector<SliceFlips>& slices,
                                       const std::string& attribute) {
  const SliceFlips* most = nullptr;
  for (const SliceFlips& s : slices) {
    if (s.attribute != attribute || s.net_lost() <= 0) continue;
    if (most == nullptr || s.net_lost() > most->net_lost()) most = &s;
  }
  return most;
}

std::vector<std::string> format_slice_flips(const std::vector<SliceFlips>& slices) {
  std::vector<std::string> lines;
  for (std::size_t k = 0; k < slices.size();) {
    const std::string& attribute = slices[k].attribute;
    std::size_t count = 0;
    while (k + count < slices.size() && slices[k + count].attribute == attribute) ++count;
    const SliceFlips* most = slice_that_lost_most(slices, attribute);
    lines.push_back(
        most == nullptr
            ? fmt::format("by {}: no slice lost examples ({} slices)", attribute, count)
            : fmt::format("by {}: {} lost most, {} →wrong, {} →correct of {} (McNemar Holm p "
                          "{:.2g}); {} slices",
                          attribute, most->label, most->correct_to_wrong, most->wrong_to_correct,
                          most->compared, most->p_holm, count));
    k += count;
  }
  return lines;
}

std::optional<ConcentratedLoss> concentrated_loss(const std::vector<SliceFlips>& slices,
                                                  std::size_t total_lost,
                                                  std::size_t total_compared, double alpha) {
  std::optional<ConcentratedLoss> best;
  for (std::size_t k = 0; k < slices.size();) {
    ConcentratedLoss loss{slices[k].attribute, {}, 0, 0};
    for (; k < slices.size() && slices[k].attribute == loss.attribute; ++k) {
      const SliceFlips& s = slices[k];
      if (s.net_lost() <= 0 || !(s.p_holm < alpha)) continue;
      loss.slices.push_back(s.label);
      loss.lost += s.correct_to_wrong;
      loss.compared += s.compared;
    }
    const bool concentrated =
        !loss.slices.empty() && 2 * loss.lost >= total_lost && 2 * loss.compared <= total_compared;
    if (concentrated && (!best || loss.lost > best->lost)) best = std::move(loss);
  }
  return best;
}

std::string describe_concentrated_loss(const ConcentratedLoss& loss, std::size_t total_lost,
                                       std::size_t total_compared) {
  return fmt::format("{} {} ({} of {} correct→wrong, on {} of {} examples)", loss.attribute,
                     fmt::join(loss.slices, ", "), loss.lost, total_lost, loss.compared,
                     total_compared);
}

std::vector<SliceFlips> cap_slices(const std::vector<SliceFlips>& slices, std::size_t limit) {
  std::vector<SliceFlips> kept;
  for (std::size_t k = 0; k < slices.size();) {
    std::size_t count = 0;
    while (k + count < slices.size() && slices[k + count].attribute == slices[k].attribute) ++count;
    std::vector<std::size_t> order(count);
    std::iota(order.begin(), order.end(), k);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      if (slices[a].net_lost() != slices[b].net_lost())
        return slices[a].net_lost() > slices[b].net_lost();
      return slices[a].correct_to_wrong + slices[a].wrong_to_correct >
             slices[b].correct_to_wrong + slices[b].wrong_to_correct;
    });
    if (order.size() > limit) order.resize(limit);
    std::sort(order.begin(), order.end());
    for (const std::size_t i : order) kept.push_back(slices[i]);
    k += count;
  }
  return kept;
}

}  // namespace mlregress::internal
