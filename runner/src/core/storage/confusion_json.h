// A prediction set's confusion matrix as results.json keeps it (`predictions[].confusion`): the
// scalars always, the per-class totals up to kConfusionTotalsMaxClasses classes, the cells up to
// kConfusionMatrixMaxClasses. One place, so the writer and the reader cannot disagree.
#pragma once

#include <nlohmann/json.hpp>

#include "mlregress/confusion.h"

namespace mlregress::internal {

/// {"classes", "examples", "correct", "accuracy", "majority_class", "majority_rate",
///  "top_predicted_class", "top_predicted_share", "target_counts", "predicted_counts",
///  "correct_counts", "counts": [[...], ...]} (the last four only when kept).
nlohmann::json confusion_to_json(const ConfusionMatrix& confusion);
/// The inverse; throws JsonFieldError naming the field. recall and precision are recomputed from
/// the totals (empty without them).
ConfusionMatrix confusion_from_json(const nlohmann::json& json);

}  // namespace mlregress::internal
