#include "storage/confusion_json.h"

#include "record/json_fields.h"
#include "record/json_number.h"

namespace mlregress::internal {

nlohmann::json confusion_to_json(const ConfusionMatrix& m) {
  nlohmann::json json = {{"classes", m.classes},
                         {"examples", m.examples},
                         {"correct", m.correct},
                         {"accuracy", json_number(m.accuracy)},
                         {"majority_class", m.majority_class},
                         {"majority_rate", json_number(m.majority_rate)},
                         {"top_predicted_class", m.top_predicted_class},
                         {"top_predicted_share", json_number(m.top_predicted_share)}};
  if (m.classes <= kConfusionTotalsMaxClasses && !m.target_counts.empty()) {
    json["target_counts"] = m.target_counts;
    json["predicted_counts"] = m.predicted_counts;
    json["correct_counts"] = m.correct_counts;
  }
  if (m.classes <= kConfusionMatrixMaxClasses && !m.counts.empty()) json["counts"] = m.counts;
  return json;
}

ConfusionMatrix confusion_from_json(const nlohmann::json& json) {
  if (json.contains("target_counts")) {
    std::vector<std::vector<std::int64_t>> counts;
    if (json.contains("counts")) counts = array_field<std::vector<std::int64_t>>(json, "counts");
    return confusion_from_totals(array_field<std::int64_t>(json, "target_counts"),
                                 array_field<std::int64_t>(json, "predicted_counts"),
                                 array_field<std::int64_t>(json, "correct_counts"),
                                 std::move(counts));
  }
  ConfusionMatrix m;
  m.classes = field<std::int64_t>(json, "classes");
  m.examples = field<std::int64_t>(json, "examples");
  m.correct = field<std::int64_t>(json, "correct");
  m.accuracy = number_field(json, "accuracy");
  m.majority_class = field<std::int64_t>(json, "majority_class");
  m.majority_rate = number_field(json, "majority_rate");
  m.top_predicted_class = field<std::int64_t>(json, "top_predicted_class");
  m.top_predicted_share = number_field(json, "top_predicted_share");
  return m;
}

}  // namespace mlregress::internal
