// The record of a run: one TestResult per executed test. RunCollector fills it from the test
// processes' events as they happen and BaselineGate adds the verdicts; reporters only read it.
// results.json is its written form (storage/results_json.h), read back by the commands that
// work on finished runs.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/capability.h"
#include "analysis/prediction_flips.h"
#include "analysis/sequential_seeds.h"
#include "mlregress/batch_view.h"
#include "mlregress/confusion.h"
#include "mlregress/exit_code.h"
#include "mlregress/metric.h"
#include "mlregress/tier.h"
#include "record/checked_criterion.h"
#include "record/held_out.h"
#include "record/metric_comparison.h"
#include "statistics/group_sequential.h"

namespace mlregress::internal {

enum class TestStatus {
  kPassed,
  kFailed,     ///< an assertion failed or the body threw
  kSkipped,    ///< GTEST_SKIP()
  kCrashed,    ///< the test process died (signal, abort, exit) while the test ran
  kRegressed,  ///< the body passed, but a metric is worse than its baseline allows
  kTimedOut,   ///< the test outlived its timeout and was killed with its processes
};

/// Failed, crashed or timed out: the test itself did not pass (a regression is judged apart).
inline bool is_test_failure(TestStatus status) {
  return status == TestStatus::kFailed || status == TestStatus::kCrashed ||
         status == TestStatus::kTimedOut;
}

/// "passed", "failed", "skipped", "crashed", "regressed", "timed_out".
std::string_view test_status_name(TestStatus status);
std::optional<TestStatus> parse_test_status(std::string_view name);

struct TestFailure {
  std::string file;  ///< empty when the failure has no source location
  int line = 0;
  std::string message;
  bool fatal = false;
};

struct RecordedCurve {
  CurveRecord curve;     ///< read back from results.json: the name only (the values are in the CSV)
  std::string csv_file;  ///< relative to the run folder, e.g. "curves/CnnOverfitsOneBatch.loss.csv"
  std::size_t points = 0;
};

/// Predictions recorded by record_predictions(): a file in the run folder.
struct RecordedPredictions {
  std::string name;
  std::string csv_file;  ///< relative to the run folder, "predictions/<test>.<name>.csv"
  std::size_t examples = 0;
  double accuracy = 0.0;
  /// The predictions themselves: set while the run goes, and by read_run_record from the file.
  std::shared_ptr<const Predictions> data;
  /// Their confusion matrix: set while the run goes, and from results.json (without its cells
  /// above kConfusionMatrixMaxClasses classes); absent in a results.json written before it.
  std::optional<ConfusionMatrix> confusion;
};

/// A batch recorded by record_batch(): a file in the run folder, drawn by report.html.
struct RecordedBatch {
  std::string name;
  BatchView::Kind kind = BatchView::Kind::kImages;
  std::string file;  ///< relative to the run folder, "batches/<test>.<name>.json"
  std::size_t examples = 0;
  /// The view itself: set while the run goes, and by read_run_record from the file.
  std::shared_ptr<const BatchView> data;
  /// Why read_run_record could not read the file (the report says so), or empty.
  std::string problem;
};

/// What a recorded fingerprint hashes.
enum class FingerprintKind {
  kDataset,     ///< record_dataset: the data the test measured on
  kDataOrder,   ///< record_data_order: the order examples were served in
  kCheckpoint,  ///< record_checkpoint: the checkpoint file the test loads
};

/// A fingerprint recorded by record_dataset(), record_data_order() or record_checkpoint().
struct RecordedDataset {
  std::string name;
  std::string sha256;  ///< "sha256:<hex>"
  std::uint64_t bytes = 0;
  FingerprintKind kind = FingerprintKind::kDataset;
};

/// One run of a seeded test's body: a variant under one seed, in its own worker process.
struct SeedRun {
  std::string variant;            ///< "" when the test declares no variants
  std::size_t variant_index = 0;  ///< its position in the declared variants
  std::string method;             ///< a random_search() trial: its method ("" otherwise)
  int trial = -1;                 ///< a random_search() trial: its index within the method
  std::uint64_t seed = 0;
  TestStatus status = TestStatus::kPassed;  ///< kCrashed also covers a seed killed for its timeout
  double duration_s = 0.0;
  std::vector<MetricRecord> metrics;
  std::vector<TestFailure> failures;
  std::string skip_message;
  std::string crash_message;
  /// The seed's record_dataset/record_data_order/record_checkpoint fingerprints; the test keeps
  /// those of its first seed in plan order (summarize_seed_runs). Not written to results.json.
  std::vector<RecordedDataset> datasets;
  /// The seed's record_property values, by key; the test keeps its first seed's in plan order,
  /// as for datasets. Not written to results.json.
  std::map<std::string, std::string> properties;
  /// The seed's MlTest::constrain texts; the test keeps every seed's, each once. Not written.
  std::vector<std::string> constraints;
  /// The seed's record_held_out_evaluation calls. Not written to results.json.
  std::vector<HeldOutEvaluation> held_out;
};

struct TestResult {
  std::string name;       ///< "CnnOverfitsOneBatch"
  std::string full_name;  ///< "Fast.CnnOverfitsOneBatch"
  Tier tier = Tier::Fast;
  std::string file;
  int line = 0;
  std::string config_hash;
  /// What the hash covers, as text by name: the resolved parameters, and "seed" and "threads"
  /// where the hash covers them (registry/config_hash.h). Empty in a record written before it.
  std::map<std::string, std::string> config;
  std::uint64_t seed = 0;
  int threads = 1;
  std::string started_at;  ///< UTC, ISO 8601
  TestStatus status = TestStatus::kPassed;
  double duration_s = 0.0;
  std::vector<TestFailure> failures;
  std::string skip_message;
  std::string crash_message;  ///< set when status is kCrashed
  std::vector<MetricRecord> metrics;
  std::vector<RecordedCurve> curves;
  std::vector<RecordedPredictions> predictions;
  /// record_batch: each batch once, the later of two of one name; a seeded test keeps its first
  /// seed's (the first variant's).
  std::vector<RecordedBatch> batches;
  std::vector<RecordedDataset> datasets;
  /// record_property: key -> value, ordered by key; the last value recorded for a key. Not gated.
  std::map<std::string, std::string> properties;
  /// MlTest::constrain: the constraints the test declared on its own metrics, as written, each
  /// once, in the order declared (comparison/constraint.h).
  std::vector<std::string> constraints;
  /// record_held_out_evaluation: each held-out set the test evaluated, and how often (a seeded
  /// test: once per variant, held_out_of_seed_runs).
  std::vector<HeldOutEvaluation> held_out;
  bool finished = false;  ///< false while the test runs
  /// The success rate of each capability (a metric recorded with record_target) over the runs
  /// folder's history, this run included, by metric name: set when the run ends.
  std::map<std::string, CapabilityRate> capability_rates;

  // Seeded tests: every (variant, seed) run in plan order (variant, then seed), and how many were
  // planned. `metrics` then holds one entry per (variant, metric) with the per-seed samples.
  bool seeded = false;
  std::vector<SeedRun> seed_runs;
  std::size_t seed_runs_planned = 0;
  /// Sequential tests (Seeds(b).up_to(cap)): b, the seeds between two looks of the gate; 0 for
  /// the others. seed_runs_planned then counts every seed up to the cap.
  int seed_block = 0;
  int seed_cap = 0;  ///< sequential tests: the most seeds a run may take
  /// Sequential tests: how the PASS error is spent over the looks (Pocock-type under
  /// Seeds(b).up_to(cap).pass_early(), else O'Brien–Fleming-type). The gate, merge and the
  /// simulated power all judge by it.
  stats::SpendingFunction seed_pass_spending = stats::SpendingFunction::kOBrienFleming;
  /// Sequential tests: the one-sided error of a PASS (Seeds(b).up_to(cap).pass_error(e); 0.025
  /// unless declared). The gate, merge and the simulated power all judge by it.
  double seed_pass_error = kDefaultPassError;
  /// Sequential tests: the seeds of the blocks after the first (Seeds(b).then_blocks_of(n)); 0:
  /// seed_block.
  int seed_next_block = 0;
  /// Sequential tests declared Seeds(b).until_decided(cap): the looks are anytime-valid.
  bool seed_anytime = false;
  /// Sequential tests declared Seeds(b).up_to(cap).likelihood_ratio(): the looks are Wald's
  /// sequential probability ratio test (analysis/likelihood_ratio_seeds.h).
  bool seed_likelihood_ratio = false;
  /// Likelihood-ratio tests declared .pass_rise(rise, from): the PASS boundary's rise (0: none)
  /// and the seeds from which it holds.
  double seed_pass_rise = 0.0;
  int seed_pass_rise_from = 0;
  /// Likelihood-ratio tests declared .constant_pass(): no rise, declared or chosen.
  bool seed_constant_pass = false;
  /// Flaky-aware tests (ML_FLAKY_TEST, run --quarantine): the seed runs are attempts of the
  /// plain body; a failed attempt does not fail the test, the failure rate (the metric
  /// kFailureRateMetric, with this policy) is gated. The metrics are the first attempt's.
  std::optional<FailureRate> attempts;
  bool quarantined = false;  ///< run --quarantine selected it

  // Set when the run compares with baselines: one comparison per recorded metric, in order.
  std::vector<MetricComparison> comparisons;
  std::string baseline_file;  ///< empty when the test has no baseline yet
  int baseline_version = 0;
  std::string baseline_commit;
  std::string baseline_promoted_at;
  std::string environment_note;  ///< "framework same · CPU changed · ... · config same"
  /// Set by the gate: each declared constraint the test's values break against the baseline,
  /// described ("val_loss <= +0.5%: B 2.1 > limit 2.01 (A 2 +0.5%) VIOLATED"). The run exits
  /// constraint_violated when nothing worse happened.
  std::vector<std::string> constraints_violated;
};

/// A shard's part of a run (run --shard), or nothing.
struct ShardInfo {
  std::size_t index = 0;
  std::size_t count = 1;
  std::string plan_hash;  ///< of the whole plan: merge refuses shards of different plans
  std::string source;     ///< where the shard came from: "--shard", "SLURM_ARRAY_TASK_ID", ...
  friend bool operator==(const ShardInfo&, const ShardInfo&) = default;
};

struct RunInfo {
  std::string run_id;       ///< folder name, e.g. "20261202T134512Z-a1b2c3d"
  std::string run_folder;   ///< path of the run folder
  std::string binary;       ///< the test binary's name
  std::string started_at;   ///< UTC, ISO 8601
  std::string finished_at;  ///< empty until the run ends
  double duration_s = 0.0;
  std::vector<std::string> tiers;  ///< the tiers selected
  std::string filter;
  std::uint64_t seed = 0;
  int threads = 1;
  /// run --determinism: "off", "warn" or "strict" (a test's own parameter may differ; its
  /// property "determinism" says so). "warn" in a run written before the switch existed.
  std::string determinism = "warn";
  nlohmann::json environment;
  std::string baselines;  ///< the --baselines folder; empty when not comparing
  std::string environment_profile;
  /// --strict-env: a metric that is UNGATED or NOT_COMPARABLE fails the run (exit not_gated)
  bool strict_env = false;
  std::optional<ShardInfo> shard;        ///< set in a shard's partial run folder
  std::vector<std::string> merged_from;  ///< a merged run: the shard folders it was built from
  std::string hypothesis;                ///< run --hypothesis (notes.md), for the ledger
  std::string change;                    ///< run --change (notes.md), for the ledger
  /// run --baseline-history: compared with the recent runs under this folder, not baselines
  std::string baseline_history;
  std::vector<std::string> baseline_runs;  ///< the runs the rolling baseline was made from
  /// run --screening: one seed per configuration, to rank configurations; never promoted (the
  /// finalists are confirmed on fresh seeds by a run of their own).
  bool screening = false;
};

struct RunResult {
  RunInfo info;
  std::vector<TestResult> tests;
  std::vector<std::string> runner_errors;  ///< problems outside any test (a worker died early...)
  /// The notes' success criteria as the run checked them (comparison/run_criteria.h); empty
  /// when the run was given none. They do not change the exit code.
  std::vector<CheckedCriterion> criteria;
  /// The held-out sets the run's tests evaluated, counted over this run and the earlier runs in
  /// its runs folder; set when the run has ended (storage/held_out_history.h).
  std::vector<HeldOutTally> held_out;
  int exit_code = 0;
};

// Seeded tests: the names and seeds their record is read by.

/// A unit of the plan no shard ran, as merge records it (a crashed SeedRun whose message starts
/// with this): no outcome of a flaky-aware test's rate.
inline constexpr std::string_view kMissingUnitPrefix = "missing: ";
inline bool is_missing_unit(const SeedRun& run) {
  return run.status == TestStatus::kCrashed && run.crash_message.starts_with(kMissingUnitPrefix);
}

/// A flaky-aware test whose first attempt (seed S, whose values are the test's) did not pass.
inline bool first_attempt_failed(const TestResult& test) {
  if (!test.attempts) return false;
  for (const SeedRun& run : test.seed_runs) {
    if (run.seed == test.seed) return is_test_failure(run.status);
  }
  return false;
}

/// The metric a flaky-aware test's attempts add up to: 1 per failed attempt, 0 per passed one.
inline constexpr const char* kFailureRateMetric = "failure_rate";

/// "accuracy" for the only variant, "accuracy[half_width]" for a named one: each variant's
/// distribution is a metric of its own, with its own baseline.
std::string variant_metric_name(const std::string& metric, const std::string& variant);

/// "seed 3", or "seed 3 [half_width]".
std::string seed_label(const SeedRun& run);

/// The distinct seeds a seeded test ran (any variant, any status), in plan order. A sequential
/// test that stopped early ran fewer than it planned.
std::vector<std::uint64_t> seeds_that_ran(const TestResult& test);

/// Adds a declared constraint's text unless `constraints` already holds it.
void add_declared_constraint(std::vector<std::string>& constraints, const std::string& text);

/// Adds a record_dataset (record_data_order, record_checkpoint) fingerprint, replacing an earlier
/// one of the same name and kind: the last one a test records is the one it is judged by.
void add_dataset_fingerprint(std::vector<RecordedDataset>& datasets, RecordedDataset dataset);

/// "dataset", "data order" or "checkpoint", as reports and notes name a fingerprint's kind.
std::string_view fingerprint_kind_noun(FingerprintKind kind);

/// Writes a fingerprint's kind into its JSON object (an event, an entry of results.json): "order"
/// (true for a data order) and, for a checkpoint only, "kind": "checkpoint", so what records no
/// checkpoint reads and writes as before.
void write_fingerprint_kind(nlohmann::json& json, FingerprintKind kind);
/// The kind those fields say; no "kind" means a dataset or, with "order" true, a data order. An
/// unknown kind throws std::invalid_argument.
FingerprintKind fingerprint_kind(bool order, std::string_view kind);

/// How many metrics of the run's finished tests were not gated: UNGATED (the baseline holds them
/// for other environment profiles only) or NOT_COMPARABLE (other data, another kind of value).
std::size_t count_not_gated(const RunResult& run);

/// The exit code of a finished run: a failed test, then a regression, then a declared constraint
/// violated, then a runner error, then an output error (`output_errors`), then, with
/// run.info.strict_env, a metric not gated; then all skipped; else passed.
ExitCode run_exit_code(const RunResult& run, const std::vector<std::string>& output_errors);

}  // namespace mlregress::internal
