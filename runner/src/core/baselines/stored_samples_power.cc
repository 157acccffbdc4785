#include "baselines/stored_samples_power.h"

#include <optional>
#include <variant>

namespace mlregress::internal {

GatePowerQuestion stored_samples_question(const MetricRecord& metric, const BaselineMetric& stored,
                                          const TestResult& test, int family,
                                          const BaselineTest* stored_test) {
  const Margin* margin = std::get_if<Margin>(&metric.policy);
  GatePowerQuestion q;
  q.direction = metric.direction;
  q.margin = margin != nullptr ? margin->delta : 0.0;
  q.baseline = SeedSamples{stored.samples, stored.seeds, stored.paired_spread};
  q.block = test.seed_block;
  q.cap = test.seed_block > 0 ? test.seed_cap : static_cast<int>(metric.samples.size());
  q.family = family;
  q.pass_spending = test.seed_pass_spending;
  q.pass_error = test.seed_pass_error;
  q.next_block = test.seed_next_block;
  q.anytime = test.seed_anytime;
  q.likelihood_ratio = test.seed_likelihood_ratio;
  q.pass_rise = test.seed_pass_rise;
  q.pass_rise_from = test.seed_pass_rise_from;
  q.constant_pass = test.seed_constant_pass;
  if (margin == nullptr || margin->covariate.empty() || stored_test == nullptr) return q;
  const auto covariate = stored_test->metrics.find(margin->covariate);
  if (covariate == stored_test->metrics.end()) return q;
  std::optional<SeedSamples> aligned = samples_of_seeds(
      SeedSamples{covariate->second.samples, covariate->second.seeds}, stored.seeds);
  if (!aligned) return q;
  q.covariate = margin->covariate;
  q.covariate_values = std::move(aligned->values);
  return q;
}

std::string stored_samples_power_note(const MetricRecord& metric, const BaselineMetric& stored,
                                      const TestResult& test, int family,
                                      const BaselineTest* stored_test) {
  const GatePowerQuestion q = stored_samples_question(metric, stored, test, family, stored_test);
  return gate_power_sentence(q, gate_power(q));
}

}  // namespace mlregress::internal
