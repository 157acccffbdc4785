// The command line of a test binary, parsed by CLI11 into plain option structs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/capability.h"

namespace mlregress::internal {

/// --alpha: the multi-seed gate's family-wise level, the same for every command that judges.
inline constexpr double kDefaultAlpha = 0.01;

struct RunOptions {
  std::vector<std::string> tiers;  ///< empty: every tier
  std::string filter;
  std::vector<std::string> sets;  ///< "Test.key=value" items
  std::uint64_t seed = 0;
  int threads = 1;
  std::string determinism = "warn";  ///< --determinism: off, warn or strict
  std::string out = "runs";
  std::string junit;  ///< extra copy of the JUnit file; the run folder always has junit.xml
  std::string color = "auto";
  bool ctest_measurements = false;  ///< print each metric as a <CTestMeasurement> for CDash
  std::string baselines;    ///< compare against <baselines>/<binary>/*.toml; empty: no comparison
  bool strict_env = false;  ///< an UNGATED or NOT_COMPARABLE metric fails the run (not_gated)
  std::string baseline_history;  ///< compare with the last `window` runs under it instead
  std::size_t window = 10;       ///< --window: runs in the rolling baseline
  std::string repo;  ///< git work tree for the commit and dirty flag; empty: the test sources'
  int jobs = 0;      ///< seeded tests: worker processes at once; 0 = the number of cores
  double seed_timeout_s = 600.0;  ///< a seed running longer is killed and reported as an error
  double timeout_s = 0.0;         ///< a plain test running longer is killed; 0: per tier
  double alpha =
      kDefaultAlpha;            ///< family-wise level of the statistical gate (Holm across the run)
  bool all_seeds = false;       ///< --all-seeds: sequential tests run every seed up to their cap
  bool screening = false;       ///< --screening: one seed per configuration; never promotable
  std::string quarantine;       ///< --quarantine: tests gated on their failure rate only
  std::string ab_binary;        ///< --ab: interleave the timing tests with this other build
  int ab_rounds = 10;           ///< --rounds: A/B rounds (each runs both binaries once)
  double ab_timeout_s = 600.0;  ///< --ab-timeout: a child run of --ab longer than this is killed
  double ab_margin = 0.05;      ///< --ab-margin: relative slowdown an A/B REGRESSION must exceed
  std::string hypothesis;       ///< notes.md: what the run is expected to show
  std::string change;           ///< notes.md: the single intentional change
  std::string criteria;         ///< notes.md: what counts as success (`METRIC OP VALUE` is checked)
  std::string notes_file;       ///< notes.md sections from a file (--notes)
  std::string shard;            ///< --shard I/N; empty: from the environment, or not sharded
  int shard_count = 0;          ///< --shard-count: N for JOB_COMPLETION_INDEX
  bool no_shard = false;        ///< --no-shard: run the whole plan whatever the environment says
  std::string shard_weights;    ///< --shard-weights: a previous run folder whose durations balance
  /// Seeded tests run only these seeds (rerun --seed); empty: every planned seed.
  std::vector<std::uint64_t> only_seeds;
};

struct HistoryOptions {
  std::vector<std::string> paths = {"runs"};
  std::string test;
  std::string metric;
  std::string format = "text";
  std::string repo;
  double max_p = 0.001;        ///< change points: significance (Bonferroni over splits tried)
  double min_magnitude = 0.0;  ///< change points: smallest relative change reported
  std::string out;             ///< --format html: the page (default history.html)
};

struct RerunOptions {
  std::string run;
  std::string test;
  std::optional<std::uint64_t> seed;
  std::string out = "runs";
  std::string repo;
  bool force = false;  ///< rerun a test whose parameters no longer match the run's
};

struct BisectOptions {
  std::string good, bad;  ///< commits (anything git rev-parse takes)
  std::string test;
  std::string metric;  ///< empty: the test's verdict over all its metrics
  std::string build;   ///< shell command that builds the test binary, run in the repository
  std::string binary;  ///< the test binary the build makes; empty: this binary's path
  std::string repo;    ///< empty: the git work tree holding the current directory
  std::string out = "runs/bisect";
  std::string run_args;     ///< more `run` arguments, split at spaces (--set ..., --seed ...)
  bool no_rebuild = false;  ///< leave the build folder as the last tested commit left it
  std::string step;         ///< internal: the git bisect run step of the bisect in this folder
};

struct MergeOptions {
  std::vector<std::string> shards;
  std::string out = "runs";
  std::string baselines;  ///< empty: the one the shards named, if any
  std::string junit;
  std::string color = "auto";
  double alpha = kDefaultAlpha;
  bool strict_env = false;  ///< as run --strict-env (also on when a shard ran with it)
  bool force = false;       ///< merge shards of different commits, plans or environments
};

struct PromoteOptions {
  std::string run;
  std::string baselines = "baselines";
  std::string reason;
  std::string filter;
  bool force = false;
  bool add_seeds = false;      ///< seeded metrics: the run's seeds join the baseline's (a pool)
  bool paired_spread = false;  ///< seeded metrics: store the spread of paired differences only
  bool add_pairs = false;      ///< with paired_spread: add the run's pairs to the stored spread's
};

/// `calibrate`: the K repeats, what they run, and where the bands go.
struct CalibrateOptions {
  std::vector<std::string> tiers;
  std::string filter;
  int repeats = 20;
  std::string baselines = "baselines";
  std::string out = "runs";  ///< the calibration folder (the K run folders) is made under it
  std::vector<std::string> sets;
  std::uint64_t seed = 0;
  int threads = 1;
  double coverage = 0.99;
  double confidence = 0.99;
  std::string reason;
  std::string repo;
  bool allow_wide_bands = false;  ///< also write bands wider than the value itself
  bool force = false;             ///< a dirty tree or a failed repeat
  /// One run per CPU code path (environment/kernel_paths.h) instead of `repeats` of one.
  bool across_kernels = false;
};

struct CompareOptions {
  std::string run_a;
  std::string run_b;
  double alpha = kDefaultAlpha;   ///< the multi-seed gate's family-wise level
  bool strict_env = false;        ///< an UNGATED or NOT_COMPARABLE metric: exit not_gated
  bool allow_incomplete = false;  ///< compare runs that were killed or are still running
  /// --constraint "METRIC OP VALUE" (repeatable): then the constraints decide the exit code
  std::vector<std::string> constraints;
};

struct ReportOptions {
  std::string run;
  std::string against;    ///< judge the run against this run folder
  std::string baselines;  ///< judge the run against these baselines
  std::string format = "html";
  std::string out;  ///< "-": stdout; empty: report.html for html, stdout otherwise
  double alpha = kDefaultAlpha;
  bool strict_env = false;  ///< when judging: an UNGATED or NOT_COMPARABLE metric, exit not_gated
  std::vector<std::string> history;  ///< --history: run folders whose history the page shows
  std::string repo;                  ///< orders their commits
};

struct NotesOptions {
  std::string run;
  std::string interpretation;
  std::string next;
};

struct LedgerOptions {
  std::string runs = "runs";
  std::vector<std::string> metrics;  ///< --metric, repeatable: a column per metric (and test)
  std::string test;                  ///< --test: the metrics of this test only
  std::string format = "text";       ///< text or json
};

struct AblationOptions {
  std::string run;
  std::string test;     ///< empty: every test with variants
  bool robust = false;  ///< --robust: IQM with a bootstrap interval and median with its interval
};

struct BaselinesCheckOptions {
  std::string baselines = "baselines";
};

struct BaselinesAdoptOptions {
  std::string run;
  std::string confirm;  ///< a second run on the same machine; exact values must agree
  std::string baselines = "baselines";
  std::string reason;
  std::string filter;
  bool force = false;
};

/// `graduate RUNS --test T --metric M`: a capability met reliably becomes a guard; with
/// --demote, a graduated guard becomes a capability again.
struct GraduateOptions {
  std::string runs = "runs";
  std::string test;
  std::string metric;
  std::string baselines = "baselines";
  int last = kGraduationDefaultRuns;  ///< the runs the decision looks at
  double min_lower_bound = kGraduationDefaultLowerBound;
  std::string reason;
  bool demote = false;
  bool force = false;  ///< runs of a dirty tree
};

struct ListOptions {
  std::vector<std::string> tiers;
  std::string filter;
  std::string format = "text";
};

enum class Command {
  kRun,
  kList,
  kPromote,
  kCalibrate,
  kCompare,
  kReport,
  kMerge,
  kNotes,
  kLedger,
  kRerun,
  kHistory,
  kBisect,
  kBaselinesCheck,
  kBaselinesAdopt,
  kAblation,
  kGraduate
};

struct CommandLine {
  Command command = Command::kRun;
  RunOptions run;
  ListOptions list;
  PromoteOptions promote;
  CalibrateOptions calibrate;
  CompareOptions compare;
  ReportOptions report;
  MergeOptions merge;
  NotesOptions notes;
  LedgerOptions ledger;
  RerunOptions rerun;
  HistoryOptions history;
  BisectOptions bisect;
  BaselinesCheckOptions baselines_check;
  BaselinesAdoptOptions baselines_adopt;
  AblationOptions ablation;
  GraduateOptions graduate;
};

/// Outcome of parsing: either a command to execute, or an exit code to return at once (after
/// --help, or after a usage error whose message was already printed).
struct ParsedCommandLine {
  CommandLine command_line;
  bool exit_now = false;
  int exit_code = 0;
};

/// Parses the arguments left after GoogleTest removed its own flags. `run` is the default
/// subcommand. Prints help or the usage error itself.
ParsedCommandLine parse_command_line(int argc, char** argv, const std::string& binary_name);

}  // namespace mlregress::internal
