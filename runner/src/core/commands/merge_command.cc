#include "commands/merge_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>

#include "baselines/baseline_store.h"
#include "commands/run_outputs.h"
#include "comparison/baseline_gate.h"
#include "comparison/run_criteria.h"
#include "environment/git_info.h"
#include "execution/seed_runs.h"
#include "record/json_text.h"
#include "renderers/experiment_result.h"
#include "renderers/run_page.h"
#include "storage/experiment_notes.h"
#include "storage/run_config.h"
#include "storage/run_folder.h"
#include "storage/run_ledger.h"
#include "storage/run_record.h"
#include "support/atomic_file.h"
#include "support/clock.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

struct Shard {
  RunRecord record;
  RunConfig config;  ///< config.json: the whole plan
  ShardInfo info;
};

// One test of the whole plan, from a shard's config.json.
struct PlannedEntry {
  std::string full_name;
  std::string name;
  std::optional<Tier> tier;
  std::vector<std::string> variants;  ///< seeded tests
  std::vector<std::uint64_t> seeds;   ///< seeded tests
  int seed_block = 0;                 ///< sequential tests
  stats::SpendingFunction pass_spending = stats::SpendingFunction::kOBrienFleming;
  double pass_error = kDefaultPassError;  ///< sequential tests: pass_error()
  int seed_next_block = 0;                ///< sequential tests: then_blocks_of() (0: seed_block)
  bool anytime = false;                   ///< sequential tests: until_decided()
  bool likelihood_ratio = false;          ///< sequential tests: likelihood_ratio()
  double pass_rise = 0.0;                 ///< likelihood-ratio tests: pass_rise() (0: none)
  int pass_rise_from = 0;
  bool constant_pass = false;             ///< likelihood-ratio tests: constant_pass()
  std::optional<double> attempts_detect;  ///< flaky-aware tests
  bool quarantined = false;
  bool seeded() const { return !seeds.empty(); }
};

Shard read_shard(const std::string& path) {
  Shard shard;
  shard.record = read_run_record(path);
  if (!shard.record.run.info.shard) {
    throw RunFolderError(fmt::format(
        "{}: not a shard's run folder (it was run without --shard); merge joins the folders of "
        "`run --shard I/N`",
        path));
  }
  shard.info = *shard.record.run.info.shard;
  shard.config = read_run_config(path);
  return shard;
}

std::vector<PlannedEntry> plan_entries(const Shard& shard) {
  std::vector<PlannedEntry> entries;
  for (const std::string& full_name : shard.config.order) {
    PlannedEntry entry;
    entry.full_name = full_name;
    entry.name = full_name.substr(full_name.find('.') + 1);
    const RunConfigTest* planned = shard.config.find(entry.name);
    if (planned == nullptr) {
      throw RunFolderError(fmt::format("{}/config.json: tests.{}: missing (it is in \"order\")",
                                       shard.record.path, entry.name));
    }
    entry.tier = planned->tier;
    entry.seeds = planned->seeds;
    entry.seed_block = planned->seed_block;
    entry.pass_spending = planned->pass_spending;
    entry.pass_error = planned->pass_error;
    entry.seed_next_block = planned->seed_next_block;
    entry.anytime = planned->anytime;
    entry.likelihood_ratio = planned->likelihood_ratio;
    entry.pass_rise = planned->pass_rise;
    entry.pass_rise_from = planned->pass_rise_from;
    entry.constant_pass = planned->constant_pass;
    entry.variants = planned->variants;
    entry.attempts_detect = planned->attempts_detect;
    entry.quarantined = planned->quarantined;
    entries.push_back(std::move(entry));
  }
  return entries;
}

std::string commit_of(const RunRecord& record) {
  const GitInfo git = recorded_git(record.run.info.environment);
  return git.commit + (git.dirty ? " (dirty)" : "");
}

// Shards of one plan, one commit and one environment profile belong together.
void check_together(const std::vector<Shard>& shards, bool force) {
  std::vector<std::string> problems;
  const Shard& first = shards.front();
  for (const Shard& other : shards) {
    const auto differs = [&](const char* what, const std::string& a, const std::string& b) {
      if (a != b) {
        problems.push_back(fmt::format("{}: {} {} (in {}), not {} (in {})", what, what, b,
                                       other.record.path, a, first.record.path));
      }
    };
    differs("shard count", std::to_string(first.info.count), std::to_string(other.info.count));
    differs("plan", first.info.plan_hash, other.info.plan_hash);
    differs("commit", commit_of(first.record), commit_of(other.record));
    differs("environment profile", first.record.profile.id, other.record.profile.id);
    differs("numerics profile", first.record.profile.numerics_id, other.record.profile.numerics_id);
    differs("binary", first.record.run.info.binary, other.record.run.info.binary);
    const auto phase = [](const Shard& shard) {
      return std::string(shard.record.run.info.screening ? "screening" : "decision");
    };
    differs("phase", phase(first), phase(other));
  }
  if (problems.empty()) return;
  const std::string list = fmt::format("{}", fmt::join(problems, "\n  "));
  if (!force) {
    throw MergeRefused(fmt::format(
        "merge: these shards do not belong to one run:\n  {}\nmerge --force joins them anyway",
        list));
  }
  std::printf("merge --force: joining shards that differ:\n  %s\n", list.c_str());
}

// "Seeds(8).up_to(40).pass_early()", "Seeds(12).then_blocks_of(8).until_decided(200)": a
// sequential test's design as its declaration reads.
std::string sequential_design(const RunConfigTest& test) {
  if (test.seed_block <= 0) return fmt::format("Seeds({})", test.seeds.size());
  const std::string next =
      test.seed_next_block > 0 ? fmt::format(".then_blocks_of({})", test.seed_next_block) : "";
  if (test.anytime) {
    return fmt::format("Seeds({}){}.until_decided({})", test.seed_block, next, test.seeds.size());
  }
  return fmt::format(
      "Seeds({}){}.up_to({}){}{}{}{}{}", test.seed_block, next, test.seeds.size(),
      test.pass_spending == stats::SpendingFunction::kPocock ? ".pass_early()" : "",
      test.likelihood_ratio ? ".likelihood_ratio()" : "",
      test.pass_error != kDefaultPassError ? fmt::format(".pass_error({:g})", test.pass_error) : "",
      test.pass_rise > 0.0
          ? fmt::format(".pass_rise({:g}, {})", test.pass_rise, test.pass_rise_from)
          : "",
      test.constant_pass ? ".constant_pass()" : "");
}

// A sequential test's looks are judged under one design: its block, cap and PASS spending decide
// at which look the merged run settles a metric. Shards that planned it differently (joined with
// --force) leave no design the merge could honestly judge by, so this is refused even then.
void check_sequential_designs(const std::vector<Shard>& shards) {
  const Shard& first = shards.front();
  for (const auto& [name, planned] : first.config.tests) {
    if (!planned.seeded()) continue;
    for (const Shard& other : shards) {
      const RunConfigTest* theirs = other.config.find(name);
      if (theirs == nullptr || !theirs->seeded()) continue;
      if (planned.seed_block <= 0 && theirs->seed_block <= 0) continue;  // no looks to judge
      const std::string a = sequential_design(planned), b = sequential_design(*theirs);
      if (a != b) {
        throw MergeRefused(fmt::format(
            "merge: seeded test {} is planned as {} in {} and as {} in {}; its looks cannot be "
            "judged under two designs (not even with --force): rerun the shards from one build",
            name, a, first.record.path, b, other.record.path));
      }
    }
  }
}

bool same_value(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool same_metrics(const std::vector<MetricRecord>& a, const std::vector<MetricRecord>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || !same_value(a[i].value, b[i].value)) return false;
  }
  return true;
}

// A unit given twice (the same shard folder twice, or overlapping shards under --force) is kept
// once when both agree; two different outcomes of one unit cannot both be the run's.
void refuse_conflict(bool same, const std::string& unit, const std::string& a,
                     const std::string& b) {
  if (!same) {
    throw MergeRefused(
        fmt::format("merge: {} is in {} and in {} with different results; one run cannot have both",
                    unit, a, b));
  }
}

std::size_t variant_index_of(const std::string& metric, const PlannedEntry& entry) {
  const std::size_t open = metric.rfind('[');
  if (open == std::string::npos || metric.back() != ']') return 0;
  const std::string variant = metric.substr(open + 1, metric.size() - open - 2);
  const auto it = std::find(entry.variants.begin(), entry.variants.end(), variant);
  return it == entry.variants.end() ? entry.variants.size()
                                    : static_cast<std::size_t>(it - entry.variants.begin());
}

TestResult merge_plain_test(const PlannedEntry& entry, const std::vector<Shard>& shards,
                            const std::string& missing_note) {
  const TestResult* found = nullptr;
  std::string found_in;
  for (const Shard& shard : shards) {
    for (const TestResult& test : shard.record.run.tests) {
      if (test.full_name != entry.full_name) continue;
      if (found == nullptr) {
        found = &test;
        found_in = shard.record.path;
        continue;
      }
      refuse_conflict(found->status == test.status && same_metrics(found->metrics, test.metrics),
                      entry.full_name, found_in, shard.record.path);
    }
  }
  if (found != nullptr) return *found;
  TestResult missing;
  missing.name = entry.name;
  missing.full_name = entry.full_name;
  missing.tier = entry.tier.value_or(Tier::Full);
  missing.status = TestStatus::kCrashed;
  missing.crash_message = "not run: no shard given holds it" + missing_note;
  missing.finished = true;
  return missing;
}

// A seed no shard ran is like a seed that crashed: kept out of the samples, and the test fails.
void add_missing_seeds(TestResult& test, const PlannedEntry& entry,
                       const std::map<std::pair<std::size_t, std::uint64_t>, std::string>& seen,
                       const std::string& missing_note) {
  for (std::size_t v = 0; v < entry.variants.size(); ++v) {
    for (std::uint64_t seed : entry.seeds) {
      if (seen.count({v, seed}) != 0) continue;
      SeedRun missing;
      missing.variant = entry.variants[v];
      missing.variant_index = v;
      missing.seed = seed;
      missing.status = TestStatus::kCrashed;
      missing.crash_message =
          std::string(kMissingUnitPrefix) + "no shard given ran it" + missing_note;
      insert_in_plan_order(test.seed_runs, std::move(missing));
    }
  }
}

// The plan's seed settings of a merged test. The shards ran every seed up to the cap; the gate
// looks at them block by block, as an unsharded run would have, and decides at the same look.
void apply_seed_plan(TestResult& test, const PlannedEntry& entry) {
  test.seed_runs_planned = entry.variants.size() * entry.seeds.size();
  test.seed_block = entry.seed_block;
  test.seed_cap = static_cast<int>(entry.seeds.size());
  test.seed_pass_spending = entry.pass_spending;
  test.seed_pass_error = entry.pass_error;
  test.seed_next_block = entry.seed_next_block;
  test.seed_anytime = entry.anytime;
  test.seed_likelihood_ratio = entry.likelihood_ratio;
  test.seed_pass_rise = entry.pass_rise;
  test.seed_pass_rise_from = entry.pass_rise_from;
  test.seed_constant_pass = entry.constant_pass;
  if (entry.attempts_detect) test.attempts = FailureRate{*entry.attempts_detect};
  test.quarantined = entry.quarantined;
}

// Metric headers by name, each with its (variant, position within the variant), in the order one
// machine records them: variants in order, each variant's metrics in its seeds' order.
using MetricsByName =
    std::map<std::string, std::pair<std::pair<std::size_t, std::size_t>, MetricRecord>>;

std::vector<MetricRecord> metrics_in_recording_order(MetricsByName metrics) {
  std::vector<std::pair<std::pair<std::size_t, std::size_t>, MetricRecord>> ordered;
  ordered.reserve(metrics.size());
  for (auto& [name, entry_and_metric] : metrics) ordered.push_back(std::move(entry_and_metric));
  std::stable_sort(ordered.begin(), ordered.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<MetricRecord> out;
  for (auto& [key, metric] : ordered) out.push_back(std::move(metric));
  return out;
}

// A seeded test's parts as the shards give them, gathered into one test.
struct SeededMerge {
  TestResult test;
  bool have_header = false;
  std::map<std::pair<std::size_t, std::uint64_t>, std::string> seen;  // unit -> shard folder
  // The metrics in the order one machine records them (the same in every shard).
  MetricsByName metrics;
  double duration_s = 0.0;
  std::optional<std::pair<std::size_t, std::uint64_t>> first_unit;
};

// The data fingerprints and properties of the first seed in plan order, as one machine keeps
// them: the shard that ran that seed recorded them. The declared constraints of every shard.
void keep_first_seed_datasets(SeededMerge& merged, const TestResult& part) {
  for (const std::string& text : part.constraints)
    add_declared_constraint(merged.test.constraints, text);
  for (const SeedRun& run : part.seed_runs) {
    const auto unit = std::pair{run.variant_index, run.seed};
    if (!merged.first_unit || unit < *merged.first_unit) {
      merged.first_unit = unit;
      merged.test.datasets = part.datasets;
      merged.test.properties = part.properties;
      merged.test.batches = part.batches;  // the shard that ran the first seed recorded them
    }
  }
}

void add_metric_headers(MetricsByName& metrics, const TestResult& part, const PlannedEntry& entry) {
  std::map<std::size_t, std::size_t> position;  // within each variant
  for (const MetricRecord& m : part.metrics) {
    const std::size_t v = variant_index_of(m.name, entry);
    const std::size_t at = position[v]++;
    if (metrics.count(m.name) == 0) {
      MetricRecord header{m.name, 0.0, m.direction, m.policy};
      metrics.emplace(m.name, std::pair{std::pair{v, at}, std::move(header)});
    }
  }
}

void add_seed_runs(SeededMerge& merged, const TestResult& part, const PlannedEntry& entry,
                   const std::string& shard_path) {
  TestResult& test = merged.test;
  for (const SeedRun& run : part.seed_runs) {
    const auto unit = std::pair{run.variant_index, run.seed};
    if (const auto it = merged.seen.find(unit); it != merged.seen.end()) {
      const auto& kept =
          *std::find_if(test.seed_runs.begin(), test.seed_runs.end(), [&](const SeedRun& r) {
            return std::pair{r.variant_index, r.seed} == unit;
          });
      refuse_conflict(kept.status == run.status && same_metrics(kept.metrics, run.metrics),
                      fmt::format("{} ({})", entry.full_name, seed_label(run)), it->second,
                      shard_path);
      continue;
    }
    merged.seen[unit] = shard_path;
    insert_in_plan_order(test.seed_runs, run);
  }
}

// One shard's part of the test: the first part gives the header, every part its time, metric
// headers, seeds and curves.
void add_part(SeededMerge& merged, const TestResult& part, const PlannedEntry& entry,
              const std::string& shard_path) {
  if (!merged.have_header) {
    merged.test = part;
    merged.test.seed_runs.clear();
    merged.test.curves.clear();
    merged.have_header = true;
  }
  merged.duration_s += part.duration_s;
  keep_first_seed_datasets(merged, part);
  add_metric_headers(merged.metrics, part, entry);
  add_seed_runs(merged, part, entry, shard_path);
  merged.test.curves.insert(merged.test.curves.end(), part.curves.begin(), part.curves.end());
}

// The merged test's status, from its seeds alone: what the parts said of themselves is dropped.
void settle_seeded_status(TestResult& test, const std::string& missing_note) {
  test.failures.clear();
  test.crash_message.clear();
  test.skip_message.clear();
  test.comparisons.clear();
  test.status = summarize_seed_runs(test);
  if (test.attempts) {
    // A flaky-aware test's failed attempts are outcomes, but one no shard ran is no outcome at
    // all: the test cannot be judged, as a seeded test with a missing seed.
    const auto missing = std::count_if(test.seed_runs.begin(), test.seed_runs.end(),
                                       [](const SeedRun& r) { return is_missing_unit(r); });
    if (missing > 0) {
      test.status = TestStatus::kCrashed;
      test.crash_message = fmt::format("{} of {} attempts missing: no shard given ran them{}",
                                       missing, test.seed_runs.size(), missing_note);
    }
  }
}

TestResult merge_seeded_test(const PlannedEntry& entry, const std::vector<Shard>& shards,
                             const std::string& missing_note) {
  SeededMerge merged;
  for (const Shard& shard : shards) {
    for (const TestResult& part : shard.record.run.tests) {
      if (part.full_name == entry.full_name) add_part(merged, part, entry, shard.record.path);
    }
  }
  TestResult& test = merged.test;
  if (!merged.have_header) {
    test.name = entry.name;
    test.full_name = entry.full_name;
    test.tier = entry.tier.value_or(Tier::Full);
    test.seeded = true;
    test.seed = entry.seeds.front();
  }
  add_missing_seeds(test, entry, merged.seen, missing_note);
  apply_seed_plan(test, entry);
  test.metrics = metrics_in_recording_order(std::move(merged.metrics));
  settle_seeded_status(test, missing_note);
  test.duration_s = merged.duration_s;
  test.finished = true;
  return std::move(merged.test);
}

void copy_curves(const std::vector<Shard>& shards, const std::string& folder,
                 std::vector<std::string>& errors) {
  for (const Shard& shard : shards) {
    const std::filesystem::path from = shard.record.path + "/curves";
    if (!std::filesystem::is_directory(from)) continue;
    for (const auto& file : std::filesystem::directory_iterator(from)) {
      const std::filesystem::path to = folder + "/curves/" + file.path().filename().string();
      std::error_code error;
      if (std::filesystem::exists(to)) continue;  // the same unit given twice
      std::filesystem::copy_file(file.path(), to, error);
      if (error)
        errors.push_back(fmt::format("{}: cannot copy to {}: {}", file.path().string(), to.string(),
                                     error.message()));
    }
  }
}

// Feeds a finished run to the observers in the order a run would have: every file and the
// console come out as `run` writes them.
void replay(const RunResult& run, const std::vector<RunObserver*>& observers,
            std::vector<std::string>& errors, bool end) {
  const auto notify = [&](auto&& call) {
    for (RunObserver* observer : observers) {
      try {
        call(*observer);
      } catch (const OutputError& error) {
        errors.push_back(error.what());
      }
    }
  };
  if (end) {
    notify([&](RunObserver& o) { o.on_run_end(run); });
    return;
  }
  notify([&](RunObserver& o) { o.on_run_start(run); });
  for (const TestResult& test : run.tests) {
    notify([&](RunObserver& o) { o.on_test_start(test); });
    for (const SeedRun& seed_run : test.seed_runs) {
      notify([&](RunObserver& o) { o.on_seed_end(test, seed_run, run); });
    }
    if (!test.seeded) {
      for (const TestFailure& f : test.failures)
        notify([&](RunObserver& o) { o.on_failure(test, f); });
    }
    for (const MetricRecord& m : test.metrics)
      notify([&](RunObserver& o) { o.on_metric(test, m); });
    for (const RecordedPredictions& p : test.predictions)
      notify([&](RunObserver& o) { o.on_predictions(test, p); });
    for (const RecordedBatch& b : test.batches)
      notify([&](RunObserver& o) { o.on_batch(test, b); });
    notify([&](RunObserver& o) { o.on_test_end(test, run); });
  }
}

// The shards given, in shard order, once they are known to belong to one run.
std::vector<Shard> read_shards(const MergeOptions& options) {
  std::vector<Shard> shards;
  for (const std::string& path : options.shards) shards.push_back(read_shard(path));
  std::stable_sort(shards.begin(), shards.end(),
                   [](const Shard& a, const Shard& b) { return a.info.index < b.info.index; });
  check_together(shards, options.force);
  check_sequential_designs(shards);
  return shards;
}

// "I/N" of each shard of the plan that was not given.
std::vector<std::string> missing_shards(const std::vector<Shard>& shards) {
  const std::size_t count = shards.front().info.count;
  std::set<std::size_t> given;
  for (const Shard& shard : shards) given.insert(shard.info.index);
  std::vector<std::string> missing;
  for (std::size_t i = 0; i < count; ++i) {
    if (given.count(i) == 0) missing.push_back(fmt::format("{}/{}", i, count));
  }
  return missing;
}

// The whole run's record from its shards: the first shard's header, the earliest start, the
// longest time, every runner error, and each planned test merged across the shards.
RunResult merge_run(const std::vector<Shard>& shards, const std::string& missing_note) {
  const RunRecord& first = shards.front().record;
  RunResult run;
  run.info = first.run.info;
  run.info.shard.reset();
  run.info.started_at = first.run.info.started_at;
  for (const Shard& shard : shards) {
    run.info.merged_from.push_back(shard.record.path);
    run.info.started_at = std::min(run.info.started_at, shard.record.run.info.started_at);
    run.info.duration_s = std::max(run.info.duration_s, shard.record.run.info.duration_s);
    // Shards joined with --force across phases: one screening shard makes it a screening run.
    run.info.screening = run.info.screening || shard.record.run.info.screening;
    run.runner_errors.insert(run.runner_errors.end(), shard.record.run.runner_errors.begin(),
                             shard.record.run.runner_errors.end());
  }
  for (const PlannedEntry& entry : plan_entries(shards.front())) {
    run.tests.push_back(entry.seeded() ? merge_seeded_test(entry, shards, missing_note)
                                       : merge_plain_test(entry, shards, missing_note));
  }
  return run;
}

// The verdicts, decided once over the whole run, as `run` decides them. Returns the baselines
// judged against (none without a baselines folder).
std::optional<BaselineSet> judge_merged_run(RunResult& run, const std::vector<Shard>& shards,
                                            const MergeOptions& options) {
  const std::string baselines_dir =
      options.baselines.empty() ? run.info.baselines : options.baselines;
  run.info.baselines = baselines_dir;
  run.info.strict_env =
      options.strict_env || std::any_of(shards.begin(), shards.end(), [](const auto& shard) {
        return shard.record.run.info.strict_env;
      });
  std::optional<BaselineSet> baselines;
  if (!baselines_dir.empty()) {
    baselines = BaselineSet::load(baselines_dir, run.info.binary, /*allow_missing=*/false);
    BaselineGate(*baselines, shards.front().record.profile, options.alpha).judge_run(run);
  } else {
    for (TestResult& test : run.tests) test.comparisons.clear();
  }
  return baselines;
}

// The merged run's folder with what no observer writes: environment.json, config.json (the
// shards' plan, merged_from instead of shard) and the shards' curve files.
RunFolder create_merged_folder(RunResult& run, const std::vector<Shard>& shards,
                               const MergeOptions& options,
                               std::chrono::system_clock::time_point now,
                               std::vector<std::string>& output_errors) {
  const RunRecord& first = shards.front().record;
  const RunFolder folder = create_run_folder(options.out, now, commit_of(first).substr(0, 7));
  run.info.run_id = folder.run_id;
  run.info.run_folder = folder.path;
  write_file_atomically(folder.path + "/environment.json",
                        json_text(first.run.info.environment, 2) + "\n");
  nlohmann::json config = shards.front().config.document;
  config.erase("shard");
  config["merged_from"] = run.info.merged_from;
  write_file_atomically(folder.path + "/config.json", json_text(config, 2) + "\n");
  copy_curves(shards, folder.path, output_errors);
  return folder;
}

}  // namespace

// The experiment's notes, as the shards were run with them (each shard holds the same notes.md).
std::optional<ExperimentNotes> shard_notes(const std::vector<Shard>& shards) {
  const std::string path = shards.front().record.path + "/notes.md";
  if (!std::filesystem::exists(path)) return std::nullopt;
  return read_notes_file(path);
}

// The merged run's notes.md: the shards' notes with a Result of the whole run.
void write_merged_notes(ExperimentNotes notes, const RunResult& run, const RunFolder& folder) {
  notes.result = experiment_result(run);
  write_file_atomically(folder.path + "/notes.md", render_notes(notes, run.info.run_id));
}

ExitCode merge_command(const MergeOptions& options) {
  const std::vector<Shard> shards = read_shards(options);
  const std::size_t count = shards.front().info.count;
  const std::vector<std::string> missing = missing_shards(shards);
  const std::string missing_note =
      missing.empty() ? "" : fmt::format(" (shards not given: {})", fmt::join(missing, ", "));
  std::size_t incomplete = 0;
  for (const Shard& shard : shards) incomplete += shard.record.run.info.finished_at.empty();

  const RunRecord& first = shards.front().record;
  RunResult run = merge_run(shards, missing_note);
  const std::optional<BaselineSet> baselines = judge_merged_run(run, shards, options);

  const auto now = std::chrono::system_clock::now();
  std::vector<std::string> output_errors;
  const RunFolder folder = create_merged_folder(run, shards, options, now, output_errors);

  std::printf("merge: %zu of %zu shards%s%s\n", shards.size(), count,
              missing.empty() ? "" : fmt::format("; missing: {}", fmt::join(missing, ", ")).c_str(),
              incomplete == 0 ? "" : fmt::format("; {} shard(s) incomplete", incomplete).c_str());
  // The curve files are copied from the shards, not written again.
  RunOutputs outputs(
      OutputSettings{.color = options.color, .junit = options.junit, .write_curves = false},
      folder);
  replay(run, outputs.observers, output_errors, /*end=*/false);
  run.info.finished_at = utc_iso8601(now);
  run.exit_code = static_cast<int>(run_exit_code(run, output_errors));
  // Success criteria are about the whole run: no shard checks them, the merged run does.
  const std::optional<ExperimentNotes> notes = shard_notes(shards);
  if (notes && !notes->criteria.empty()) run.criteria = check_criteria(notes->criteria, run);
  replay(run, outputs.observers, output_errors, /*end=*/true);
  finish_run_folder_with_report(folder, RunRecord{folder.path, run, first.profile},
                                baselines ? &*baselines : nullptr, output_errors);
  if (notes) write_merged_notes(*notes, run, folder);
  for (const std::string& error : output_errors)
    std::fprintf(stderr, "merge: error: %s\n", error.c_str());
  if (!options.junit.empty()) std::printf("JUnit XML: %s\n", options.junit.c_str());
  return run_exit_code(run, output_errors);
}

}  // namespace mlregress::internal
