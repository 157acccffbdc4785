#include "compare_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <set>

#include "baseline_store.h"
#include "distribution_gate.h"
#include "policy_json.h"
#include "environment_profile.h"
#include "json_number.h"
#include "promotion.h"
#include "regression_report.h"
#include "run_record.h"

namespace mlregress::internal {

ExitCode compare_command(const CompareOptions& options) {
  const RunRecord a = read_run_record(options.run_a);
  const RunRecord b = read_run_record(options.run_b);
  // Run A becomes a baseline exactly as `promote --force` would write it, in memory only.
  PromotionRequest request;
  request.force = true;
  request.reason = "compare";
  std::vector<LoadedBaselineFile> files;
  for (PlannedFile& planned : plan_promotion(a, BaselineSet{}, request)) {
    files.push_back({options.run_a, std::move(planned.after)});
  }
  const BaselineSet baseline = BaselineSet::from_files(std::move(files));

  std::printf("COMPARE: %s (A, baseline) -> %s (B, candidate)\n", a.run_id.c_str(), b.run_id.c_str());
  std::printf("ENVIRONMENT   %s\n\n", describe_environment_change(a.profile, b.profile).c_str());
  std::set<std::string> seen;
  std::vector<TestResult> tests;
  std::vector<std::string> headers;
  for (const nlohmann::json& test_json : b.results.at("tests")) {
    TestResult test;
    test.name = test_json.at("name");
    test.config_hash = test_json.value("config_hash", "");
    seen.insert(test.name);
    const LoadedBaselineFile* loaded = baseline.find(test.name);
    const BaselineTest* base = loaded ? &loaded->file.tests.at(test.name) : nullptr;
    if (base != nullptr) {
      test.baseline_file = a.path;
      test.baseline_version = 0;
      test.baseline_commit = loaded->file.provenance.git_commit;
      test.baseline_promoted_at = a.results.at("run").value("started_at", "");
      test.environment_note = std::string("config ") + (base->config_hash == test.config_hash ? "same" : "changed");
    }
    for (const nlohmann::json& metric : test_json.at("metrics")) {
      const std::string name = metric.at("name");
      const Direction direction = parse_direction(metric.at("direction").get<std::string>()).value();
      const BaselineMetric* entry = nullptr;
      if (base != nullptr) {
        auto it = base->metrics.find(name);
        if (it != base->metrics.end()) entry = &it->second;
      }
      const double value = read_json_number(metric.at("value")).value();
      if (metric.contains("samples")) {
        // Seeded metrics: the same comparison as `run --baselines`, gated below across all of them.
        MetricRecord record;
        record.name = name;
        record.value = value;
        record.direction = direction;
        record.policy = policy_from_json(metric.at("policy"));
        for (const nlohmann::json& v : metric.at("samples")) record.samples.push_back(read_json_number(v).value());
        record.sample_seeds = metric.at("seeds").get<std::vector<std::uint64_t>>();
        test.comparisons.push_back(compare_distribution(record, entry));
        continue;
      }
      test.comparisons.push_back(compare_metric(name, value, direction, entry, b.profile.id));
    }
    tests.push_back(std::move(test));
    headers.push_back(fmt::format("{} [{} in B]", test_json.value("full_name", test.name),
                                  test_json.at("status").get<std::string>()));
  }

  std::vector<DistributionAnalysis> analyses;
  for (const TestResult& test : tests) {
    for (const MetricComparison& c : test.comparisons) {
      if (c.distribution) analyses.push_back(*c.distribution);
    }
  }
  const std::vector<GateDecision> decisions = decide_gate(analyses, options.alpha);
  std::size_t next = 0;
  bool regressed = false;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    for (MetricComparison& c : tests[i].comparisons) {
      if (c.distribution) {
        c.decision = decisions[next++];
        c.verdict = c.decision->verdict;
        c.note = c.decision->reason;
      }
      regressed = regressed || c.verdict == Verdict::kRegression;
    }
    std::printf("%s\n%s\n", headers[i].c_str(), format_regression_report(b.run_id, tests[i]).c_str());
  }
  for (const nlohmann::json& test_json : a.results.at("tests")) {
    if (seen.count(test_json.at("name")) == 0) {
      std::printf("%s: in A only (not run in B)\n", test_json.at("name").get<std::string>().c_str());
    }
  }
  std::printf("compare: %s\n", regressed ? "REGRESSION" : "no regression");
  return regressed ? ExitCode::kRegression : ExitCode::kPassed;
}

}  // namespace mlregress::internal
