// What the gate keeps of a predictions comparison (analysis/prediction_flips.h): the flip
// counts, McNemar's p-values, the classes that lost most, the slices of each per-example attribute
// and a one-paragraph summary. The full
// flip lists go to a file; this is what results.json, the console and the reports show.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/prediction_flips.h"

namespace mlregress::internal {

struct FlipsAnalysis {
  std::size_t compared = 0;          ///< examples paired by id with the same target
  std::size_t correct_to_wrong = 0;  ///< McNemar's b
  std::size_t wrong_to_correct = 0;  ///< McNemar's c
  double baseline_accuracy = 0.0, candidate_accuracy = 0.0;
  double p_worse = 1.0;   ///< one-sided exact, raw: more correct -> wrong than chance gives
  double p_better = 1.0;  ///< one-sided exact, raw
  std::vector<ClassFlips> by_class;  ///< the classes with flips, most lost first (at most 10)
  /// The flips sliced by each per-example attribute the predictions carry (analysis/
  /// slice_flips.h): at most 10 slices an attribute, those that lost most, in the values' order.
  std::vector<SliceFlips> by_attribute;
  std::string summary;     ///< format_flip_summary, a few lines
  std::string flips_file;  ///< relative to the run folder; empty when not written
  /// The whole comparison while the run goes (for the flips file); not in results.json.
  std::shared_ptr<const PredictionComparison> full;
};

}  // namespace mlregress::internal
