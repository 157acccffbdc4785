#include "record/metric_comparison.h"

#include "support/enum_names.h"

namespace mlregress::internal {
namespace {

constexpr auto kMetricKindNames =
    enum_names<MetricKind>({{MetricKind::kMetric, "METRIC"},
                            {MetricKind::kPerformance, "PERFORMANCE"},
                            {MetricKind::kDistribution, "DISTRIBUTION"},
                            {MetricKind::kPredictions, "PREDICTIONS"},
                            {MetricKind::kCurve, "CURVE"},
                            {MetricKind::kRate, "RATE"}});

}  // namespace

std::string_view metric_kind_name(MetricKind kind) { return kMetricKindNames.name(kind, "METRIC"); }

std::optional<MetricKind> parse_metric_kind(std::string_view name) {
  return kMetricKindNames.parse(name);
}

}  // namespace mlregress::internal
