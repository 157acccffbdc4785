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
#include <set>
#include <thread>

#include "baselines/baseline_store.h"
#include "baselines/rolling_baseline.h"
#include "commands/fair_comparison.h"
#include "commands/run_outputs.h"
#include "comparison/baseline_gate.h"
#include "comparison/run_criteria.h"
#include "environment/ctest_resources.h"
#include "environment/environment_probe.h"
#include "environment/environment_profile.h"
#include "execution/run_collector.h"
#include "execution/shard.h"
#include "execution/supervisor.h"
#include "record/json_text.h"
#include "registry/param_overrides.h"
#include "registry/test_selection.h"
#include "renderers/experiment_result.h"
#include "renderers/run_page.h"
#include "storage/capability_history.h"
#include "storage/experiment_notes.h"
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

// run --screening: each seeded test runs the first seed of each variant (its configurations),
// a ranking no statistics can rest on; the run says so and promote refuses it.
void keep_one_seed_per_configuration(RunPlan& plan, const RunOptions& options) {
  if (options.all_seeds || !options.only_seeds.empty()) {
    throw ConfigError(
        "--screening runs one seed per configuration; it cannot also run "
        "--all-seeds or chosen seeds");
  }
  for (PlannedTest& planned : plan.tests) {
    if (planned.attempts) continue;  // a flaky-aware test's attempts are not configurations
    std::set<std::size_t> kept;
    std::erase_if(planned.units,
                  [&](const SeedUnit& unit) { return !kept.insert(unit.variant_index).second; });
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
  RunSettings settings{options.seed, options.threads, options.jobs > 0 ? options.jobs : cores,
                       options.seed_timeout_s, options.timeout_s};
  settings.quarantine = options.quarantine;
  // The CLI checked the name; a RunOptions built in code (rerun, ab) may not have.
  const std::optional<DeterminismMode> mode = parse_determinism_mode(options.determinism);
  if (!mode) {
    throw ConfigError(
        fmt::format("--determinism is off, warn or strict, not '{}'", options.determinism));
  }
  settings.determinism = *mode;
  return settings;
}

// What `run` decides before it looks at anything outside the binary: the whole plan, the part
// of it this process runs (a shard's, or some seeds'), and the experiment's notes.
struct PlannedRun {
  RunPlan full_plan;
  RunPlan plan;
  std::optional<ShardSpec> shard;
  ExperimentNotes notes;
};

// What the run is compared with. Loaded before the run folder exists: a bad baseline file stops
// the run with nothing written. Neither member moves once a gate refers to it.
struct RunReference {
  std::optional<BaselineSet> baselines;
  std::optional<RollingBaseline> rolling;
  const BaselineSet* set() const { return baselines ? &*baselines : nullptr; }
};

// Phase 1, plan: the selected tests, their plan and notes; nothing when no test matched.
std::optional<PlannedRun> plan_run(const RunOptions& options, const std::string& binary,
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
    return std::nullopt;
  }
  PlannedRun planned;
  planned.full_plan = make_run_plan(selected, overrides, options.sets, run_settings(options));
  if (options.no_shard && !options.shard.empty()) {
    throw ConfigError("--shard and --no-shard contradict each other; give one");
  }
  planned.shard = options.no_shard
                      ? std::nullopt
                      : resolve_shard(options.shard, options.shard_count, process_environment);
  // GoogleTest would shard the test processes by these too; the plan has been sharded already.
  for (const char* name : {"GTEST_TOTAL_SHARDS", "GTEST_SHARD_INDEX"}) ::unsetenv(name);
  planned.plan = planned.shard
                     ? shard_plan(planned.full_plan, *planned.shard,
                                  options.shard_weights.empty()
                                      ? std::map<std::string, double>{}
                                      : unit_weights_from(options.shard_weights + "/results.json"))
                     : planned.full_plan;
  if (!options.only_seeds.empty()) restrict_to_seeds(planned.plan, options.only_seeds);
  if (options.screening) {
    // Each shard would keep the first of its own seeds: the shards would not add up to one run.
    if (planned.shard) {
      throw ConfigError(
          "--screening runs one seed per configuration and cannot be sharded "
          "(--shard, or a shard index from the environment): run it whole");
    }
    keep_one_seed_per_configuration(planned.plan, options);
    std::printf(
        "screening: one seed per configuration, to rank them; this run is never "
        "promoted: confirm the finalists on fresh seeds in a run of their own\n");
  }
  // The experiment's notes: a bad notes file stops the run before anything is written.
  if (!options.notes_file.empty()) planned.notes = read_notes_file(options.notes_file);
  if (!options.hypothesis.empty()) planned.notes.hypothesis = options.hypothesis;
  if (!options.change.empty()) planned.notes.change = options.change;
  if (!options.criteria.empty()) planned.notes.criteria = options.criteria;
  check_criteria_syntax(planned.notes.criteria);
  return planned;
}

// environment.json's facts: the machine, the framework (through the hooks), git, and the GPUs
// ctest gave this test.
nlohmann::json probe_run_environment(const GitInfo& git, const RunnerHooks& hooks,
                                     const RunSettings& settings,
                                     std::chrono::system_clock::time_point start) {
  nlohmann::json run_facts = {{"started_at", utc_iso8601(start)},
                              {"seed", settings.seed},
                              {"intra_op_threads", settings.threads},
                              {"determinism", determinism_mode_name(settings.determinism)}};
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
  return probe_environment(git, hooks, run_facts);
}

RunReference load_reference(const RunOptions& options, const std::string& binary,
                            const EnvironmentProfile& profile, bool sharded) {
  RunReference reference;
  if (!options.baselines.empty()) {
    reference.baselines = BaselineSet::load(options.baselines, binary, /*allow_missing=*/false);
  } else if (!options.baseline_history.empty()) {
    if (sharded) {
      throw ConfigError(
          "--baseline-history cannot be used in a shard: merge judges a sharded run, and it "
          "reads promoted baselines only");
    }
    const RollingBaseline& rolling = reference.rolling.emplace(
        rolling_baseline(options.baseline_history, options.window, binary, profile));
    std::string left_out;
    for (const auto& [reason, count] : rolling.left_out)
      left_out += fmt::format("{}{} {}", left_out.empty() ? "; left out: " : ", ", count, reason);
    std::printf("rolling baseline: %zu run%s under %s on profile %s (window %zu%s)%s\n",
                rolling.runs.size(), rolling.runs.size() == 1 ? "" : "s",
                options.baseline_history.c_str(), profile.id.c_str(), options.window,
                left_out.c_str(), rolling.runs.empty() ? ": every metric is NEW" : "");
    reference.baselines = rolling.set;
  }
  return reference;
}

// The run folder with what is known before the first test: run.info, environment.json and
// config.json (the whole plan, also in a shard: merge learns from it what every shard ran).
RunFolder open_run_folder(const RunOptions& options, const std::string& binary,
                          const PlannedRun& planned, const RunReference& reference,
                          const std::string& commit, std::chrono::system_clock::time_point start,
                          RunResult& run) {
  const RunFolder folder = create_run_folder(options.out, start, commit);
  RunInfo& info = run.info;
  info.run_id = folder.run_id;
  info.run_folder = folder.path;
  info.binary = binary;
  info.started_at = utc_iso8601(start);
  info.tiers =
      options.tiers.empty() ? std::vector<std::string>{"fast", "medium", "full"} : options.tiers;
  info.filter = options.filter;
  info.seed = planned.plan.settings.seed;
  info.threads = planned.plan.settings.threads;
  info.determinism = std::string(determinism_mode_name(planned.plan.settings.determinism));
  info.baselines = options.baselines;
  if (reference.rolling) {
    info.baseline_history = options.baseline_history;
    info.baseline_runs = reference.rolling->runs;
  }
  info.hypothesis = planned.notes.hypothesis;
  info.change = planned.notes.change;
  nlohmann::json config = planned.full_plan;
  if (const std::optional<ShardSpec>& shard = planned.shard) {
    info.shard = ShardInfo{shard->index, shard->count, plan_hash(planned.full_plan), shard->source};
    config["shard"] = {{"index", shard->index},
                       {"count", shard->count},
                       {"plan_hash", info.shard->plan_hash},
                       {"units", work_units(planned.plan).size()},
                       {"plan_units", work_units(planned.full_plan).size()}};
    // GoogleTest's protocol: the file says that this binary knows sharding.
    if (!shard->status_file.empty()) write_file_atomically(shard->status_file, "");
    std::printf("shard %zu/%zu (%s): %zu of %zu units; the multi-seed gate is decided at merge\n",
                shard->index, shard->count, shard->source.c_str(), work_units(planned.plan).size(),
                work_units(planned.full_plan).size());
  }
  write_file_atomically(folder.path + "/environment.json", json_text(info.environment, 2) + "\n");
  write_file_atomically(folder.path + "/config.json", json_text(config, 2) + "\n");
  return folder;
}

void write_notes(ExperimentNotes notes, const RunResult& run, const RunFolder& folder) {
  if (notes.empty()) return;
  notes.result = experiment_result(run);
  write_file_atomically(folder.path + "/notes.md", render_notes(notes, run.info.run_id));
}

// A stopped run keeps what finished: its notes, the page of what finished (headed INCOMPLETE)
// and its ledger line; without finished_at the folder reads as incomplete. Nothing here may
// hide the stop, so what cannot be written is let go.
void keep_what_finished(const RunRecord& record, const RunReference& reference,
                        const ExperimentNotes& notes, const RunFolder& folder) {
  try {
    write_notes(notes, record.run, folder);
  } catch (const OutputError&) {
  }
  try {
    write_run_report_html(record, reference.set(), folder.path + "/report.html");
  } catch (const std::exception&) {
  }
  try {
    finish_run_folder(folder, ledger_entry(record.run));
  } catch (const OutputError&) {
  }
}

// Phase 2, execute: the tests in child processes, their events through the collector (which
// compares each finished test with `gate`) to the observers.
void execute_run(const PlannedRun& planned, const RunnerHooks& hooks, RunCollector& collector,
                 const RunFolder& folder) {
  collector.start_run();
  if (!collector.output_errors().empty()) {
    // Nothing has run yet: better to stop than to run tests whose results cannot be kept. The
    // folder would look like a run that holds nothing, so it goes too.
    std::error_code ignored;
    std::filesystem::remove_all(folder.path, ignored);
    throw OutputError(collector.output_errors().front());
  }
  install_stop_handlers();
  run_tests_in_child_processes(planned.plan, hooks, collector);
}

// Phase 3, gate: the verdicts that need every test's results (Holm across the run); a shard's
// wait for merge.
void gate_run(RunResult& run, const BaselineGate* gate, bool sharded) {
  if (sharded) {
    leave_multi_seed_gate_to_merge(run);
  } else if (gate != nullptr) {
    gate->decide_run(run);
  }
}

// The success rate of each capability over the runs folder's history, this run included. The
// history informs, it never decides: a folder that cannot be read leaves the rate out.
void attach_capability_history(RunResult& run, const std::string& runs_folder) {
  const bool has_target = std::any_of(run.tests.begin(), run.tests.end(), [](const TestResult& t) {
    return std::any_of(t.metrics.begin(), t.metrics.end(),
                       [](const MetricRecord& m) { return m.target.has_value(); });
  });
  if (!has_target) return;
  try {
    attach_capability_rates(run, read_capability_history(runs_folder, run.info.binary));
  } catch (const Error& error) {
    std::fprintf(stderr, "%s: warning: capability history unavailable: %s\n",
                 run.info.binary.c_str(), error.what());
  }
}

// Phase 4, write: the run's end time and exit code, the observers' last files, notes.md. Returns
// what could not be written.
std::vector<std::string> write_run(RunResult& run, RunCollector& collector,
                                   const ExperimentNotes& notes, const RunFolder& folder,
                                   std::chrono::steady_clock::time_point steady_start) {
  run.info.finished_at = utc_now_iso8601();
  run.info.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  run.exit_code = static_cast<int>(run_exit_code(run, collector.output_errors()));
  collector.finish_run();
  std::vector<std::string> output_errors = collector.output_errors();
  try {
    write_notes(notes, run, folder);
  } catch (const OutputError& error) {
    output_errors.push_back(error.what());
  }
  return output_errors;
}

// Phase 5, report: report.html, the ledger line and `latest`, then what went wrong and where the
// JUnit copy is.
ExitCode report_run(const RunRecord& record, const RunReference& reference, const RunFolder& folder,
                    const RunOptions& options, const std::string& binary,
                    std::vector<std::string> output_errors) {
  finish_run_folder_with_report(folder, record, reference.set(), output_errors);
  for (const std::string& error : output_errors) {
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.c_str());
  }
  if (!options.junit.empty()) std::printf("JUnit XML: %s\n", options.junit.c_str());
  return run_exit_code(record.run, output_errors);
}

// What a whole run says beyond its verdicts, none of it changing the exit code: the success
// criteria (the experiment's hypothesis), how often each held-out set has been evaluated, each
// capability's success rate over the runs folder. A shard holds part of the run: merge checks
// the criteria on the whole; held-out sets and capabilities are not counted for it.
void read_the_experiment(RunResult& run, const ExperimentNotes& notes, const std::string& out) {
  run.criteria = check_criteria(notes.criteria, run);
  count_held_out_evaluations(run, out);
  attach_capability_history(run, out);
}

}  // namespace

ExitCode run_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                     const std::string& gtest_filter) {
  std::optional<PlannedRun> planned = plan_run(options, binary, gtest_filter);
  if (!planned) return ExitCode::kNoTestsMatched;
  const bool sharded = planned->shard.has_value();
  warn_unequal_budgets(planned->plan);

  const auto start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const std::vector<std::string> sources = TestRegistry::instance().source_files();
  const GitInfo git =
      probe_git(run_repository(options.repo, sources), sources_folder(sources), options.out);
  RunResult run;
  run.info.environment = probe_run_environment(git, hooks, planned->plan.settings, start);
  const EnvironmentProfile profile = environment_profile(run.info.environment);
  run.info.environment_profile = profile.id;
  run.info.strict_env = options.strict_env;
  run.info.screening = options.screening;
  const RunReference reference = load_reference(options, binary, profile, sharded);
  std::optional<BaselineGate> gate;
  if (reference.baselines) {
    gate.emplace(*reference.baselines, profile, options.alpha);
    std::map<std::string, std::string> tests;
    for (const PlannedTest& test : planned->plan.tests) tests[test.test->name] = test.config_hash;
    gate->plan_family(tests);
  }
  // A shard's outcomes are every N-th of the plan, not its first ones: no look at them holds.
  if (gate && sharded) gate->decide_rates_at_merge();

  // A shard holds some seeds of a sequential test, so it cannot know when the gate is decided:
  // it runs its part of every seed, and merge looks at them block by block. Without baselines
  // every seed runs anyway, so the blocks need not wait for each other.
  planned->plan.settings.stop_early =
      !options.all_seeds && !sharded && options.only_seeds.empty() && gate.has_value();
  const RunFolder folder =
      open_run_folder(options, binary, *planned, reference, git.short_commit(), start, run);

  RunOutputs outputs(OutputSettings{.color = options.color,
                                    .junit = options.junit,
                                    .ctest_measurements = options.ctest_measurements},
                     folder);
  if (sharded) outputs.seed_ledger.leave_looks_out();
  RunCollector collector(planned->plan, run, outputs.observers);
  if (gate) collector.compare_with(&*gate);
  try {
    execute_run(*planned, hooks, collector, folder);
  } catch (const RunInterrupted& stopped) {
    run.exit_code = static_cast<int>(stopped.exit_code());
    keep_what_finished(RunRecord{folder.path, run, profile}, reference, planned->notes, folder);
    throw;
  }
  gate_run(run, gate ? &*gate : nullptr, sharded);
  if (!sharded) read_the_experiment(run, planned->notes, options.out);
  std::vector<std::string> output_errors =
      write_run(run, collector, planned->notes, folder, steady_start);
  if (!run.criteria.empty()) std::fputs(criteria_result(run.criteria).c_str(), stdout);
  return report_run(RunRecord{folder.path, run, profile}, reference, folder, options, binary,
                    std::move(output_errors));
}

}  // namespace mlregress::internal
