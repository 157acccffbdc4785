#include "baselines/stored_samples_power.h"

#include <variant>

namespace mlregress::internal {

GatePowerQuestion stored_samples_question(const MetricRecord& metric, const BaselineMetric& stored,
                                          const TestResult& test, int family) {
  const Margin* margin = std::get_if<Margin>(&metric.policy);
  GatePowerQuestion q;
  q.direction = metric.direction;
  q.margin = margin != nullptr ? margin->delta : 0.0;
  q.baseline = SeedSamples{stored.samples, stored.seeds};
  q.block = test.seed_block;
  q.cap = test.seed_block > 0 ? test.seed_cap : static_cast<int>(metric.samples.size());
  q.family = family;
  return q;
}

std::string stored_samples_power_note(const MetricRecord& metric, const BaselineMetric& stored,
                                      const TestResult& test, int family) {
  const GatePowerQuestion q = stored_samples_question(metric, stored, test, family);
  return gate_power_sentence(q, gate_power(q));
}

}  // namespace mlregress::internal
