#include "promote_command.h"

#include <fmt/format.h>

#include <cstdio>

#include "clock.h"
#include "promotion.h"
#include "run_record.h"

namespace mlregress::internal {

ExitCode promote_command(const PromoteOptions& options) {
  const RunRecord run = read_run_record(options.run);
  PromotionRequest request;
  request.baselines_dir = options.baselines;
  request.reason = options.reason;
  request.filter = options.filter;
  request.force = options.force;
  request.now = utc_now_iso8601();
  const std::vector<PlannedFile> written = promote_run(run, request);
  if (written.empty()) {
    std::printf("promote: baselines already match run %s; nothing changed\n", run.run_id.c_str());
    return ExitCode::kPassed;
  }
  for (const PlannedFile& file : written) {
    std::printf("promote: %s %s v%d -> v%d: %d changed, %d new metric%s\n", file.path.c_str(),
                file.created ? "created" : "updated", file.before.provenance.version,
                file.after.provenance.version, file.changed_metrics, file.new_metrics,
                file.new_metrics == 1 ? "" : "s");
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal

// ---------------------------------------------------------------- compare

#include <set>

#include "baseline_store.h"
#include "environment.h"
#include "environment_profile.h"
#include "json_number.h"
#include "regression_report.h"
#include "supervisor.h"
#include "test_registry.h"

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
  bool regressed = false;
  std::set<std::string> seen;
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
      const BaselineMetric* entry = nullptr;
      if (base != nullptr) {
        auto it = base->metrics.find(name);
        if (it != base->metrics.end()) entry = &it->second;
      }
      test.comparisons.push_back(compare_metric(name, read_json_number(metric.at("value")).value(),
                                                parse_direction(metric.at("direction").get<std::string>()).value(),
                                                entry, b.profile.id));
      regressed = regressed || test.comparisons.back().verdict == Verdict::kRegression;
    }
    std::printf("%s [%s in B]\n%s\n", test_json.value("full_name", test.name).c_str(),
                test_json.at("status").get<std::string>().c_str(),
                format_regression_report(b.run_id, test).c_str());
  }
  for (const nlohmann::json& test_json : a.results.at("tests")) {
    if (seen.count(test_json.at("name")) == 0) {
      std::printf("%s: in A only (not run in B)\n", test_json.at("name").get<std::string>().c_str());
    }
  }
  std::printf("compare: %s\n", regressed ? "REGRESSION" : "no regression");
  return regressed ? ExitCode::kRegression : ExitCode::kPassed;
}

// ---------------------------------------------------------------- baselines check

ExitCode baselines_check_command(const BaselinesCheckOptions& options, const RunnerHooks& hooks,
                                 const std::string& binary) {
  const BaselineSet set = BaselineSet::load(options.baselines, binary, /*allow_empty=*/false);
  nlohmann::json environment = probe_environment(probe_git());
  if (hooks.probe_framework) environment["framework"] = probe_in_child_process(hooks.probe_framework);
  environment["run"] = {{"intra_op_threads", 1}};
  const EnvironmentProfile profile = environment_profile(environment);

  const TestRegistry& registry = TestRegistry::instance();
  int findings = 0;
  std::printf("baselines check: %s in %s (this machine: %s)\n", binary.c_str(),
              baseline_folder(options.baselines, binary).c_str(), profile.id.c_str());
  for (const LoadedBaselineFile& file : set.files()) {
    for (const auto& [name, test] : file.file.tests) {
      if (registry.find(name) == nullptr) {
        std::printf("  stale      %s: baseline for '%s', which the binary no longer has\n",
                    file.path.c_str(), name.c_str());
        ++findings;
      }
      for (const auto& [metric, entry] : test.metrics) {
        if (!entry.value && entry.by_environment.count(profile.id) == 0) {
          std::string profiles;
          for (const auto& [id, v] : entry.by_environment) profiles += (profiles.empty() ? "" : ", ") + id;
          std::printf("  other-env  %s: %s.%s recorded on %s only\n", file.path.c_str(), name.c_str(),
                      metric.c_str(), profiles.c_str());
          ++findings;
        }
      }
    }
  }
  for (const RegisteredTest& test : registry.tests()) {
    if (set.find(test.name) == nullptr) {
      std::printf("  no-baseline %s: no baseline entry (new, or it records no metrics)\n",
                  test.full_name().c_str());
      ++findings;
    }
  }
  std::printf("baselines check: %d finding%s\n", findings, findings == 1 ? "" : "s");
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
