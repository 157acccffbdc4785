#include "storage/results_json.h"

#include <fmt/format.h>

#include <fstream>
#include <map>
#include <tuple>

#include "analysis/distribution_gate.h"
#include "mlregress/exit_code.h"
#include "record/json_fields.h"
#include "record/json_number.h"
#include "record/json_text.h"
#include "storage/breakdown_json.h"
#include "storage/confusion_json.h"
#include "storage/criteria_json.h"
#include "storage/policy_json.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

nlohmann::json optional_number(const std::optional<double>& value) {
  return value ? json_number(*value) : nlohmann::json();
}

// The multi-seed analysis's numbers in results.json by name, written and read through this one
// table: a field cannot be written under one name and read under another.
constexpr std::pair<const char*, double DistributionAnalysis::*> kAnalysisNumbers[] = {
    {"margin", &DistributionAnalysis::margin},
    {"candidate_mean", &DistributionAnalysis::candidate_mean},
    {"candidate_sd", &DistributionAnalysis::candidate_sd},
    {"baseline_mean", &DistributionAnalysis::baseline_mean},
    {"baseline_sd", &DistributionAnalysis::baseline_sd},
    {"difference", &DistributionAnalysis::difference},
    {"p_worse", &DistributionAnalysis::p_worse},
    {"p_better", &DistributionAnalysis::p_better},
    {"hedges_g", &DistributionAnalysis::hedges_g},
    {"probability_of_improvement", &DistributionAnalysis::probability_of_improvement}};

nlohmann::json distribution_json(const DistributionAnalysis& a,
                                 const std::optional<GateDecision>& decision) {
  nlohmann::json json = {{"design", gate_design_name(a.design)},
                         {"n_candidate", a.n_candidate},
                         {"n_baseline", a.n_baseline},
                         {"ci95", {json_number(a.ci_lower), json_number(a.ci_upper)}}};
  for (const auto& [name, member] : kAnalysisNumbers) json[name] = json_number(a.*member);
  json["candidate_sem"] = json_number(a.candidate_sem);
  json["baseline_sem"] = json_number(a.baseline_sem);
  json["candidate_mean_ci"] = {json_number(a.candidate_mean_low),
                               json_number(a.candidate_mean_high)};
  json["baseline_mean_ci"] = {json_number(a.baseline_mean_low), json_number(a.baseline_mean_high)};
  if (!a.problem.empty()) json["problem"] = a.problem;
  if (a.pass_interval) {
    json["pass_interval"] = {{"level", json_number(a.pass_interval->level)},
                             {"lower", json_number(a.pass_interval->lower)},
                             {"upper", json_number(a.pass_interval->upper)}};
  }
  if (a.likelihood_ratio) {
    const DistributionAnalysis::LikelihoodRatio& lr = *a.likelihood_ratio;
    json["likelihood_ratio"] = {{"log_ratio", json_number(lr.log_ratio)},
                                {"regression_boundary", json_number(lr.regression_boundary)},
                                {"pass_boundary", json_number(lr.pass_boundary)},
                                {"alternative", json_number(lr.alternative)}};
  }
  if (a.covariate) {
    const CovariateUse& c = *a.covariate;
    json["covariate"] = {{"name", c.name}, {"applied", c.applied}};
    if (c.applied) {
      json["covariate"]["theta"] = json_number(c.theta);
      json["covariate"]["variance_explained"] = json_number(c.variance_explained);
      json["covariate"]["balance_p"] = json_number(c.balance_p);
    } else {
      json["covariate"]["note"] = c.note;
    }
  }
  if (decision) {
    json["p_worse_holm"] = json_number(decision->p_worse_adjusted);
    json["p_better_holm"] = json_number(decision->p_better_adjusted);
  }
  return json;
}

}  // namespace

void to_json(nlohmann::json& json, const SequentialLook& look) {
  const DistributionAnalysis& a = look.analysis;
  json = {{"seeds", look.seeds},
          {"information", json_number(look.information)},
          {"alpha_share", json_number(look.worse_weight)},
          {"design", gate_design_name(a.design)},
          {"n_baseline", a.n_baseline},
          {"difference", json_number(a.difference)},
          {"interval_level", json_number(look.pass_level)},
          {"pass_spending", stats::spending_function_name(look.pass_spending)},
          {"interval", {json_number(look.interval_lower), json_number(look.interval_upper)}},
          {"p_worse", json_number(a.p_worse)},
          {"p_better", json_number(a.p_better)},
          {"p_worse_sequential", json_number(look.p_worse_sequential)},
          {"p_better_sequential", json_number(look.p_better_sequential)},
          {"decision_level", json_number(look.decision_level)},
          {"family", look.family},
          {"outcome", look_outcome_name(look.outcome)}};
  if (look.anytime) json["anytime"] = true;  // absent on the looks of a planned design
  json["regression_boundaries"] = look.exact_regression ? "exact" : "union";
  if (look.exact_regression) {
    json["z_worse"] = json_number(look.z_worse);
    json["z_better"] = json_number(look.z_better);
    json["regression_boundary"] = json_number(look.regression_boundary);
  }
  if (look.likelihood_ratio) {  // absent on the looks of the other designs
    json["likelihood_ratio"] = {{"log_ratio", json_number(look.log_ratio)},
                                {"regression_boundary", json_number(look.regression_boundary)},
                                {"pass_boundary", json_number(look.pass_boundary)},
                                {"alternative", json_number(look.alternative)},
                                {"seed_sd", json_number(look.seed_sd)},
                                {"seed_skew", json_number(look.seed_skew)},
                                {"scale_source", look.scale_source}};
    if (look.pass_rise > 0.0) {  // absent on looks with a constant PASS boundary
      json["likelihood_ratio"]["pass_rise"] = {{"rise", json_number(look.pass_rise)},
                                               {"from", look.pass_rise_from},
                                               {"to", look.pass_rise_to},
                                               {"chosen", look.pass_rise_chosen}};
    }
  }
  if (!a.problem.empty()) json["problem"] = a.problem;
}

namespace {

// The fields of a likelihood-ratio look (SequentialLook::likelihood_ratio).
void read_likelihood_ratio_look(const nlohmann::json& lr, SequentialLook& look) {
  look.likelihood_ratio = true;
  look.log_ratio = number_field(lr, "log_ratio");
  look.regression_boundary = number_field(lr, "regression_boundary");
  look.pass_boundary = number_field(lr, "pass_boundary");
  look.alternative = number_field(lr, "alternative");
  look.seed_sd = number_field(lr, "seed_sd");
  // Runs written before the boundaries knew the seeds' skew weighed them as normal.
  look.seed_skew = lr.contains("seed_skew") ? number_field(lr, "seed_skew") : 0.0;
  look.scale_source = field<std::string>(lr, "scale_source");
  if (lr.contains("pass_rise")) {
    with_field_context("pass_rise", [&] {
      const nlohmann::json& rise = lr.at("pass_rise");
      look.pass_rise = number_field(rise, "rise");
      look.pass_rise_from = field<int>(rise, "from");
      // Runs written before the design chose a PASS look held every rise from `from` on.
      look.pass_rise_to = field_or<int>(rise, "to", 0);
      look.pass_rise_chosen = field<bool>(rise, "chosen");
    });
  }
}

}  // namespace

void from_json(const nlohmann::json& json, SequentialLook& look) {
  look.seeds = field<int>(json, "seeds");
  look.information = number_field(json, "information");
  look.worse_weight = number_field(json, "alpha_share");
  look.analysis.design = enum_field<GateDesign>(json, "design", parse_gate_design);
  look.analysis.n_candidate = static_cast<std::size_t>(look.seeds);
  look.analysis.n_baseline = field<std::size_t>(json, "n_baseline");
  look.analysis.difference = number_field(json, "difference");
  look.pass_level = number_field(json, "interval_level");
  if (json.contains("pass_spending")) {  // written since pass_early()
    look.pass_spending =
        enum_field<stats::SpendingFunction>(json, "pass_spending", stats::parse_spending_function);
  }
  const std::vector<double> interval = numbers_field(json, "interval");
  if (interval.size() != 2) throw JsonFieldError("interval", "expected two numbers");
  look.interval_lower = interval[0];
  look.interval_upper = interval[1];
  look.analysis.p_worse = number_field(json, "p_worse");
  look.analysis.p_better = number_field(json, "p_better");
  look.p_worse_sequential = number_field(json, "p_worse_sequential");
  look.p_better_sequential = number_field(json, "p_better_sequential");
  // Runs written before the stop rule knew the run's family decided at alpha itself (family 1).
  look.decision_level =
      json.contains("decision_level") ? number_field(json, "decision_level") : 0.0;
  look.family = field_or<int>(json, "family", 1);
  look.outcome = enum_field<LookOutcome>(json, "outcome", parse_look_outcome);
  look.analysis.problem = field_or<std::string>(json, "problem", "");
  look.anytime = field_or<bool>(json, "anytime", false);
  // Runs written before the exact boundaries spent the REGRESSION error by the union bound.
  const std::string boundaries = field_or<std::string>(json, "regression_boundaries", "union");
  if (boundaries != "exact" && boundaries != "union") {
    throw JsonFieldError("regression_boundaries",
                         "expected \"exact\" or \"union\", not \"" + boundaries + "\"");
  }
  look.exact_regression = boundaries == "exact";
  if (look.exact_regression) {
    look.z_worse = number_field(json, "z_worse");
    look.z_better = number_field(json, "z_better");
    look.regression_boundary = number_field(json, "regression_boundary");
  }
  if (json.contains("likelihood_ratio")) {
    with_field_context("likelihood_ratio",
                       [&] { read_likelihood_ratio_look(json.at("likelihood_ratio"), look); });
  }
}

namespace {

std::string_view rate_decision_name(stats::RateDecision decision) {
  switch (decision) {
    case stats::RateDecision::kRegression:
      return "regression";
    case stats::RateDecision::kPass:
      return "pass";
    case stats::RateDecision::kInconclusive:
      return "inconclusive";
    case stats::RateDecision::kContinue:
      break;
  }
  return "continue";
}

std::optional<stats::RateDecision> parse_rate_decision(std::string_view name) {
  for (const stats::RateDecision d :
       {stats::RateDecision::kContinue, stats::RateDecision::kRegression,
        stats::RateDecision::kPass, stats::RateDecision::kInconclusive}) {
    if (rate_decision_name(d) == name) return d;
  }
  return std::nullopt;
}

nlohmann::json failure_rate_json(const FailureRateAnalysis& a) {
  nlohmann::json looks = nlohmann::json::array();
  for (const FailureRateLook& look : a.looks) {
    looks.push_back({{"trials", look.trials},
                     {"failures", look.failures},
                     {"decision", rate_decision_name(look.decision)}});
  }
  nlohmann::json json = {
      {"failures", a.failures},
      {"trials", a.trials},
      {"interval", {json_number(a.interval.lower), json_number(a.interval.upper)}},
      {"baseline_failures", a.baseline_failures},
      {"baseline_trials", a.baseline_trials},
      {"reference_rate", json_number(a.reference_rate)},
      {"detect_rate", json_number(a.detect_rate)},
      {"alpha", json_number(a.alpha)},
      {"size", json_number(a.size)},
      {"power", json_number(a.power)},
      {"block", a.block},
      {"cap", a.cap},
      {"looks", std::move(looks)},
      {"decision", rate_decision_name(a.decision)}};
  if (!a.problem.empty()) json["problem"] = a.problem;
  return json;
}

FailureRateAnalysis failure_rate_from(const nlohmann::json& json) {
  FailureRateAnalysis a;
  a.failures = field<int>(json, "failures");
  a.trials = field<int>(json, "trials");
  const std::vector<double> interval = numbers_field(json, "interval");
  if (interval.size() != 2) throw JsonFieldError("interval", "expected two numbers");
  a.interval = {interval[0], interval[1]};
  a.baseline_failures = field<int>(json, "baseline_failures");
  a.baseline_trials = field<int>(json, "baseline_trials");
  a.reference_rate = number_field(json, "reference_rate");
  a.detect_rate = number_field(json, "detect_rate");
  a.alpha = number_field(json, "alpha");
  a.size = number_field(json, "size");
  a.power = number_field(json, "power");
  a.block = field<int>(json, "block");
  a.cap = field<int>(json, "cap");
  const nlohmann::json looks = field<nlohmann::json>(json, "looks");
  for (std::size_t i = 0; i < looks.size(); ++i) {
    with_field_context(fmt::format("looks[{}]", i), [&] {
      a.looks.push_back(
          {field<int>(looks[i], "trials"), field<int>(looks[i], "failures"),
           enum_field<stats::RateDecision>(looks[i], "decision", parse_rate_decision)});
    });
  }
  a.decision = enum_field<stats::RateDecision>(json, "decision", parse_rate_decision);
  a.problem = field_or<std::string>(json, "problem", "");
  return a;
}

// A verdict's cause: its class, the rule that fired and the alternatives (analysis/cause.h).
nlohmann::json cause_json(const Cause& cause) {
  nlohmann::json alternatives = nlohmann::json::array();
  for (const CauseRule& a : cause.alternatives) {
    alternatives.push_back({{"class", cause_class_name(a.cause)}, {"rule", a.rule}});
  }
  return {{"class", cause_class_name(cause.cause)},
          {"rule", cause.rule},
          {"alternatives", alternatives}};
}

Cause cause_from(const nlohmann::json& json) {
  Cause cause;
  cause.cause = enum_field<CauseClass>(json, "class", parse_cause_class);
  cause.rule = field<std::string>(json, "rule");
  for (const nlohmann::json& a : json.at("alternatives")) {
    cause.alternatives.push_back(
        {enum_field<CauseClass>(a, "class", parse_cause_class), field<std::string>(a, "rule")});
  }
  return cause;
}

// The flips of each per-example attribute's slices: {"attribute": "position", "slice": "[12, 16)",
// "low": 12, "high": 16, "compared": 1024, ...} (no low and high for the slice "missing").
nlohmann::json slices_json(const std::vector<SliceFlips>& slices) {
  nlohmann::json out = nlohmann::json::array();
  for (const SliceFlips& s : slices) {
    nlohmann::json slice = {{"attribute", s.attribute}, {"slice", s.label}};
    if (!s.missing()) {
      slice["low"] = json_number(s.low);
      slice["high"] = json_number(s.high);
    }
    slice.update({{"compared", s.compared},
                  {"correct_to_wrong", s.correct_to_wrong},
                  {"wrong_to_correct", s.wrong_to_correct},
                  {"accuracy_before", json_number(s.accuracy_before)},
                  {"accuracy_after", json_number(s.accuracy_after)},
                  {"p_two_sided", json_number(s.p_two_sided)},
                  {"p_holm", json_number(s.p_holm)}});
    out.push_back(std::move(slice));
  }
  return out;
}

void add_comparison(nlohmann::json& metric, const MetricComparison& c) {
  metric["verdict"] = verdict_name(c.verdict);
  metric["baseline"] = optional_number(c.baseline);
  metric["delta"] = optional_number(c.delta);
  metric["relative_change"] = optional_number(c.relative_change);
  metric["tolerance"] = c.tolerance;
  if (c.allowed) metric["allowed"] = json_number(*c.allowed);
  metric["kind"] = metric_kind_name(c.kind);
  if (!c.note.empty()) metric["note"] = c.note;
  if (c.cause) metric["cause"] = cause_json(*c.cause);
  if (c.direction_change)
    metric["baseline_direction"] = direction_name(c.direction_change->baseline);
  if (c.provisional) metric["provisional"] = true;
  if (c.distribution) metric["distribution"] = distribution_json(*c.distribution, c.decision);
  if (!c.looks.empty()) metric["looks"] = c.looks;
  if (c.rate) metric["failure_rate"] = failure_rate_json(*c.rate);
  if (c.operators) metric["operators"] = operator_diff_to_json(*c.operators);
  if (c.curve) {
    metric["excursion"] = {
        {"compared_steps", c.curve->compared_steps},
        {"first_exit_step", c.curve->first_exit_step ? nlohmann::json(*c.curve->first_exit_step)
                                                     : nlohmann::json(nullptr)},
        {"largest_excess", json_number(c.curve->largest_excess)},
        {"largest_excess_step", c.curve->largest_excess_step}};
  }
  if (c.flips) {
    const FlipsAnalysis& f = *c.flips;
    nlohmann::json by_class = nlohmann::json::array();
    for (const ClassFlips& k : f.by_class) {
      by_class.push_back({{"class", k.target},
                          {"correct_to_wrong", k.correct_to_wrong},
                          {"wrong_to_correct", k.wrong_to_correct}});
    }
    metric["flips"] = {{"compared", f.compared},
                       {"correct_to_wrong", f.correct_to_wrong},
                       {"wrong_to_correct", f.wrong_to_correct},
                       {"baseline_accuracy", json_number(f.baseline_accuracy)},
                       {"candidate_accuracy", json_number(f.candidate_accuracy)},
                       {"p_worse", json_number(f.p_worse)},
                       {"p_better", json_number(f.p_better)},
                       {"by_class", std::move(by_class)},
                       {"summary", f.summary}};
    if (!f.by_attribute.empty()) metric["flips"]["by_attribute"] = slices_json(f.by_attribute);
    if (c.decision) {
      metric["flips"]["p_worse_holm"] = json_number(c.decision->p_worse_adjusted);
      metric["flips"]["p_better_holm"] = json_number(c.decision->p_better_adjusted);
    }
  }
}

// A capability's target, whether this run met it, and its rate over the history when known:
// "target": {"below": 2.5}, "capability": {"met": false, "met_runs": 3, "runs": 10,
// "lower": 0.108, "upper": 0.603}.
void add_capability(nlohmann::json& metric, const MetricRecord& m, const TestResult& test) {
  metric["target"] = target_to_json(*m.target);
  nlohmann::json capability = {{"met", target_met(*m.target, m.value)}};
  if (const auto rate = test.capability_rates.find(m.name); rate != test.capability_rates.end()) {
    capability["met_runs"] = rate->second.met;
    capability["runs"] = rate->second.runs;
    capability["lower"] = json_number(rate->second.lower);
    capability["upper"] = json_number(rate->second.upper);
  }
  metric["capability"] = std::move(capability);
}

// The test's metrics with their comparisons (the first test.metrics.size() of
// test.comparisons) and, for a seeded test, their samples.
nlohmann::json metrics_json(const TestResult& test) {
  nlohmann::json metrics = nlohmann::json::array();
  for (std::size_t i = 0; i < test.metrics.size(); ++i) {
    const MetricRecord& m = test.metrics[i];
    nlohmann::json metric = {{"name", m.name},
                             {"value", json_number(m.value)},
                             {"direction", direction_name(m.direction)},
                             {"policy", policy_to_json(m.policy)}};
    if (m.breakdown) metric["breakdown"] = breakdown_to_json(*m.breakdown);
    if (m.target) add_capability(metric, m, test);
    if (i < test.comparisons.size()) add_comparison(metric, test.comparisons[i]);
    if (test.seeded) {
      nlohmann::json samples = nlohmann::json::array();
      for (double v : m.samples) samples.push_back(json_number(v));
      metric["samples"] = std::move(samples);
      metric["seeds"] = m.sample_seeds;
    }
    metrics.push_back(std::move(metric));
  }
  return metrics;
}

// The test's curves; gated curves' comparisons follow the metrics' and the predictions' in
// test.comparisons.
nlohmann::json curves_json(const TestResult& test) {
  nlohmann::json curves = nlohmann::json::array();
  std::size_t gated = test.metrics.size() + test.predictions.size();
  for (const RecordedCurve& c : test.curves) {
    nlohmann::json entry = {{"name", c.curve.name}, {"file", c.csv_file}, {"points", c.points}};
    if (c.curve.policy) {
      entry["policy"] = curve_policy_to_json(*c.curve.policy);
      if (gated < test.comparisons.size()) {
        // The curve's value as compared: its last point after the policy's smoothing.
        entry["value"] = json_number(test.comparisons[gated].observed);
        add_comparison(entry, test.comparisons[gated]);
      }
      ++gated;
    }
    curves.push_back(std::move(entry));
  }
  return curves;
}

// The test's recorded predictions; their comparisons follow the metrics' in test.comparisons.
nlohmann::json predictions_json(const TestResult& test) {
  nlohmann::json predictions = nlohmann::json::array();
  for (std::size_t i = 0; i < test.predictions.size(); ++i) {
    const RecordedPredictions& p = test.predictions[i];
    nlohmann::json entry = {{"name", p.name},
                            {"file", p.csv_file},
                            {"examples", p.examples},
                            {"accuracy", json_number(p.accuracy)}};
    if (p.confusion) entry["confusion"] = confusion_to_json(*p.confusion);
    const std::size_t at = test.metrics.size() + i;
    if (at < test.comparisons.size()) add_comparison(entry, test.comparisons[at]);
    predictions.push_back(std::move(entry));
  }
  return predictions;
}

// The test's recorded batches (record_batch): each one's file; the view is in the file.
nlohmann::json batches_json(const TestResult& test) {
  nlohmann::json batches = nlohmann::json::array();
  for (const RecordedBatch& b : test.batches) {
    batches.push_back({{"name", b.name},
                       {"kind", batch_kind_name(b.kind)},
                       {"file", b.file},
                       {"examples", b.examples}});
  }
  return batches;
}

// The test's recorded fingerprints: datasets, data orders, checkpoints.
nlohmann::json datasets_json(const TestResult& test) {
  nlohmann::json datasets = nlohmann::json::array();
  for (const RecordedDataset& d : test.datasets) {
    nlohmann::json entry = {{"name", d.name}, {"sha256", d.sha256}, {"bytes", d.bytes}};
    write_fingerprint_kind(entry, d.kind);
    datasets.push_back(std::move(entry));
  }
  return datasets;
}

// A seeded test's runs and, for a sequential or flaky-aware one, its design.
void write_seeded_fields(const TestResult& test, nlohmann::json& json) {
  json["seed_runs"] = test.seed_runs;
  json["seed_runs_planned"] = test.seed_runs_planned;
  if (test.seed_block > 0) {
    json["seed_block"] = test.seed_block;
    json["seed_cap"] = test.seed_cap;
    if (!test.attempts) {
      json["seed_pass_spending"] = stats::spending_function_name(test.seed_pass_spending);
      json["seed_pass_error"] = test.seed_pass_error;
      if (test.seed_next_block > 0) json["seed_next_block"] = test.seed_next_block;
      if (test.seed_anytime) json["seed_anytime"] = true;
      if (test.seed_likelihood_ratio) json["seed_likelihood_ratio"] = true;
      if (test.seed_pass_rise > 0.0) {
        json["seed_pass_rise"] = test.seed_pass_rise;
        json["seed_pass_rise_from"] = test.seed_pass_rise_from;
      }
      if (test.seed_constant_pass) json["seed_constant_pass"] = true;
    }
  }
  if (test.attempts) {
    json["attempts"] = {{"detect", json_number(test.attempts->detect)},
                        {"quarantined", test.quarantined}};
  }
}

nlohmann::json test_json(const TestResult& test) {
  nlohmann::json failures = nlohmann::json::array();
  for (const TestFailure& f : test.failures) {
    failures.push_back(
        {{"file", f.file}, {"line", f.line}, {"message", f.message}, {"fatal", f.fatal}});
  }
  nlohmann::json metrics = metrics_json(test);
  nlohmann::json curves = curves_json(test);
  nlohmann::json predictions = predictions_json(test);
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
  if (!predictions.empty()) json["predictions"] = std::move(predictions);
  if (!test.batches.empty()) json["batches"] = batches_json(test);
  if (!test.datasets.empty()) json["datasets"] = datasets_json(test);
  if (!test.properties.empty()) json["properties"] = test.properties;
  if (!test.config.empty()) json["config"] = test.config;
  if (!test.constraints.empty()) json["constraints"] = test.constraints;
  if (!test.constraints_violated.empty()) json["constraints_violated"] = test.constraints_violated;
  if (!test.held_out.empty()) json["held_out"] = test.held_out;
  if (test.seeded) write_seeded_fields(test, json);
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

// ---- reading ----

// Each arm's sem and mean interval; derived from n, mean and sd in results written before they
// were stored.
void read_mean_intervals(const nlohmann::json& json, DistributionAnalysis& a) {
  if (!json.contains("candidate_mean_ci")) {
    set_mean_intervals(a);
    return;
  }
  a.candidate_sem = number_field(json, "candidate_sem");
  a.baseline_sem = number_field(json, "baseline_sem");
  for (const auto& [name, low, high] :
       {std::tuple{"candidate_mean_ci", &a.candidate_mean_low, &a.candidate_mean_high},
        std::tuple{"baseline_mean_ci", &a.baseline_mean_low, &a.baseline_mean_high}}) {
    const std::vector<double> ci = numbers_field(json, name);
    if (ci.size() != 2) throw JsonFieldError(name, "expected two numbers");
    *low = ci[0];
    *high = ci[1];
  }
}

DistributionAnalysis distribution_from(const nlohmann::json& json, const MetricRecord& metric) {
  DistributionAnalysis a;
  for (const auto& [name, member] : kAnalysisNumbers) a.*member = number_field(json, name);
  a.metric = metric.name;
  a.direction = metric.direction;
  a.design = enum_field<GateDesign>(json, "design", parse_gate_design);
  a.n_candidate = field<std::size_t>(json, "n_candidate");
  a.n_baseline = field<std::size_t>(json, "n_baseline");
  const std::vector<double> ci = numbers_field(json, "ci95");
  if (ci.size() != 2) throw JsonFieldError("ci95", "expected two numbers");
  a.ci_lower = ci[0];
  a.ci_upper = ci[1];
  read_mean_intervals(json, a);
  a.problem = field_or<std::string>(json, "problem", "");
  if (json.contains("covariate")) {
    with_field_context("covariate", [&] {
      const nlohmann::json& j = json.at("covariate");
      CovariateUse& c = a.covariate.emplace();
      c.name = field<std::string>(j, "name");
      c.applied = field<bool>(j, "applied");
      if (c.applied) {
        c.theta = number_field(j, "theta");
        c.variance_explained = number_field(j, "variance_explained");
        c.balance_p = number_field(j, "balance_p");
      } else {
        c.note = field<std::string>(j, "note");
      }
    });
  }
  if (json.contains("pass_interval")) {
    with_field_context("pass_interval", [&] {
      const nlohmann::json& i = json.at("pass_interval");
      a.pass_interval = DistributionAnalysis::Interval{
          number_field(i, "level"), number_field(i, "lower"), number_field(i, "upper")};
    });
  }
  if (json.contains("likelihood_ratio")) {
    with_field_context("likelihood_ratio", [&] {
      const nlohmann::json& lr = json.at("likelihood_ratio");
      a.likelihood_ratio = DistributionAnalysis::LikelihoodRatio{
          number_field(lr, "log_ratio"), number_field(lr, "regression_boundary"),
          number_field(lr, "pass_boundary"), number_field(lr, "alternative")};
    });
  }
  return a;
}

CurveExcursion curve_excursion_from(const nlohmann::json& e) {
  CurveExcursion excursion;
  excursion.compared_steps = field<std::size_t>(e, "compared_steps");
  if (!e.at("first_exit_step").is_null())
    excursion.first_exit_step = field<std::int64_t>(e, "first_exit_step");
  excursion.largest_excess = number_field(e, "largest_excess");
  excursion.largest_excess_step = field<std::int64_t>(e, "largest_excess_step");
  return excursion;
}

ClassFlips class_flips_from(const nlohmann::json& k) {
  ClassFlips cf;
  cf.target = field<std::int64_t>(k, "class");
  cf.correct_to_wrong = field<std::size_t>(k, "correct_to_wrong");
  cf.wrong_to_correct = field<std::size_t>(k, "wrong_to_correct");
  cf.net_lost = static_cast<std::int64_t>(cf.correct_to_wrong) -
                static_cast<std::int64_t>(cf.wrong_to_correct);
  return cf;
}

SliceFlips slice_from(const nlohmann::json& k) {
  SliceFlips slice;
  slice.attribute = field<std::string>(k, "attribute");
  slice.label = field<std::string>(k, "slice");
  if (k.contains("low")) slice.low = number_field(k, "low");
  if (k.contains("high")) slice.high = number_field(k, "high");
  slice.compared = field<std::size_t>(k, "compared");
  slice.correct_to_wrong = field<std::size_t>(k, "correct_to_wrong");
  slice.wrong_to_correct = field<std::size_t>(k, "wrong_to_correct");
  slice.accuracy_before = number_field(k, "accuracy_before");
  slice.accuracy_after = number_field(k, "accuracy_after");
  slice.p_two_sided = number_field(k, "p_two_sided");
  slice.p_holm = number_field(k, "p_holm");
  return slice;
}

FlipsAnalysis flips_from(const nlohmann::json& f) {
  FlipsAnalysis flips;
  flips.compared = field<std::size_t>(f, "compared");
  flips.correct_to_wrong = field<std::size_t>(f, "correct_to_wrong");
  flips.wrong_to_correct = field<std::size_t>(f, "wrong_to_correct");
  flips.baseline_accuracy = number_field(f, "baseline_accuracy");
  flips.candidate_accuracy = number_field(f, "candidate_accuracy");
  flips.p_worse = number_field(f, "p_worse");
  flips.p_better = number_field(f, "p_better");
  for (const nlohmann::json& k : f.at("by_class")) flips.by_class.push_back(class_flips_from(k));
  if (f.contains("by_attribute")) {
    for (const nlohmann::json& k : f.at("by_attribute"))
      flips.by_attribute.push_back(slice_from(k));
  }
  flips.summary = field<std::string>(f, "summary");
  return flips;
}

// A flips or distribution analysis with Holm-adjusted p-values records the gate's decision.
void read_gate_decision(const nlohmann::json& analysis, MetricComparison& c) {
  if (analysis.contains("p_worse_holm")) {
    c.decision = GateDecision{c.verdict, number_field(analysis, "p_worse_holm"),
                              number_field(analysis, "p_better_holm"), c.note};
  }
}

// The analyses a comparison carries when its gate ran one (each written only then).
void read_comparison_analyses(const nlohmann::json& json, const MetricRecord& metric,
                              MetricComparison& c) {
  if (json.contains("looks")) c.looks = array_field<SequentialLook>(json, "looks");
  if (json.contains("operators")) {
    with_field_context("operators",
                       [&] { c.operators = operator_diff_from_json(json.at("operators")); });
  }
  if (json.contains("failure_rate")) {
    with_field_context("failure_rate",
                       [&] { c.rate = failure_rate_from(json.at("failure_rate")); });
  }
  if (json.contains("excursion")) {
    with_field_context("excursion", [&] { c.curve = curve_excursion_from(json.at("excursion")); });
  }
  if (json.contains("flips")) {
    with_field_context("flips", [&] {
      const nlohmann::json& f = json.at("flips");
      c.flips = flips_from(f);
      read_gate_decision(f, c);
    });
  }
  if (json.contains("distribution")) {
    with_field_context("distribution", [&] {
      const nlohmann::json& d = json.at("distribution");
      c.distribution = distribution_from(d, metric);
      read_gate_decision(d, c);
    });
  }
}

MetricComparison comparison_from(const nlohmann::json& json, const MetricRecord& metric) {
  MetricComparison c;
  c.metric = metric.name;
  c.observed = metric.value;
  c.verdict = enum_field<Verdict>(json, "verdict", parse_verdict);
  c.baseline = optional_number_field(json, "baseline");
  c.delta = optional_number_field(json, "delta");
  c.relative_change = optional_number_field(json, "relative_change");
  c.tolerance = field<std::string>(json, "tolerance");
  c.allowed = optional_number_field(json, "allowed");
  c.kind = enum_field<MetricKind>(json, "kind", parse_metric_kind);
  c.note = field_or<std::string>(json, "note", "");
  if (json.contains("cause")) {
    with_field_context("cause", [&] { c.cause = cause_from(json.at("cause")); });
  }
  if (json.contains("baseline_direction")) {
    c.direction_change = DirectionChange{
        metric.direction, enum_field<Direction>(json, "baseline_direction", parse_direction)};
  }
  c.provisional = field_or<bool>(json, "provisional", false);
  read_comparison_analyses(json, metric, c);
  return c;
}

struct StoredMetric {
  MetricRecord metric;
  std::optional<MetricComparison> comparison;
  std::optional<CapabilityRate> capability_rate;
};

// "capability": its rate over the history, when the run knew one (the outcome itself follows
// from the value and the target).
std::optional<CapabilityRate> capability_rate_from(const nlohmann::json& json) {
  if (!json.contains("capability")) return std::nullopt;
  const nlohmann::json& capability = json.at("capability");
  if (!capability.contains("runs")) return std::nullopt;
  return capability_rate(field<int>(capability, "met_runs"), field<int>(capability, "runs"));
}

void from_json(const nlohmann::json& json, StoredMetric& stored) {
  MetricRecord& m = stored.metric;
  m.name = field<std::string>(json, "name");
  m.value = number_field(json, "value");
  m.direction = enum_field<Direction>(json, "direction", parse_direction);
  with_field_context("policy", [&] { m.policy = policy_from_json(json.at("policy")); });
  if (json.contains("samples")) {
    m.samples = numbers_field(json, "samples");
    m.sample_seeds = array_field<std::uint64_t>(json, "seeds");
    if (m.samples.size() != m.sample_seeds.size()) {
      throw JsonFieldError(
          "seeds", fmt::format("{} seeds for {} samples", m.sample_seeds.size(), m.samples.size()));
    }
  }
  if (json.contains("breakdown")) {
    with_field_context("breakdown",
                       [&] { m.breakdown = breakdown_from_json(json.at("breakdown")); });
  }
  if (json.contains("target")) {
    with_field_context("target", [&] { m.target = target_from_json(json.at("target")); });
    with_field_context("capability", [&] { stored.capability_rate = capability_rate_from(json); });
  }
  if (json.contains("verdict")) stored.comparison = comparison_from(json, m);
}

}  // namespace

void from_json(const nlohmann::json& json, TestFailure& failure) {
  failure.file = field<std::string>(json, "file");
  failure.line = field<int>(json, "line");
  failure.message = field<std::string>(json, "message");
  failure.fatal = field<bool>(json, "fatal");
}

void from_json(const nlohmann::json& json, RecordedCurve& curve) {
  curve.curve.name = field<std::string>(json, "name");
  curve.csv_file = field<std::string>(json, "file");
  curve.points = field<std::size_t>(json, "points");
  if (json.contains("policy")) {
    with_field_context("policy",
                       [&] { curve.curve.policy = curve_policy_from_json(json.at("policy")); });
  }
}

namespace {

// The predictions a test recorded; a compared one also adds its comparison, on the accuracy.
void read_predictions(const nlohmann::json& predictions, TestResult& test) {
  for (const nlohmann::json& entry : predictions) {
    RecordedPredictions p;
    p.name = field<std::string>(entry, "name");
    p.csv_file = field<std::string>(entry, "file");
    p.examples = field<std::size_t>(entry, "examples");
    p.accuracy = number_field(entry, "accuracy");
    if (entry.contains("confusion")) {
      with_field_context("confusion",
                         [&] { p.confusion = confusion_from_json(entry.at("confusion")); });
    }
    if (entry.contains("verdict")) {
      MetricRecord as_metric;
      as_metric.name = p.name;
      as_metric.value = p.accuracy;  // what the comparison observed
      as_metric.direction = Direction::HigherIsBetter;
      test.comparisons.push_back(comparison_from(entry, as_metric));
    }
    test.predictions.push_back(std::move(p));
  }
}

// The batches a test recorded; their views stay in their files (read_run_record reads them).
std::vector<RecordedBatch> read_batches(const nlohmann::json& batches) {
  std::vector<RecordedBatch> read;
  for (const nlohmann::json& entry : batches) {
    RecordedBatch b;
    b.name = field<std::string>(entry, "name");
    b.kind = enum_field<BatchView::Kind>(entry, "kind", parse_batch_kind);
    b.file = field<std::string>(entry, "file");
    b.examples = field<std::size_t>(entry, "examples");
    read.push_back(std::move(b));
  }
  return read;
}

// The comparisons of the gated curves (a curve entry with a verdict).
void read_curve_comparisons(const nlohmann::json& curves, TestResult& test) {
  for (const nlohmann::json& entry : curves) {
    if (!entry.contains("verdict")) continue;
    MetricRecord as_metric;
    as_metric.name = field<std::string>(entry, "name");
    // (Written since curves are gated; 0 for a folder written before.)
    as_metric.value = optional_number_field(entry, "value").value_or(0.0);
    as_metric.direction = curve_policy_from_json(entry.at("policy")).direction;
    test.comparisons.push_back(comparison_from(entry, as_metric));
  }
}

void read_seeded_fields(const nlohmann::json& json, TestResult& test) {
  test.seed_runs = array_field<SeedRun>(json, "seed_runs");
  test.seed_runs_planned = field<std::size_t>(json, "seed_runs_planned");
  test.seed_block = field_or<int>(json, "seed_block", 0);
  test.seed_cap = field_or<int>(json, "seed_cap", 0);
  // Written since pass_early(); the runs before spent the PASS error O'Brien–Fleming-type.
  if (json.contains("seed_pass_spending")) {
    test.seed_pass_spending = enum_field<stats::SpendingFunction>(json, "seed_pass_spending",
                                                                  stats::parse_spending_function);
  }
  // Written since pass_error(); the runs before kept the single-look gate's 0.025.
  test.seed_pass_error = field_or<double>(json, "seed_pass_error", kDefaultPassError);
  test.seed_next_block = field_or<int>(json, "seed_next_block", 0);
  test.seed_anytime = field_or<bool>(json, "seed_anytime", false);
  test.seed_likelihood_ratio = field_or<bool>(json, "seed_likelihood_ratio", false);
  test.seed_pass_rise = field_or<double>(json, "seed_pass_rise", 0.0);
  test.seed_pass_rise_from = field_or<int>(json, "seed_pass_rise_from", 0);
  test.seed_constant_pass = field_or<bool>(json, "seed_constant_pass", false);
  if (json.contains("attempts")) {
    with_field_context("attempts", [&] {
      const nlohmann::json& a = json.at("attempts");
      test.attempts = FailureRate{number_field(a, "detect")};
      test.quarantined = field_or<bool>(a, "quarantined", false);
    });
  }
}

void read_baseline_fields(const nlohmann::json& b, TestResult& test) {
  test.baseline_file = field<std::string>(b, "file");
  test.baseline_version = field<int>(b, "version");
  test.baseline_commit = field<std::string>(b, "git_commit");
  test.baseline_promoted_at = field<std::string>(b, "promoted_at");
  test.environment_note = field<std::string>(b, "environment");
}

}  // namespace

void from_json(const nlohmann::json& json, TestResult& test) {
  test.name = field<std::string>(json, "name");
  test.full_name = field<std::string>(json, "full_name");
  test.tier = enum_field<Tier>(json, "tier", parse_tier);
  test.file = field<std::string>(json, "file");
  test.line = field<int>(json, "line");
  test.status = enum_field<TestStatus>(json, "status", parse_test_status);
  test.duration_s = number_field(json, "duration_s");
  test.started_at = field<std::string>(json, "started_at");
  test.seed = field<std::uint64_t>(json, "seed");
  test.threads = field<int>(json, "threads");
  test.config_hash = field<std::string>(json, "config_hash");
  test.failures = array_field<TestFailure>(json, "failures");
  for (StoredMetric& stored : array_field<StoredMetric>(json, "metrics")) {
    if (stored.capability_rate) test.capability_rates[stored.metric.name] = *stored.capability_rate;
    test.metrics.push_back(std::move(stored.metric));
    if (stored.comparison) test.comparisons.push_back(std::move(*stored.comparison));
  }
  test.curves = array_field<RecordedCurve>(json, "curves");
  if (json.contains("predictions")) {
    with_field_context("predictions", [&] { read_predictions(json.at("predictions"), test); });
  }
  if (json.contains("batches")) {
    with_field_context("batches", [&] { test.batches = read_batches(json.at("batches")); });
  }
  if (json.contains("datasets")) {
    with_field_context("datasets", [&] {
      for (const nlohmann::json& d : json.at("datasets")) {
        test.datasets.push_back({field<std::string>(d, "name"), field<std::string>(d, "sha256"),
                                 field<std::uint64_t>(d, "bytes"),
                                 fingerprint_kind(field_or<bool>(d, "order", false),
                                                  field_or<std::string>(d, "kind", ""))});
      }
    });
  }
  test.properties = field_or<std::map<std::string, std::string>>(json, "properties", {});
  test.config = field_or<std::map<std::string, std::string>>(json, "config", {});
  test.constraints = field_or<std::vector<std::string>>(json, "constraints", {});
  test.constraints_violated = field_or<std::vector<std::string>>(json, "constraints_violated", {});
  test.held_out = field_or<std::vector<HeldOutEvaluation>>(json, "held_out", {});
  if (json.contains("curves")) read_curve_comparisons(json.at("curves"), test);
  test.seeded = json.contains("seed_runs");
  if (test.seeded) read_seeded_fields(json, test);
  test.skip_message = field_or<std::string>(json, "skip_message", "");
  test.crash_message = field_or<std::string>(json, "crash_message", "");
  if (json.contains("baseline")) {
    with_field_context("baseline", [&] { read_baseline_fields(json.at("baseline"), test); });
  }
  test.finished = true;
}

RunSummary summarize_run(const RunResult& run) {
  RunSummary s;
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;
    ++s.tests;
    s.passed += test.status == TestStatus::kPassed;
    s.failed += test.status == TestStatus::kFailed;
    s.skipped += test.status == TestStatus::kSkipped;
    s.crashed += test.status == TestStatus::kCrashed;
    s.regressed += test.status == TestStatus::kRegressed;
    s.timed_out += test.status == TestStatus::kTimedOut;
  }
  return s;
}

void to_json(nlohmann::json& json, const RunSummary& s) {
  json = {{"tests", s.tests},        {"passed", s.passed},   {"failed", s.failed},
          {"skipped", s.skipped},    {"crashed", s.crashed}, {"regressed", s.regressed},
          {"timed_out", s.timed_out}};
}

void to_json(nlohmann::json& json, const SeedRun& run) {
  nlohmann::json metrics = nlohmann::json::object();
  for (const MetricRecord& m : run.metrics) metrics[m.name] = json_number(m.value);
  json = {{"variant", run.variant},
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
  if (!run.method.empty()) {
    json["method"] = run.method;
    json["trial"] = run.trial;
  }
}

void from_json(const nlohmann::json& json, SeedRun& run) {
  run.variant = field<std::string>(json, "variant");
  run.variant_index = field<std::size_t>(json, "variant_index");
  run.seed = field<std::uint64_t>(json, "seed");
  run.status = enum_field<TestStatus>(json, "status", parse_test_status);
  run.duration_s = number_field(json, "duration_s");
  const nlohmann::json metrics = field<nlohmann::json>(json, "metrics");
  with_field_context("metrics", [&] {
    if (!metrics.is_object()) throw std::invalid_argument("expected an object of numbers");
  });
  with_field_context("metrics", [&] {
    for (const auto& [name, value] : metrics.items()) {
      MetricRecord m;
      m.name = name;
      m.value = number_field(metrics, name);
      run.metrics.push_back(std::move(m));
    }
  });
  for (const std::string& message : field_or<std::vector<std::string>>(json, "failures", {})) {
    run.failures.push_back({"", 0, message, false});
  }
  run.crash_message = field_or<std::string>(json, "crash_message", "");
  run.skip_message = field_or<std::string>(json, "skip_message", "");
  run.method = field_or<std::string>(json, "method", "");
  run.trial = field_or<int>(json, "trial", -1);
}

void to_json(nlohmann::json& json, const RunResult& run) {
  nlohmann::json tests = nlohmann::json::array();
  for (const TestResult& test : run.tests) {
    if (test.finished) tests.push_back(test_json(test));
  }
  const bool complete = !run.info.finished_at.empty();
  json = {{"schema_version", kResultsSchemaVersion},
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
            {"determinism", run.info.determinism},
            {"baselines",
             run.info.baselines.empty() ? nlohmann::json() : nlohmann::json(run.info.baselines)},
            {"environment_profile", run.info.environment_profile},
            {"strict_env", run.info.strict_env}}},
          {"summary", summarize_run(run)},
          {"tests", std::move(tests)},
          {"runner_errors", run.runner_errors}};
  if (!run.criteria.empty()) json["criteria"] = run.criteria;
  if (!run.held_out.empty()) json["held_out"] = run.held_out;
  if (run.info.shard) {
    const ShardInfo& shard = *run.info.shard;
    json["run"]["shard"] = {{"index", shard.index},
                            {"count", shard.count},
                            {"plan_hash", shard.plan_hash},
                            {"source", shard.source}};
  }
  if (!run.info.merged_from.empty()) json["run"]["merged_from"] = run.info.merged_from;
  if (run.info.screening) json["run"]["phase"] = "screening";
  if (!run.info.baseline_history.empty()) {
    json["run"]["baseline_history"] = {{"folder", run.info.baseline_history},
                                       {"runs", run.info.baseline_runs}};
  }
  if (complete) {
    json["run"]["exit_code"] = run.exit_code;
    json["run"]["exit_status"] = exit_code_name(static_cast<ExitCode>(run.exit_code));
  }
}

namespace {

// "phase": absent in a run that decides, "screening" in one that only ranks configurations.
bool read_screening_phase(const nlohmann::json& run) {
  const std::string phase = field_or<std::string>(run, "phase", "");
  if (phase.empty()) return false;
  if (phase != "screening") {
    throw JsonFieldError("phase",
                         fmt::format("'{}' is not a phase (expected \"screening\")", phase));
  }
  return true;
}

}  // namespace

void from_json(const nlohmann::json& json, RunResult& run) {
  const int version = field<int>(json, "schema_version");
  if (version > kResultsSchemaVersion) {
    throw JsonFieldError("schema_version", fmt::format("{} is newer than this mlregress reads ({})",
                                                       version, kResultsSchemaVersion));
  }
  with_field_context("run", [&] {
    const nlohmann::json& r = json.at("run");
    RunInfo& info = run.info;
    info.run_id = field<std::string>(r, "id");
    info.binary = field<std::string>(r, "binary");
    info.started_at = field<std::string>(r, "started_at");
    // "complete" is the field readers rely on; a run that is not complete has no end.
    info.finished_at =
        field<bool>(r, "complete") ? field_or<std::string>(r, "finished_at", "") : "";
    info.duration_s = number_field(r, "duration_s");
    info.tiers = array_field<std::string>(r, "tiers");
    info.filter = field<std::string>(r, "filter");
    info.seed = field<std::uint64_t>(r, "seed");
    info.threads = field<int>(r, "threads");
    info.determinism = field_or<std::string>(r, "determinism", "warn");
    info.baselines = field_or<std::string>(r, "baselines", "");
    info.environment_profile = field<std::string>(r, "environment_profile");
    info.strict_env = field_or<bool>(r, "strict_env", false);
    run.exit_code = field_or<int>(r, "exit_code", 0);
    if (r.contains("shard")) {
      with_field_context("shard", [&] {
        const nlohmann::json& s = r.at("shard");
        info.shard = ShardInfo{field<std::size_t>(s, "index"), field<std::size_t>(s, "count"),
                               field<std::string>(s, "plan_hash"), field<std::string>(s, "source")};
      });
    }
    if (r.contains("merged_from")) info.merged_from = array_field<std::string>(r, "merged_from");
    info.screening = read_screening_phase(r);
    if (r.contains("baseline_history")) {
      with_field_context("baseline_history", [&] {
        const nlohmann::json& h = r.at("baseline_history");
        info.baseline_history = field<std::string>(h, "folder");
        info.baseline_runs = array_field<std::string>(h, "runs");
      });
    }
  });
  run.tests = array_field<TestResult>(json, "tests");
  run.runner_errors = array_field<std::string>(json, "runner_errors");
  if (json.contains("criteria")) run.criteria = array_field<CheckedCriterion>(json, "criteria");
  run.held_out = field_or<std::vector<HeldOutTally>>(json, "held_out", {});
}

std::string render_results_json(const RunResult& run) {
  return json_text(nlohmann::json(run), 2) + "\n";
}

RunResult read_results_json(const std::string& path) {
  const nlohmann::json json = read_json_file(path);
  try {
    return json.get<RunResult>();
  } catch (const JsonFieldError& error) {
    throw RunFolderError(
        fmt::format("{}: {} (see runner/docs/results-schema.md)", path, error.what()));
  }
}

}  // namespace mlregress::internal
