#include "commands/run_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <thread>

#include "baselines/baseline_store.h"
#include "commands/report_command.h"
#include "comparison/baseline_gate.h"
#include "environment/environment_probe.h"
#include "environment/environment_profile.h"
#include "execution/run_collector.h"
#include "execution/supervisor.h"
#include "registry/param_overrides.h"
#include "registry/test_selection.h"
#include "reporting/console_reporter.h"
#include "reporting/ctest_measurements.h"
#include "reporting/curve_csv_writer.h"
#include "reporting/junit_reporter.h"
#include "reporting/results_json_writer.h"
#include "reporting/seed_ledger_writer.h"
#include "storage/json_text.h"
#include "storage/run_folder.h"
#include "storage/run_ledger.h"
#include "support/atomic_file.h"
#include "support/clock.h"
#include "support/errors.h"
#include "support/stop_signal.h"

namespace mlregress::internal {
namespace {

ExitCode decide_exit_code(const RunResult& run, const std::vector<std::string>& output_errors) {
  std::size_t failed = 0, skipped = 0, regressed = 0;
  for (const TestResult& test : run.tests) {
    failed += is_test_failure(test.status);
    skipped += test.status == TestStatus::kSkipped;
    regressed += test.status == TestStatus::kRegressed;
  }
  if (failed > 0) return ExitCode::kTestFailed;
  if (regressed > 0) return ExitCode::kRegression;
  if (!run.runner_errors.empty()) return ExitCode::kInternalError;
  if (!output_errors.empty()) return ExitCode::kOutputError;
  if (!run.tests.empty() && skipped == run.tests.size()) return ExitCode::kAllSkipped;
  return ExitCode::kPassed;
}

// Everything a run writes while it goes on: the console, the files in its folder, --junit.
struct RunOutputs {
  RunOutputs(const RunOptions& options, const RunFolder& folder)
      : console(
            stdout,
            options.color == "always" || (options.color == "auto" && terminal_wants_color(stdout)),
            ::isatty(::fileno(stdout)) != 0),
        junit(folder.path + "/junit.xml"),
        junit_copy(options.junit),
        results(folder.path + "/results.json"),
        curves(folder.path),
        seed_ledger(folder.path + "/seeds.jsonl"),
        ctest_measurements(stdout) {
    console.show_ablations_from(folder.path + "/seeds.jsonl");
    observers = {&console, &junit, &results, &curves, &seed_ledger};
    if (!options.junit.empty()) observers.push_back(&junit_copy);
    if (options.ctest_measurements) observers.push_back(&ctest_measurements);
  }
  ConsoleReporter console;
  JunitReporter junit, junit_copy;
  ResultsJsonWriter results;
  CurveCsvWriter curves;
  SeedLedgerWriter seed_ledger;
  CTestMeasurementReporter ctest_measurements;
  std::vector<RunObserver*> observers;
};

RunSettings run_settings(const RunOptions& options) {
  const int cores = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  return {options.seed, options.threads, options.jobs > 0 ? options.jobs : cores,
          options.seed_timeout_s, options.timeout_s};
}

}  // namespace

ExitCode run_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                     const std::string& gtest_filter) {
  const TestRegistry& registry = TestRegistry::instance();
  const std::vector<ParamOverride> overrides = parse_param_overrides(options.sets, registry);
  const std::vector<const RegisteredTest*> selected =
      select_tests(registry, options.tiers, options.filter, gtest_filter);
  if (selected.empty()) {
    std::fprintf(
        stderr, "%s: no tests matched (tiers: %s, filter: '%s'); see '%s list'\n", binary.c_str(),
        options.tiers.empty() ? "all" : fmt::format("{}", fmt::join(options.tiers, ",")).c_str(),
        options.filter.c_str(), binary.c_str());
    return ExitCode::kNoTestsMatched;
  }
  const RunPlan plan = make_run_plan(selected, overrides, options.sets, run_settings(options));

  const auto start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const GitInfo git = probe_git(run_repository(options.repo, registry.source_files()));
  RunResult run;
  run.info.environment = probe_environment(git, hooks,
                                           {{"started_at", utc_iso8601(start)},
                                            {"seed", plan.settings.seed},
                                            {"intra_op_threads", plan.settings.threads}});
  const EnvironmentProfile profile = environment_profile(run.info.environment);
  // Loaded before the run folder exists: a bad baseline file stops the run with nothing written.
  std::optional<BaselineSet> baselines;
  std::optional<BaselineGate> gate;
  if (!options.baselines.empty()) {
    baselines = BaselineSet::load(options.baselines, binary, /*allow_missing=*/false);
    gate.emplace(*baselines, profile, options.strict_env);
  }

  const RunFolder folder = create_run_folder(options.out, start, git.short_commit());
  run.info.run_id = folder.run_id;
  run.info.run_folder = folder.path;
  run.info.binary = binary;
  run.info.started_at = utc_iso8601(start);
  run.info.tiers =
      options.tiers.empty() ? std::vector<std::string>{"fast", "medium", "full"} : options.tiers;
  run.info.filter = options.filter;
  run.info.seed = plan.settings.seed;
  run.info.threads = plan.settings.threads;
  run.info.baselines = options.baselines;
  run.info.environment_profile = profile.id;
  write_file_atomically(folder.path + "/environment.json",
                        json_text(run.info.environment, 2) + "\n");
  write_file_atomically(folder.path + "/config.json", json_text(nlohmann::json(plan), 2) + "\n");

  RunOutputs outputs(options, folder);
  RunCollector collector(plan, run, outputs.observers);
  if (gate) collector.compare_with(&*gate);
  collector.start_run();
  if (!collector.output_errors().empty()) {
    // Nothing has run yet: better to stop than to run tests whose results cannot be kept. The
    // folder would look like a run that holds nothing, so it goes too.
    std::error_code ignored;
    std::filesystem::remove_all(folder.path, ignored);
    throw OutputError(collector.output_errors().front());
  }
  install_stop_handlers();
  try {
    run_tests_in_child_processes(plan, hooks, collector);
  } catch (const RunInterrupted& stopped) {
    // The folder keeps what finished; without finished_at it reads as incomplete.
    run.exit_code = static_cast<int>(stopped.exit_code());
    try {
      // The page of what finished, headed INCOMPLETE.
      write_run_report_html(RunRecord{folder.path, run, profile}, baselines ? &*baselines : nullptr,
                            folder.path + "/report.html");
    } catch (const std::exception&) {
      // the run ends anyway; results.json holds every finished test
    }
    try {
      finish_run_folder(folder, ledger_entry(run));
    } catch (const OutputError&) {
      // the run ends anyway; results.json already holds every finished test
    }
    throw;
  }

  decide_multi_seed_gate(run, options.alpha);
  run.info.finished_at = utc_now_iso8601();
  run.info.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  run.exit_code = static_cast<int>(decide_exit_code(run, collector.output_errors()));
  collector.finish_run();
  std::vector<std::string> output_errors = collector.output_errors();
  try {
    write_run_report_html(RunRecord{folder.path, run, profile}, baselines ? &*baselines : nullptr,
                          folder.path + "/report.html");
  } catch (const std::exception& error) {
    output_errors.push_back(fmt::format("report.html: {}", error.what()));
  }
  try {
    finish_run_folder(folder, ledger_entry(run));
  } catch (const OutputError& error) {
    output_errors.push_back(error.what());
  }
  for (const std::string& error : output_errors) {
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.c_str());
  }
  if (!options.junit.empty()) std::printf("JUnit XML: %s\n", options.junit.c_str());
  return decide_exit_code(run, output_errors);
}

}  // namespace mlregress::internal
