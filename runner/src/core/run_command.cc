#include "run_command.h"

#include <fmt/format.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <thread>
#include <algorithm>

#include "atomic_file.h"
#include "clock.h"
#include "config_hash.h"
#include "console_reporter.h"
#include "curve_csv_writer.h"
#include "baseline_store.h"
#include "environment.h"
#include "environment_profile.h"
#include "junit_reporter.h"
#include "output_error.h"
#include "param_overrides.h"
#include "results_json_writer.h"
#include "run_collector.h"
#include "run_folder.h"
#include "seed_ledger_writer.h"
#include "supervisor.h"
#include "test_selection.h"

namespace mlregress::internal {
namespace {

ExitCode decide_exit_code(const RunResult& run, const std::vector<std::string>& output_errors) {
  std::size_t failed = 0, skipped = 0, regressed = 0;
  for (const TestResult& test : run.tests) {
    failed += test.status == TestStatus::kFailed || test.status == TestStatus::kCrashed;
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

nlohmann::json config_document(const RunPlan& plan, const RunOptions& options) {
  nlohmann::json tests = nlohmann::json::object();
  for (const PlannedTest& planned : plan.tests) {
    nlohmann::json& entry = tests[planned.test->name];
    entry = {{"tier", tier_name(planned.test->tier)},
             {"params", params_json(planned.params)},
             {"config_hash", planned.config_hash}};
    if (planned.seeded()) {
      entry["seeds"] = planned.seeds;
      nlohmann::json variants = nlohmann::json::array();
      for (const PlannedVariant& v : planned.variants) {
        variants.push_back({{"name", v.name}, {"params", params_json(v.params)}, {"config_hash", v.config_hash}});
      }
      entry["variants"] = std::move(variants);
    }
  }
  return {{"schema_version", 1}, {"seed", plan.seed}, {"threads", plan.threads}, {"jobs", plan.jobs},
          {"overrides", options.sets}, {"tests", std::move(tests)}};
}

nlohmann::json ledger_entry(const RunResult& run) {
  const nlohmann::json results = results_json(run);
  return {{"run_id", run.info.run_id},
          {"binary", run.info.binary},
          {"started_at", run.info.started_at},
          {"finished_at", run.info.finished_at},
          {"duration_s", run.info.duration_s},
          {"tiers", run.info.tiers},
          {"filter", run.info.filter},
          {"git_commit", run.info.environment["git"]["commit"]},
          {"git_dirty", run.info.environment["git"]["dirty"]},
          {"summary", results["summary"]},
          {"exit_code", run.exit_code},
          {"exit_status", exit_code_name(static_cast<ExitCode>(run.exit_code))}};
}

// A seeded test's seeds and variants are fixed here, so that every worker agrees on them. Its
// config hash leaves the seed out (a run on fresh seeds measures the same configuration) and
// counts one thread: each seed runs single-threaded whatever --threads says.
PlannedTest plan_test(const RegisteredTest& test, const std::vector<ParamOverride>& overrides,
                      const RunPlan& plan) {
  PlannedTest planned{&test, resolve_params(test, overrides), "", {}, {}};
  if (!test.seeded()) {
    planned.config_hash = config_hash(planned.params, plan.seed, plan.threads);
    return planned;
  }
  planned.config_hash = config_hash(planned.params, 0, 1);
  for (int i = 0; i < test.seeds.count(); ++i) planned.seeds.push_back(plan.seed + static_cast<std::uint64_t>(i));
  std::vector<Variant> variants = test.seeds.variant_list();
  if (variants.empty()) variants.push_back(Variant{"", {}});
  for (const Variant& variant : variants) {
    PlannedVariant v{variant.name, planned.params, ""};
    for (const ParamSpec& change : variant.overrides) {
      const bool as_double = std::holds_alternative<double>(v.params.at(change.name));
      if (const auto* i = std::get_if<std::int64_t>(&change.default_value); i != nullptr && as_double) {
        v.params[change.name] = static_cast<double>(*i);
      } else {
        v.params[change.name] = change.default_value;
      }
    }
    v.config_hash = config_hash(v.params, 0, 1);
    planned.variants.push_back(std::move(v));
  }
  return planned;
}

}  // namespace

ExitCode run_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                     const std::string& gtest_filter) {
  const TestRegistry& registry = TestRegistry::instance();
  const std::vector<ParamOverride> overrides = parse_param_overrides(options.sets, registry);
  const std::vector<const RegisteredTest*> selected =
      select_tests(registry, options.tiers, options.filter, gtest_filter);
  if (selected.empty()) {
    std::string tiers;
    for (const std::string& t : options.tiers) tiers += (tiers.empty() ? "" : ",") + t;
    std::fprintf(stderr, "%s: no tests matched (tiers: %s, filter: '%s'); see '%s list'\n",
                 binary.c_str(), tiers.empty() ? "all" : tiers.c_str(), options.filter.c_str(),
                 binary.c_str());
    return ExitCode::kNoTestsMatched;
  }

  RunPlan plan;
  plan.seed = options.seed;
  plan.threads = options.threads;
  plan.jobs = options.jobs > 0 ? options.jobs
                               : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  plan.seed_timeout_s = options.seed_timeout_s;
  for (const RegisteredTest* test : selected) plan.tests.push_back(plan_test(*test, overrides, plan));

  const auto start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const GitInfo git = probe_git();
  RunResult run;
  run.info.environment = probe_environment(git);
  if (hooks.probe_framework) {
    run.info.environment["framework"] = probe_in_child_process(hooks.probe_framework);
  }
  run.info.environment["run"] = {{"started_at", utc_iso8601(start)},
                                 {"seed", plan.seed},
                                 {"intra_op_threads", plan.threads}};

  const EnvironmentProfile profile = environment_profile(run.info.environment);
  run.info.environment_profile = profile.id;
  run.info.baselines = options.baselines;
  // Loaded before the run folder exists: a bad baseline file stops the run with nothing written.
  std::optional<BaselineSet> baselines;
  if (!options.baselines.empty()) {
    baselines = BaselineSet::load(options.baselines, binary, /*allow_empty=*/false);
  }

  const RunFolder folder = create_run_folder(options.out, start, git.short_commit());
  run.info.run_id = folder.run_id;
  run.info.run_folder = folder.path;
  run.info.binary = binary;
  run.info.started_at = utc_iso8601(start);
  run.info.tiers = options.tiers.empty() ? std::vector<std::string>{"fast", "medium", "full"}
                                         : options.tiers;
  run.info.filter = options.filter;
  run.info.seed = plan.seed;
  run.info.threads = plan.threads;

  write_file_atomically(folder.path + "/environment.json", run.info.environment.dump(2) + "\n");
  write_file_atomically(folder.path + "/config.json", config_document(plan, options).dump(2) + "\n");

  const bool color = options.color == "always" || (options.color == "auto" && terminal_wants_color(stdout));
  ConsoleReporter console(stdout, color, ::isatty(::fileno(stdout)) != 0);
  console.show_ablations_from(folder.path + "/seeds.jsonl");
  JunitReporter junit(folder.path + "/junit.xml");
  JunitReporter junit_copy(options.junit);
  ResultsJsonWriter results(folder.path + "/results.json");
  CurveCsvWriter curves(folder.path);
  SeedLedgerWriter seed_ledger(folder.path + "/seeds.jsonl");
  std::vector<RunObserver*> observers = {&console, &junit, &results, &curves, &seed_ledger};
  if (!options.junit.empty()) observers.push_back(&junit_copy);

  RunCollector collector(plan, run, observers);
  if (baselines) collector.compare_with(&*baselines, profile, options.strict_env);
  collector.start_run();
  if (!collector.output_errors().empty()) {
    // Nothing has run yet: better to stop than to run tests whose results cannot be kept.
    throw OutputError(collector.output_errors().front());
  }
  run_tests_in_child_processes(plan, hooks, collector);

  collector.apply_statistical_gate(options.alpha);
  run.info.finished_at = utc_now_iso8601();
  run.info.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  run.exit_code = static_cast<int>(decide_exit_code(run, collector.output_errors()));
  collector.finish_run();
  std::vector<std::string> output_errors = collector.output_errors();
  try {
    finish_run_folder(folder, ledger_entry(run));
  } catch (const OutputError& error) {
    output_errors.push_back(error.what());
  }
  for (const std::string& error : output_errors) {
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.c_str());
  }
  const ExitCode code = decide_exit_code(run, output_errors);
  if (!options.junit.empty()) std::printf("JUnit XML: %s\n", options.junit.c_str());
  return code;
}

}  // namespace mlregress::internal
