#include "commands/run_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <thread>

#include "baselines/baseline_store.h"
#include "baselines/rolling_baseline.h"
#include "commands/notes_command.h"
#include "commands/report_command.h"
#include "commands/run_outputs.h"
#include "comparison/baseline_gate.h"
#include "environment/ctest_resources.h"
#include "environment/environment_probe.h"
#include "environment/environment_profile.h"
#include "execution/run_collector.h"
#include "execution/shard.h"
#include "execution/supervisor.h"
#include "registry/param_overrides.h"
#include "registry/test_selection.h"
#include "storage/experiment_notes.h"
#include "storage/json_text.h"
#include "storage/run_folder.h"
#include "storage/run_ledger.h"
#include "support/atomic_file.h"
#include "support/clock.h"
#include "support/errors.h"
#include "support/stop_signal.h"

namespace mlregress::internal {
namespace {

// rerun --seed: a seeded test runs those seeds only (every variant of each).
void restrict_to_seeds(RunPlan& plan, const std::vector<std::uint64_t>& seeds) {
  for (PlannedTest& planned : plan.tests) {
    std::erase_if(planned.units, [&](const SeedUnit& unit) {
      return std::find(seeds.begin(), seeds.end(), unit.seed) == seeds.end();
    });
  }
}

// A shard holds some of the seeds of a seeded test: its metrics' verdicts wait for merge.
void leave_multi_seed_gate_to_merge(RunResult& run) {
  for (TestResult& test : run.tests) {
    for (MetricComparison& c : test.comparisons) {
      c.looks.clear();  // looks at a shard's part of the seeds mean nothing; merge looks again
      if ((!c.distribution && !c.flips) || c.decision) continue;
      c.note = fmt::format("decided at merge, over every shard's seeds (this shard ran {})",
                           test.seed_runs.size());
    }
  }
}

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
  const RunPlan full_plan = make_run_plan(selected, overrides, options.sets, run_settings(options));
  if (options.no_shard && !options.shard.empty()) {
    throw ConfigError("--shard and --no-shard contradict each other; give one");
  }
  const std::optional<ShardSpec> shard =
      options.no_shard ? std::nullopt
                       : resolve_shard(options.shard, options.shard_count, process_environment);
  // GoogleTest would shard the test processes by these too; the plan has been sharded already.
  for (const char* name : {"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"}) ::unsetenv(name);
  RunPlan plan = shard
                     ? shard_plan(full_plan, *shard,
                                  options.shard_weights.empty()
                                      ? std::map<std::string, double>{}
                                      : unit_weights_from(options.shard_weights + "/results.json"))
                     : full_plan;
  if (!options.only_seeds.empty()) restrict_to_seeds(plan, options.only_seeds);

  // The experiment's notes: a bad notes file stops the run before anything is written.
  ExperimentNotes notes;
  if (!options.notes_file.empty()) notes = read_notes_file(options.notes_file);
  if (!options.hypothesis.empty()) notes.hypothesis = options.hypothesis;
  if (!options.change.empty()) notes.change = options.change;
  if (!options.criteria.empty()) notes.criteria = options.criteria;

  const auto start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const GitInfo git = probe_git(run_repository(options.repo, registry.source_files()));
  RunResult run;
  nlohmann::json run_facts = {{"started_at", utc_iso8601(start)},
                              {"seed", plan.settings.seed},
                              {"intra_op_threads", plan.settings.threads}};
  // Under ctest with a resource spec: the GPUs ctest gave this test become the only ones its
  // processes see (unless the user chose devices already).
  if (const std::vector<std::string> gpus = ctest_gpu_ids(process_environment); !gpus.empty()) {
    if (!process_environment("CUDA_VISIBLE_DEVICES")) {
      ::setenv("CUDA_VISIBLE_DEVICES", fmt::format("{}", fmt::join(gpus, ",")).c_str(), 1);
    }
    run_facts["ctest_gpus"] = gpus;
  }
  if (const auto visible = process_environment("CUDA_VISIBLE_DEVICES")) {
    run_facts["cuda_visible_devices"] = *visible;
  }
  run.info.environment = probe_environment(git, hooks, run_facts);
  const EnvironmentProfile profile = environment_profile(run.info.environment);
  // Loaded before the run folder exists: a bad baseline file stops the run with nothing written.
  std::optional<BaselineSet> baselines;
  std::optional<BaselineGate> gate;
  std::optional<RollingBaseline> rolling;
  if (!options.baselines.empty()) {
    baselines = BaselineSet::load(options.baselines, binary, /*allow_missing=*/false);
  } else if (!options.baseline_history.empty()) {
    if (shard) {
      throw ConfigError(
          "--baseline-history cannot be used in a shard: merge judges a sharded run, and it "
          "reads promoted baselines only");
    }
    rolling = rolling_baseline(options.baseline_history, options.window, binary, profile);
    std::string left_out;
    for (const auto& [reason, count] : rolling->left_out)
      left_out += fmt::format("{}{} {}", left_out.empty() ? "; left out: " : ", ", count, reason);
    std::printf("rolling baseline: %zu run%s under %s on profile %s (window %zu%s)%s\n",
                rolling->runs.size(), rolling->runs.size() == 1 ? "" : "s",
                options.baseline_history.c_str(), profile.id.c_str(), options.window,
                left_out.c_str(), rolling->runs.empty() ? ": every metric is NEW" : "");
    baselines = rolling->set;
  }
  if (baselines) gate.emplace(*baselines, profile, options.strict_env, options.alpha);
  // A shard holds some seeds of a sequential test, so it cannot know when the gate is decided:
  // it runs its part of every seed, and merge looks at them block by block. Without baselines
  // every seed runs anyway, so the blocks need not wait for each other.
  plan.settings.stop_early =
      !options.all_seeds && !shard && options.only_seeds.empty() && gate.has_value();

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
  if (rolling) {
    run.info.baseline_history = options.baseline_history;
    run.info.baseline_runs = rolling->runs;
  }
  run.info.environment_profile = profile.id;
  // config.json is the whole plan, also in a shard: merge learns from it what every shard ran.
  nlohmann::json config = full_plan;
  if (shard) {
    run.info.shard = ShardInfo{shard->index, shard->count, plan_hash(full_plan), shard->source};
    config["shard"] = {{"index", shard->index},
                       {"count", shard->count},
                       {"plan_hash", run.info.shard->plan_hash},
                       {"units", work_units(plan).size()},
                       {"plan_units", work_units(full_plan).size()}};
    // GoogleTest's protocol: the file says that this binary knows sharding.
    if (!shard->status_file.empty()) write_file_atomically(shard->status_file, "");
    std::printf("shard %zu/%zu (%s): %zu of %zu units; the multi-seed gate is decided at merge\n",
                shard->index, shard->count, shard->source.c_str(), work_units(plan).size(),
                work_units(full_plan).size());
  }
  write_file_atomically(folder.path + "/environment.json",
                        json_text(run.info.environment, 2) + "\n");
  write_file_atomically(folder.path + "/config.json", json_text(config, 2) + "\n");
  run.info.hypothesis = notes.hypothesis;
  const auto write_notes = [&] {
    if (notes.empty()) return;
    notes.result = experiment_result(run);
    write_file_atomically(folder.path + "/notes.md", render_notes(notes, run.info.run_id));
  };

  RunOutputs outputs(options, folder);
  if (shard) outputs.seed_ledger.leave_looks_out();
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
      write_notes();
    } catch (const OutputError&) {
      // the run ends anyway
    }
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

  if (shard) {
    leave_multi_seed_gate_to_merge(run);
  } else {
    decide_multi_seed_gate(run, options.alpha);
  }
  run.info.finished_at = utc_now_iso8601();
  run.info.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  run.exit_code = static_cast<int>(run_exit_code(run, collector.output_errors()));
  collector.finish_run();
  std::vector<std::string> output_errors = collector.output_errors();
  try {
    write_notes();
  } catch (const OutputError& error) {
    output_errors.push_back(error.what());
  }
  finish_run_folder_with_report(folder, RunRecord{folder.path, run, profile},
                                baselines ? &*baselines : nullptr, output_errors);
  for (const std::string& error : output_errors) {
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.c_str());
  }
  if (!options.junit.empty()) std::printf("JUnit XML: %s\n", options.junit.c_str());
  return run_exit_code(run, output_errors);
}

}  // namespace mlregress::internal
