// What promote prints and the report shows for a seeded metric's stored samples: the power of
// the gate a later run of the test will make against them (analysis/gate_power.h), with that
// test's plan (Seeds(block).up_to(cap), or Seeds(n)), the metric's margin and the run's family of
// hypotheses. The family is counted by the caller (comparison/hypothesis_family.h, a layer
// above this one) over the baselines the later run will be judged by.
#pragma once

#include <string>

#include "analysis/gate_power.h"
#include "baselines/baseline.h"
#include "mlregress/metric.h"
#include "record/run_result.h"

namespace mlregress::internal {

/// The gate's question: the stored samples as its baseline arm, `metric`'s direction and margin
/// (the test's policy, as the gate reads it: a Margin's delta, else 0), `test`'s sequential plan,
/// or for a fixed-seed test as many seeds as `metric` has samples; with the covariate a Margin
/// names, when `stored_test` holds its value for every stored seed (else the metric is simulated
/// unadjusted, as the gate will judge it).
GatePowerQuestion stored_samples_question(const MetricRecord& metric, const BaselineMetric& stored,
                                          const TestResult& test, int family,
                                          const BaselineTest* stored_test = nullptr);

/// gate_power_sentence of that question.
std::string stored_samples_power_note(const MetricRecord& metric, const BaselineMetric& stored,
                                      const TestResult& test, int family,
                                      const BaselineTest* stored_test = nullptr);

}  // namespace mlregress::internal
