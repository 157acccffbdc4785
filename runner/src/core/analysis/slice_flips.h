// The flips of a predictions comparison (analysis/prediction_flips.h) sliced by an attribute the
// test recorded per example (a sequence's length, a token's position, an image's size, a label's
// frequency): 40 examples lost out of 1000 may be lost at random, or all among the longest
// sequences. Each slice gets its own McNemar exact test, and the slices of one attribute are
// Holm-adjusted together, so a slice is named only when its flips are more than chance among
// that many slices.
//
// Slicing: an attribute with at most 12 distinct values, all integers, gets one slice per value;
// any other gets quartiles of the compared examples' values ([low, high), the last closed when
// the values are not integers). Examples without a value (NaN) form the slice "missing".
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace mlregress::internal {

struct Predictions;
struct PredictionComparison;

/// One attribute's value per example of a prediction set: values[i] belongs to ids[i]; NaN
/// where the test has no value for that example.
struct ExampleAttribute {
  std::string name;
  std::vector<double> values;
};

/// The flips of the compared examples whose attribute value lies in [low, high).
struct SliceFlips {
  std::string attribute;
  std::string label;  ///< "13" (one value), "[12, 16)" (a quartile) or "missing"
  double low = std::numeric_limits<double>::quiet_NaN();   ///< NaN for "missing"
  double high = std::numeric_limits<double>::quiet_NaN();  ///< NaN for "missing"
  std::size_t compared = 0;
  std::size_t correct_to_wrong = 0;
  std::size_t wrong_to_correct = 0;
  double accuracy_before = 0.0, accuracy_after = 0.0;
  double p_two_sided = 1.0;  ///< McNemar exact, this slice alone
  double p_holm = 1.0;       ///< Holm-adjusted across the attribute's slices
  std::int64_t net_lost() const {
    return static_cast<std::int64_t>(correct_to_wrong) -
           static_cast<std::int64_t>(wrong_to_correct);
  }
  bool missing() const { return label == "missing"; }
};

/// At most this many distinct integer values get one slice each.
inline constexpr std::size_t kMaxCategoricalValues = 12;

/// The slices of `attribute` over the examples both sets hold with the same target, in order of
/// the values ("missing" last; slices without compared examples left out). An example's value
/// comes from the candidate, else (absent or NaN there) from the baseline. Empty when neither
/// set carries the attribute. The sets must be well formed (compare_predictions checks them).
std::vector<SliceFlips> slice_flips(const Predictions& baseline, const Predictions& candidate,
                                    const std::string& attribute);

/// slice_flips for every attribute either set carries: the candidate's in its order, then the
/// baseline's others; the slices of one attribute together.
std::vector<SliceFlips> slice_flips_by_attribute(const Predictions& baseline,
                                                 const Predictions& candidate);

/// The names of the attributes either set carries: the candidate's in its order, then the
/// baseline's others.
std::vector<std::string> attribute_names(const Predictions& baseline, const Predictions& candidate);

/// Sets comparison.attribute_names and each flip's attribute values (the candidate's, else the
/// baseline's; NaN for none), for the flips file.
void attach_flip_attributes(PredictionComparison& comparison, const Predictions& baseline,
                            const Predictions& candidate);

/// The slice of one attribute's slices that lost most (largest net loss > 0), or nullptr.
const SliceFlips* slice_that_lost_most(const std::vector<SliceFlips>& slices,
                                       const std::string& attribute);

/// One line per attribute for the flip summary, e.g.
///   "by position: [12, 16) lost most, 40 →wrong, 0 →correct of 48 (McNemar Holm p 7.3e-12);
///    4 slices" (one line)
/// naming the slice that lost most, or "by position: no slice lost examples (4 slices)".
std::vector<std::string> format_slice_flips(const std::vector<SliceFlips>& slices);

/// Where an attribute's losses concentrate: its slices that lost significantly (net loss > 0,
/// Holm p < alpha) hold at least half the lost (correct → wrong) examples but at most half the
/// compared ones. The attribute whose such slices hold the largest share of the lost wins.
struct ConcentratedLoss {
  std::string attribute;
  std::vector<std::string> slices;  ///< their labels, in the values' order
  std::size_t lost = 0;             ///< correct → wrong in those slices
  std::size_t compared = 0;         ///< compared examples in those slices
};
std::optional<ConcentratedLoss> concentrated_loss(const std::vector<SliceFlips>& slices,
                                                  std::size_t total_lost,
                                                  std::size_t total_compared, double alpha);

/// "position 12, 13, 14, 15 (38 of 40 correct→wrong, on 1024 of 2560 examples)".
std::string describe_concentrated_loss(const ConcentratedLoss& loss, std::size_t total_lost,
                                       std::size_t total_compared);

/// The slices worth keeping of each attribute: all when at most `limit`, else the `limit` that
/// lost most (then most flips), still in the order of the values.
std::vector<SliceFlips> cap_slices(const std::vector<SliceFlips>& slices, std::size_t limit);

}  // namespace mlregress::internal
