#include "results_json_writer.h"

#include "atomic_file.h"
#include "json_number.h"
#include "policy_json.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {
namespace {

nlohmann::json distribution_json(const DistributionAnalysis& a, const std::optional<GateDecision>& decision) {
  nlohmann::json json = {{"design", gate_design_name(a.design)},
                         {"margin", json_number(a.margin)},
                         {"n_candidate", a.n_candidate},
                         {"n_baseline", a.n_baseline},
                         {"candidate_mean", json_number(a.candidate_mean)},
                         {"candidate_sd", json_number(a.candidate_sd)},
                         {"baseline_mean", json_number(a.baseline_mean)},
                         {"baseline_sd", json_number(a.baseline_sd)},
                         {"difference", json_number(a.difference)},
                         {"ci95", {json_number(a.ci_lower), json_number(a.ci_upper)}},
                         {"p_worse", json_number(a.p_worse)},
                         {"p_better", json_number(a.p_better)},
                         {"hedges_g", json_number(a.hedges_g)},
                         {"probability_of_improvement", json_number(a.probability_of_improvement)}};
  if (!a.problem.empty()) json["problem"] = a.problem;
  if (decision) {
    json["p_worse_holm"] = json_number(decision->p_worse_adjusted);
    json["p_better_holm"] = json_number(decision->p_better_adjusted);
  }
  return json;
}

nlohmann::json test_json(const TestResult& test) {
  nlohmann::json failures = nlohmann::json::array();
  for (const TestFailure& f : test.failures) {
    failures.push_back({{"file", f.file}, {"line", f.line}, {"message", f.message}, {"fatal", f.fatal}});
  }
  nlohmann::json metrics = nlohmann::json::array();
  for (std::size_t i = 0; i < test.metrics.size(); ++i) {
    const MetricRecord& m = test.metrics[i];
    nlohmann::json metric = {{"name", m.name},
                             {"value", json_number(m.value)},
                             {"direction", direction_name(m.direction)},
                             {"policy", policy_to_json(m.policy)}};
    if (i < test.comparisons.size()) {
      const MetricComparison& c = test.comparisons[i];
      metric["verdict"] = verdict_name(c.verdict);
      metric["baseline"] = c.baseline ? json_number(*c.baseline) : nlohmann::json();
      metric["delta"] = c.delta ? json_number(*c.delta) : nlohmann::json();
      metric["relative_change"] = c.relative_change ? json_number(*c.relative_change) : nlohmann::json();
      metric["tolerance"] = c.tolerance;
      metric["kind"] = metric_kind_name(c.kind);
      if (!c.note.empty()) metric["note"] = c.note;
      if (c.distribution) metric["distribution"] = distribution_json(*c.distribution, c.decision);
    }
    if (test.seeded) {
      nlohmann::json samples = nlohmann::json::array();
      for (double v : m.samples) samples.push_back(json_number(v));
      metric["samples"] = std::move(samples);
      metric["seeds"] = m.sample_seeds;
    }
    metrics.push_back(std::move(metric));
  }
  nlohmann::json curves = nlohmann::json::array();
  for (const RecordedCurve& c : test.curves) {
    curves.push_back({{"name", c.curve.name}, {"file", c.csv_file}, {"points", c.curve.values.size()}});
  }
  nlohmann::json json = {{"name", test.name},
                         {"full_name", test.full_name},
                         {"tier", tier_name(test.tier)},
                         {"file", test.file},
                         {"line", test.line},
                         {"status", test_status_name(test.status)},
                         {"duration_s", test.duration_s},
                         {"started_at", test.started_at},
                         {"seed", test.seed},
                         {"threads", test.threads},
                         {"config_hash", test.config_hash},
                         {"failures", std::move(failures)},
                         {"metrics", std::move(metrics)},
                         {"curves", std::move(curves)}};
  if (test.seeded) {
    nlohmann::json runs = nlohmann::json::array();
    for (const SeedRun& run : test.seed_runs) runs.push_back(seed_run_json(run));
    json["seed_runs"] = std::move(runs);
    json["seed_runs_planned"] = test.seed_runs_planned;
  }
  if (!test.skip_message.empty()) json["skip_message"] = test.skip_message;
  if (!test.crash_message.empty()) json["crash_message"] = test.crash_message;
  if (!test.baseline_file.empty()) {
    json["baseline"] = {{"file", test.baseline_file},
                        {"version", test.baseline_version},
                        {"git_commit", test.baseline_commit},
                        {"promoted_at", test.baseline_promoted_at},
                        {"environment", test.environment_note}};
  }
  return json;
}

}  // namespace

nlohmann::json seed_run_json(const SeedRun& run) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const MetricRecord& m : run.metrics) metrics[m.name] = json_number(m.value);
  nlohmann::json json = {{"variant", run.variant},
                         {"variant_index", run.variant_index},
                         {"seed", run.seed},
                         {"status", test_status_name(run.status)},
                         {"duration_s", run.duration_s},
                         {"metrics", std::move(metrics)}};
  if (!run.failures.empty()) {
    nlohmann::json failures = nlohmann::json::array();
    for (const TestFailure& f : run.failures) failures.push_back(f.message);
    json["failures"] = std::move(failures);
  }
  if (!run.crash_message.empty()) json["crash_message"] = run.crash_message;
  if (!run.skip_message.empty()) json["skip_message"] = run.skip_message;
  return json;
}

nlohmann::json results_json(const RunResult& run) {
  nlohmann::json tests = nlohmann::json::array();
  std::size_t passed = 0, failed = 0, skipped = 0, crashed = 0, regressed = 0;
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;
    tests.push_back(test_json(test));
    passed += test.status == TestStatus::kPassed;
    failed += test.status == TestStatus::kFailed;
    skipped += test.status == TestStatus::kSkipped;
    crashed += test.status == TestStatus::kCrashed;
    regressed += test.status == TestStatus::kRegressed;
  }
  const bool complete = !run.info.finished_at.empty();
  nlohmann::json json = {
      {"schema_version", kResultsSchemaVersion},
      {"run",
       {{"id", run.info.run_id},
        {"binary", run.info.binary},
        {"started_at", run.info.started_at},
        {"finished_at", complete ? nlohmann::json(run.info.finished_at) : nlohmann::json()},
        {"duration_s", run.info.duration_s},
        {"complete", complete},
        {"tiers", run.info.tiers},
        {"filter", run.info.filter},
        {"seed", run.info.seed},
        {"threads", run.info.threads},
        {"baselines", run.info.baselines.empty() ? nlohmann::json() : nlohmann::json(run.info.baselines)},
        {"environment_profile", run.info.environment_profile}}},
      {"summary",
       {{"tests", tests.size()}, {"passed", passed}, {"failed", failed}, {"skipped", skipped},
        {"crashed", crashed}, {"regressed", regressed}}},
      {"tests", std::move(tests)},
      {"runner_errors", run.runner_errors}};
  if (complete) {
    json["run"]["exit_code"] = run.exit_code;
    json["run"]["exit_status"] = exit_code_name(static_cast<ExitCode>(run.exit_code));
  }
  return json;
}

void ResultsJsonWriter::write(const RunResult& run) const {
  write_file_atomically(path_, results_json(run).dump(2, ' ', false,
                                                      nlohmann::json::error_handler_t::replace) + "\n");
}

}  // namespace mlregress::internal
