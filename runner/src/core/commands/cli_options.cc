#include "commands/cli_options.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>

#include "execution/run_plan.h"
#include "mlregress/determinism_mode.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {
namespace {

const std::vector<std::string> kTierNames = {"fast", "medium", "full"};

constexpr std::array<std::string_view, 15> kCommandNames = {
    "run",    "list",  "promote", "calibrate", "compare",  "report",    "merge",   "notes",
    "ledger", "rerun", "history", "bisect",    "ablation", "baselines", "graduate"};

// One line per exit code, from the table the README is checked against.
std::string exit_code_footer() {
  std::string footer = "Exit codes:";
  for (const ExitCodeDescription& d : exit_code_descriptions()) {
    footer += fmt::format("\n  {:>2}  {:<18} {}", static_cast<int>(d.code), d.name, d.meaning);
  }
  return footer;
}

// A seed is written to baseline files as a TOML integer, which holds 0 <= S < 2^63. Checked on
// the text: CLI11 would wrap "-1" into 18446744073709551615.
const CLI::Validator kSeed(
    [](std::string& text) -> std::string {
      std::uint64_t seed = 0;
      const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), seed);
      if (text.empty() || error != std::errc() || end != text.data() + text.size() ||
          seed > kMaxSeed) {
        return fmt::format("a seed is a whole number from 0 to {}, not '{}'", kMaxSeed, text);
      }
      return "";
    },
    "SEED");

// run --determinism: one of the mode names, or a message that lists them.
const CLI::Validator kDeterminism(
    [](std::string& text) -> std::string {
      if (parse_determinism_mode(text)) return "";
      return fmt::format("--determinism is off, warn or strict, not '{}'", text);
    },
    "off|warn|strict");

// NaN passes every range check (all its comparisons are false), and Inf passes PositiveNumber.
const CLI::Validator kFinite(
    [](std::string& text) -> std::string {
      double value = 0.0;
      try {
        std::size_t used = 0;
        value = std::stod(text, &used);
        if (used != text.size()) return fmt::format("'{}' is not a number", text);
      } catch (const std::exception&) {
        return fmt::format("'{}' is not a number", text);
      }
      return std::isfinite(value) ? "" : fmt::format("expected a finite number, not '{}'", text);
    },
    "FINITE");

// The options several commands share, each declared once: the same name, help and check
// wherever it appears.
void add_alpha(CLI::App* command, double& alpha, std::string_view when = "") {
  command
      ->add_option("--alpha", alpha,
                   fmt::format("Family-wise significance level of the multi-seed gate{}, "
                               "Holm-adjusted across the run; each failure-rate check holds it "
                               "on its own (it decides between blocks of attempts)",
                               when))
      ->check(kFinite & CLI::Range(1e-9, 0.5));
}

void add_strict_env(CLI::App* command, bool& strict_env, std::string_view which) {
  command->add_flag("--strict-env", strict_env,
                    fmt::format("{} fails with exit code 11 (not_gated) when a metric is UNGATED "
                                "(its baseline holds values for other environment profiles only) "
                                "or NOT_COMPARABLE (measured on other data)",
                                which));
}

// A command that judges metrics: the gate's level, then whether NOT_GATED fails what `which`
// names. (`run` declares the two apart, among its other options.)
void add_gate_options(CLI::App* command, double& alpha, bool& strict_env, std::string_view which,
                      std::string_view when = "") {
  add_alpha(command, alpha, when);
  add_strict_env(command, strict_env, which);
}

// --set of the commands that run tests.
void add_parameter_overrides(CLI::App* command, std::vector<std::string>& sets) {
  command->add_option("--set", sets, "Override a parameter: TEST.KEY=VALUE (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->default_str("");
}

void add_color(CLI::App* command, std::string& color) {
  command->add_option("--color", color, "Colour the console: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
}

void add_runs_folder(CLI::App* command, std::string& out, std::string_view what) {
  command->add_option("--out", out, fmt::format("Folder that holds {}", what));
}

// The RUN argument of the commands that read a finished run.
void add_run_folder(CLI::App* command, std::string& run) {
  command->add_option("run", run, "Run folder (e.g. runs/latest)")->required();
}

void add_junit_copy(CLI::App* command, std::string& junit) {
  command->add_option("--junit", junit, "Also write the JUnit XML to this file");
}

void add_selection(CLI::App* command, std::vector<std::string>& tiers, std::string& filter) {
  command
      ->add_option(
          "--tier", tiers,
          "Tiers to select: fast, medium, full (repeat or comma-separate; default: all three)")
      ->delimiter(',')
      ->check(CLI::IsMember(kTierNames))
      ->default_str("");
  command->add_option(
      "--filter", filter,
      "GoogleTest-style filter: 'Cnn*:Mlp*-*Slow'; a pattern with a '.' matches the "
      "full name (Fast.Cnn*), one without matches the test name");
}

// run --shard and its relatives: which part of the plan this process runs.
void add_shard_options(CLI::App* command, RunOptions& run) {
  command->add_option(
      "--shard", run.shard,
      "Run shard INDEX/COUNT (0-based) of the plan: plain tests and each seed of a "
      "seeded test are units dealt over the shards; `merge` joins them. Without it: "
      "GTEST_TOTAL_SHARDS/GTEST_SHARD_INDEX, TEST_TOTAL_SHARDS/TEST_SHARD_INDEX, "
      "SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX");
  command
      ->add_option("--shard-count", run.shard_count,
                   "The shard count for JOB_COMPLETION_INDEX (else MLREGRESS_SHARD_COUNT)")
      ->check(CLI::Range(1, 1000000))
      ->default_str("");
  command->add_flag("--no-shard", run.no_shard,
                    "Run the whole plan even where the environment names a shard (a Slurm array "
                    "task or an Indexed Job running mlregress for another purpose)");
  command->add_option("--shard-weights", run.shard_weights,
                      "Balance the shards by the durations of this earlier run folder");
}

// run --ab: interleaved A/B timing against another build.
void add_ab_options(CLI::App* command, RunOptions& run) {
  command->add_option(
      "--ab", run.ab_binary,
      "Interleaved A/B timing: run the timing tests of this binary and of OTHER_BINARY "
      "in alternating, randomised order and test the per-round log-ratio");
  command->add_option("--rounds", run.ab_rounds, "A/B rounds")->check(CLI::Range(2, 1000));
  command
      ->add_option("--ab-timeout", run.ab_timeout_s,
                   "Seconds one child run of --ab may take before it is killed and the comparison "
                   "stops")
      ->check(kFinite & CLI::PositiveNumber);
  command
      ->add_option("--ab-margin", run.ab_margin,
                   "A/B: the median slowdown a REGRESSION must exceed, relative (0.05 = 5%)")
      ->check(kFinite & CLI::Range(0.0, 10.0));
}

// run --baselines, --baseline-history and their relatives: what the run's metrics are judged
// against.
void add_run_comparison_options(CLI::App* command, RunOptions& run) {
  CLI::Option* baselines =
      command->add_option("--baselines", run.baselines,
                          "Compare every metric with the baselines in DIR/<binary>/*.toml");
  CLI::Option* history =
      command
          ->add_option("--baseline-history", run.baseline_history,
                       "Compare every metric with the last --window finished runs under DIR on "
                       "this environment profile (median; seeded: pooled samples), not with "
                       "promoted baselines")
          ->excludes(baselines);
  command
      ->add_option("--window", run.window,
                   "--baseline-history: how many recent runs make the baseline")
      ->check(CLI::Range(1, 100000))
      ->needs(history);
  add_strict_env(command, run.strict_env, "The run");
}

// run --jobs and the timeouts: how the tests' processes run.
void add_process_options(CLI::App* command, RunOptions& run) {
  command
      ->add_option("--jobs,-j", run.jobs,
                   "Seeded tests: seeds run in this many single-threaded worker processes at once "
                   "(default: the number of cores); results do not depend on it")
      ->check(CLI::Range(0, 1024))
      ->default_str("");
  command
      ->add_option("--timeout", run.timeout_s,
                   "Seconds one plain test may run before it and every process it started are "
                   "killed and it is reported as timed out (default per tier: fast 120, medium "
                   "900, full 3600, as ctest)")
      ->check(kFinite & CLI::PositiveNumber)
      ->default_str("");
  command
      ->add_option(
          "--seed-timeout", run.seed_timeout_s,
          "Seconds one seed of a seeded test may run before it is killed and reported as an "
          "error for that seed")
      ->check(kFinite & CLI::PositiveNumber);
}

// run --hypothesis and the other sections of the run's notes.md.
void add_notes_options(CLI::App* command, RunOptions& run) {
  command->add_option("--hypothesis", run.hypothesis,
                      "notes.md: what this run is expected to show (also in the ledger)");
  command->add_option("--change", run.change, "notes.md: the single intentional change");
  command->add_option("--criteria", run.criteria,
                      "notes.md: what counts as success; items separated by ';' or newlines, and "
                      "each of the form METRIC OP VALUE (val_loss <= 0.98x baseline, "
                      "tokens_per_s >= +15%, Test.loss < 0.1) is checked in the Result");
  command->add_option("--notes", run.notes_file,
                      "notes.md sections from this file (## Hypothesis, ## Single intentional "
                      "change, ## Success criteria; also ## Result, ## Interpretation, ## Next "
                      "experiment); the flags above override them");
}

CLI::App* add_run_command(CLI::App& app, RunOptions& run) {
  CLI::App* command = app.add_subcommand("run", "Run the selected tests (the default command)");
  add_selection(command, run.tiers, run.filter);
  add_parameter_overrides(command, run.sets);
  command->add_option("--seed", run.seed, "Seed every test starts from")->check(kSeed);
  command->add_option("--threads", run.threads, "Intra-op threads for every test")
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--determinism", run.determinism,
                   "Deterministic kernels: off (none asked), warn (a kernel without a "
                   "deterministic implementation warns and runs; the default) or strict (it "
                   "throws, failing the test); a test's own \"determinism\" parameter overrides "
                   "it for that test")
      ->check(kDeterminism);
  add_runs_folder(command, run.out, "the run folders");
  add_junit_copy(command, run.junit);
  add_color(command, run.color);
  command->add_flag("--ctest-measurements", run.ctest_measurements,
                    "Print each metric as a <CTestMeasurement> line, which ctest -T Test keeps "
                    "for CDash (mlregress_discover_tests sets it)");
  add_run_comparison_options(command, run);
  command->add_option("--repo", run.repo,
                      "Git work tree whose commit and dirty flag the run records (default: the one "
                      "holding the test sources, known from the build)");
  add_process_options(command, run);
  add_alpha(command, run.alpha);
  command->add_flag("--all-seeds", run.all_seeds,
                    "Sequential seeded tests (Seeds(B).up_to(CAP)) run all CAP seeds instead of "
                    "stopping at the first block after which the gate has decided; the verdict "
                    "is still that first settling look's. Promote such a run so the baseline "
                    "holds every seed a later run may reach");
  command->add_flag("--screening", run.screening,
                    "Screening phase: each seeded test runs one seed per configuration (its "
                    "first seed of each variant), to rank many configurations cheaply. The run is "
                    "recorded as a screening run and never promoted; confirm the finalists on "
                    "fresh seeds (--filter … --seed S) in a run of their own, which decides");
  command->add_option(
      "--quarantine", run.quarantine,
      "Tests (a filter, as --filter) whose single failures do not fail the run: each runs as "
      "attempts (blocks of 4, at most 200, or its ML_FLAKY_TEST plan) and only a failure rate "
      "significantly above its baseline's fails it; every failed attempt is in the JUnit file");
  add_notes_options(command, run);
  add_shard_options(command, run);
  add_ab_options(command, run);
  return command;
}

CLI::App* add_promote_command(CLI::App& app, PromoteOptions& promote) {
  CLI::App* command = app.add_subcommand("promote", "Make a run's metrics the new baseline");
  add_run_folder(command, promote.run);
  command->add_option("--baselines", promote.baselines, "Baseline folder");
  command->add_option("--reason", promote.reason, "Why the baseline changes (kept in the history)");
  command->add_option("--filter", promote.filter, "Promote only the tests matching this filter");
  command->add_flag("--force", promote.force, "Promote a failed, incomplete or dirty run anyway");
  command->add_flag("--add-seeds", promote.add_seeds,
                    "Seeded metrics: add the run's seeds and samples to the baseline's instead of "
                    "replacing them (same config, data, numerics and margin; a seed already there "
                    "must have the same value), recorded as one more block of the pool");
  command
      ->add_flag("--paired-spread", promote.paired_spread,
                 "Seeded metrics: store the spread of the run's per-seed differences from the "
                 "baseline's values of the same seeds (the scale of paired likelihood-ratio "
                 "looks) and leave the samples as they are")
      ->excludes("--add-seeds");
  command
      ->add_flag("--add-pairs", promote.add_pairs,
                 "With --paired-spread: add the run's pairs to those of the stored spread (other "
                 "seeds of the baseline after the same kind of change; a seed counts once) "
                 "instead of replacing it, so a pool's spread can grow past one run's seeds")
      ->needs("--paired-spread");
  return command;
}

CLI::App* add_calibrate_command(CLI::App& app, CalibrateOptions& calibrate) {
  CLI::App* command = app.add_subcommand(
      "calibrate",
      "Run the selected plain tests K times (same seed and threads) and write, per metric that "
      "varies, a band from the measured spread into the baselines: mean ± max(k × sd, largest "
      "|deviation|), k the normal tolerance factor covering 99% of runs with 99% confidence; "
      "metrics identical in every repeat are offered Exact");
  add_selection(command, calibrate.tiers, calibrate.filter);
  CLI::Option* repeats =
      command
          ->add_option("--repeats", calibrate.repeats,
                       "Runs of each test (K); fewer than 20 make k large (k = 10.2 at K = 5)")
          ->check(CLI::Range(2, 100000));
  command
      ->add_flag("--across-kernels", calibrate.across_kernels,
                 "One run per CPU code path instead of K repeats of one: natural, ATen's default "
                 "kernels, oneDNN at SSE4.1, MKL's compatible path, all three, one more thread; "
                 "the band bounds what another CPU's kernels do, and a metric that moves by more "
                 "than its own size is flagged chaotic, not written")
      ->excludes(repeats);
  command->add_option("--baselines", calibrate.baselines, "Baseline folder");
  add_runs_folder(command, calibrate.out,
                  "the calibration folder (calibration-<time>/, with the K run folders)");
  add_parameter_overrides(command, calibrate.sets);
  command->add_option("--seed", calibrate.seed, "Seed of every repeat (the same in each)")
      ->check(kSeed);
  command
      ->add_option("--threads", calibrate.threads,
                   "Intra-op threads for every repeat (several threads make reductions vary)")
      ->check(CLI::Range(1, 1024));
  command
      ->add_option("--coverage", calibrate.coverage,
                   "Fraction of future runs the band must hold (the tolerance interval's coverage)")
      ->check(kFinite & CLI::Range(0.5, 0.999999));
  command
      ->add_option("--confidence", calibrate.confidence,
                   "Confidence that the band holds that fraction")
      ->check(kFinite & CLI::Range(0.5, 0.999999));
  command->add_option("--reason", calibrate.reason,
                      "Why the bands change (kept in the provenance and the history)");
  command->add_option("--repo", calibrate.repo,
                      "Git work tree for the commit and dirty flag (default: the test sources')");
  command->add_flag("--allow-wide-bands", calibrate.allow_wide_bands,
                    "Also write a band wider than the metric's own value (noise dominates)");
  command->add_flag("--force", calibrate.force,
                    "Calibrate from a dirty tree, or despite a failed test in a repeat");
  return command;
}

CLI::App* add_compare_command(CLI::App& app, CompareOptions& compare) {
  CLI::App* command =
      app.add_subcommand("compare", "Compare run B against run A (A is the baseline)");
  command->add_option("run_a", compare.run_a, "Baseline run folder")->required();
  command->add_option("run_b", compare.run_b, "Candidate run folder")->required();
  add_gate_options(command, compare.alpha, compare.strict_env, "The comparison");
  command->add_flag("--allow-incomplete", compare.allow_incomplete,
                    "Compare a run that was killed or is still running (what it holds so far)");
  command
      ->add_option("--constraint", compare.constraints,
                   "A constraint on B's metric in every test that recorded it: METRIC OP VALUE, "
                   "OP <=, >=, < or >, VALUE a ratio to A (1.10x), a change relative to A "
                   "(+0.5%) or a number (2.5) (repeatable). Given, the constraints alone decide "
                   "the exit code: 12 when one is violated, else 0")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  return command;
}

CLI::App* add_report_command(CLI::App& app, ReportOptions& report) {
  CLI::App* command = app.add_subcommand(
      "report",
      "Write a run's report: a self-contained HTML page, Markdown for a pull request, or "
      "OpenMetrics for CI dashboards (a bisect folder: its culprit and the commits tried)");
  command
      ->add_option("run", report.run,
                   "Run folder (e.g. runs/latest), A/B folder of run --ab, or bisect folder "
                   "(runs/bisect/<good>..<bad>: the culprit and the commits tried)")
      ->required();
  CLI::Option* against =
      command->add_option("--against", report.against, "Judge the run against this run folder");
  command->add_option("--baselines", report.baselines, "Judge the run against this baseline folder")
      ->excludes(against);
  command->add_option("--format", report.format, "html, markdown or openmetrics")
      ->check(CLI::IsMember({"html", "markdown", "openmetrics"}));
  command->add_option("--out", report.out,
                      "Output file; - for stdout (default: report.html for html, stdout for the "
                      "others)");
  add_gate_options(command, report.alpha, report.strict_env, "The report (after writing it)",
                   " when judging");
  command->add_option("--history", report.history,
                      "HTML: add a chart per metric across the runs under these folders, one "
                      "point per commit, change points marked (as history --format html)");
  command->add_option("--repo", report.repo,
                      "--history: git work tree that orders the commits (default: the current "
                      "directory)");
  return command;
}

CLI::App* add_merge_command(CLI::App& app, MergeOptions& merge) {
  CLI::App* command = app.add_subcommand(
      "merge",
      "Join the partial run folders of a sharded run into one run and decide its verdicts");
  command->add_option("shards", merge.shards, "Shard run folders (one per shard)")->required();
  add_runs_folder(command, merge.out, "the run folders");
  command->add_option("--baselines", merge.baselines,
                      "Judge against these baselines (default: those the shards named)");
  add_junit_copy(command, merge.junit);
  add_color(command, merge.color);
  add_gate_options(command, merge.alpha, merge.strict_env,
                   "The merged run (also when a shard ran with it)");
  command->add_flag("--force", merge.force,
                    "Merge shards of different commits, plans or environment profiles");
  return command;
}

CLI::App* add_notes_command(CLI::App& app, NotesOptions& notes) {
  CLI::App* command = app.add_subcommand(
      "notes",
      "Print a run's notes.md (its success criteria checked again), or add the interpretation "
      "and the next experiment");
  add_run_folder(command, notes.run);
  command->add_option("--interpretation", notes.interpretation, "What the result means");
  command->add_option("--next", notes.next, "The next experiment");
  return command;
}

CLI::App* add_ledger_command(CLI::App& app, LedgerOptions& ledger) {
  CLI::App* command = app.add_subcommand(
      "ledger",
      "List the runs of a runs folder with their outcome, criteria, keep/reject and change");
  command->add_option("runs", ledger.runs, "Runs folder");
  command->add_option("--metric", ledger.metrics,
                      "A column with this metric's value in each run (per test that recorded "
                      "it); repeatable");
  command->add_option("--test", ledger.test, "The --metric columns of this test only");
  command->add_option("--format", ledger.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return command;
}

CLI::App* add_rerun_command(CLI::App& app, RerunOptions& rerun) {
  CLI::App* command = app.add_subcommand(
      "rerun",
      "Rerun one test of a run (or one seed) with the run's exact parameters, seed and threads, "
      "and say whether it reproduced");
  add_run_folder(command, rerun.run);
  command->add_option("--test", rerun.test, "The test (name or Tier.Name)")->required();
  command->add_option("--seed", rerun.seed, "Seeded tests: only this seed of the run")
      ->check(kSeed);
  add_runs_folder(command, rerun.out, "the rerun's run folder");
  command->add_option("--repo", rerun.repo, "Git work tree to compare commits in");
  command->add_flag("--force", rerun.force, "Rerun even when the test's parameters changed");
  return command;
}

CLI::App* add_history_command(CLI::App& app, HistoryOptions& history) {
  CLI::App* command = app.add_subcommand(
      "history", "Each metric across the runs under PATHs, one point per commit, in commit order");
  command->add_option("paths", history.paths, "Run folders, or folders holding them");
  command->add_option("--test", history.test, "Only this test (name or Tier.Name)");
  command->add_option("--metric", history.metric, "Only this metric");
  command
      ->add_option("--format", history.format,
                   "text, json or html (one page: a small chart per series, runs linked)")
      ->check(CLI::IsMember({"text", "json", "html"}));
  command->add_option("--out", history.out,
                      "--format html: the page (default history.html; - for stdout)");
  command->add_option("--repo", history.repo,
                      "Git work tree that orders the commits (default: the current directory)");
  command
      ->add_option("--max-p", history.max_p,
                   "Change points: t-test p-value below which a split is kept")
      ->check(kFinite & CLI::Range(1e-12, 0.5));
  command
      ->add_option("--min-magnitude", history.min_magnitude,
                   "Change points: smallest relative change of the means reported")
      ->check(kFinite & CLI::NonNegativeNumber);
  return command;
}

CLI::App* add_bisect_command(CLI::App& app, BisectOptions& bisect) {
  CLI::App* command = app.add_subcommand(
      "bisect",
      "Find the commit between GOOD and BAD that made TEST regress: git bisect run, building "
      "each commit and judging the test against GOOD's result; the culprit and the commits tried "
      "go into <out>/<good>..<bad>/bisect.json and its report.html");
  command->add_option("good", bisect.good, "A commit where the test is fine");
  command->add_option("bad", bisect.bad, "A later commit where it regressed");
  command->add_option("--test", bisect.test, "The test (name or Tier.Name)");
  command->add_option("--metric", bisect.metric,
                      "Judge by this metric only (default: every metric of the test)");
  command->add_option("--build", bisect.build,
                      "Shell command that builds the test binary, run in the repository "
                      "(e.g. \"cmake --build build\")");
  command->add_option("--binary", bisect.binary,
                      "The test binary the build makes (default: this binary's path)");
  command->add_option("--repo", bisect.repo,
                      "Git work tree (default: the one holding the current directory)");
  command->add_option("--out", bisect.out, "Folder for the runs, logs and cache of bisects");
  command->add_option("--run-args", bisect.run_args,
                      "More arguments for each run, split at spaces (e.g. \"--seed 3\")");
  command->add_flag("--no-rebuild", bisect.no_rebuild,
                    "Do not rebuild the starting commit afterwards");
  command->add_option("--step", bisect.step, "(internal) one git bisect run step")->group("");
  return command;
}

CLI::App* add_ablation_command(CLI::App& app, AblationOptions& ablation) {
  CLI::App* command = app.add_subcommand(
      "ablation",
      "Print the ablation table of a run's seeded tests with variants (from its seeds.jsonl)");
  add_run_folder(command, ablation.run);
  command->add_option("--test", ablation.test, "Only this test");
  command->add_flag("--robust", ablation.robust,
                    "Also print, per variant, the interquartile mean with a percentile bootstrap "
                    "95% interval and the median with its order-statistic interval (for few seeds "
                    "or one that diverged)");
  return command;
}

CLI::App* add_graduate_command(CLI::App& app, GraduateOptions& graduate) {
  CLI::App* command = app.add_subcommand(
      "graduate",
      "Turn a capability (record_target) into a regression guard once the runs under RUNS met "
      "its target reliably: the lower 95% Wilson bound of its success rate over the last N runs "
      "at least the threshold (N = 10 and 0.7 need 10 of 10). The guard is a band from those "
      "runs' values by calibrate's tolerance-interval rule, written with its provenance; refuses "
      "with the numbers, and how many more met runs are needed, when the evidence is short. "
      "--demote turns a graduated guard back into a capability, recorded in the baseline");
  command->add_option("runs", graduate.runs, "Folder of run folders (the history)")
      ->check(CLI::ExistingDirectory);
  command->add_option("--test", graduate.test, "The capability test")->required();
  command->add_option("--metric", graduate.metric, "Its metric recorded with record_target")
      ->required();
  command->add_option("--baselines", graduate.baselines, "Baseline folder");
  command->add_option("--last", graduate.last, "The runs the decision looks at (N)")
      ->check(CLI::Range(2, 100000));
  command
      ->add_option("--min-lower-bound", graduate.min_lower_bound,
                   "The lower 95% Wilson bound of the success rate must reach this")
      ->check(CLI::Range(0.0, 1.0));
  command->add_option("--reason", graduate.reason, "Why (kept in the baseline)")->required();
  command->add_flag("--demote", graduate.demote,
                    "Remove the guard graduate wrote: the metric is a capability again");
  command->add_flag("--force", graduate.force, "Graduate from runs of a dirty tree anyway");
  return command;
}

// `baselines check` and `baselines adopt`: returns the two subcommands, the ones that are run.
std::pair<CLI::App*, CLI::App*> add_baselines_commands(CLI::App& app,
                                                       BaselinesCheckOptions& check_options,
                                                       BaselinesAdoptOptions& adopt) {
  CLI::App* baselines =
      app.add_subcommand("baselines", "Inspect the baseline files, or adopt this machine's values");
  CLI::App* check = baselines->add_subcommand(
      "check", "List stale baselines, tests without one, and values this machine cannot gate");
  check->add_option("--baselines", check_options.baselines, "Baseline folder");
  CLI::App* adopt_command = baselines->add_subcommand(
      "adopt",
      "Add this machine's values where the baselines hold them for other environment profiles "
      "only (the UNGATED metrics); portable values, other machines' values and values this "
      "machine has are never changed");
  add_run_folder(adopt_command, adopt.run);
  adopt_command->add_option("--confirm", adopt.confirm,
                            "A second run of the same commit on this machine: an exact value is "
                            "adopted only when both runs recorded it bit for bit");
  adopt_command->add_option("--baselines", adopt.baselines, "Baseline folder");
  adopt_command->add_option("--reason", adopt.reason,
                            "Why (kept in the provenance and in each value's history)");
  adopt_command->add_option("--filter", adopt.filter, "Adopt only the tests matching this filter");
  adopt_command->add_flag("--force", adopt.force, "Adopt from a failed, incomplete or dirty run");
  baselines->require_subcommand(1);
  return {check, adopt_command};
}

CLI::App* add_list_command(CLI::App& app, ListOptions& list) {
  CLI::App* command = app.add_subcommand("list", "List the tests, their tiers and parameters");
  add_selection(command, list.tiers, list.filter);
  command->add_option("--format", list.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  return command;
}

// Every command on `app`, each with the Command its parse selects; `baselines` first, whose
// two subcommands are the ones that run.
std::vector<std::pair<CLI::App*, Command>> add_commands(CLI::App& app, CommandLine& cl) {
  const auto [baselines_check, baselines_adopt] =
      add_baselines_commands(app, cl.baselines_check, cl.baselines_adopt);
  return {
      {add_run_command(app, cl.run), Command::kRun},
      {add_promote_command(app, cl.promote), Command::kPromote},
      {add_calibrate_command(app, cl.calibrate), Command::kCalibrate},
      {add_compare_command(app, cl.compare), Command::kCompare},
      {add_report_command(app, cl.report), Command::kReport},
      {add_merge_command(app, cl.merge), Command::kMerge},
      {add_notes_command(app, cl.notes), Command::kNotes},
      {add_ledger_command(app, cl.ledger), Command::kLedger},
      {add_rerun_command(app, cl.rerun), Command::kRerun},
      {add_history_command(app, cl.history), Command::kHistory},
      {add_bisect_command(app, cl.bisect), Command::kBisect},
      {add_ablation_command(app, cl.ablation), Command::kAblation},
      {add_graduate_command(app, cl.graduate), Command::kGraduate},
      {baselines_check, Command::kBaselinesCheck},
      {baselines_adopt, Command::kBaselinesAdopt},
      {add_list_command(app, cl.list), Command::kList},
  };
}

ParsedCommandLine exit_with(ExitCode code) {
  ParsedCommandLine parsed;
  parsed.exit_now = true;
  parsed.exit_code = static_cast<int>(code);
  return parsed;
}

}  // namespace

ParsedCommandLine parse_command_line(int argc, char** argv, const std::string& binary_name) {
  ParsedCommandLine parsed;
  CommandLine& cl = parsed.command_line;

  CLI::App app{
      "mlregress test binary: runs and lists ML regression tests. GoogleTest flags "
      "(--gtest_filter, --gtest_list_tests, ...) are accepted too.",
      binary_name};
  app.require_subcommand(1, 1);
  // Every option's default in --help, [in brackets], from the value itself: a default stated in
  // words beside it could drift from the code.
  app.option_defaults()->always_capture_default();
  app.footer(exit_code_footer());
  const std::vector<std::pair<CLI::App*, Command>> commands = add_commands(app, cl);

  // `run` is the default: insert it when the first argument is an option, not a command.
  std::vector<std::string> args(argv + 1, argv + argc);
  const bool wants_help = !args.empty() && (args[0] == "-h" || args[0] == "--help");
  if (args.empty() || (!wants_help && args[0].starts_with("-"))) args.insert(args.begin(), "run");
  const bool known =
      std::find(kCommandNames.begin(), kCommandNames.end(), args[0]) != kCommandNames.end();
  if (!known && !wants_help) {
    std::fprintf(stderr,
                 "%s: error: unknown command '%s' (expected run, list, promote, calibrate, "
                 "compare, report, merge, notes, ledger, rerun, history, bisect, ablation, "
                 "baselines or graduate)\n",
                 binary_name.c_str(), args[0].c_str());
    return exit_with(ExitCode::kUsageError);
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector in reverse order

  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    return exit_with(ExitCode::kPassed);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for the commands and options.\n",
                 binary_name.c_str(), e.what(), binary_name.c_str());
    return exit_with(ExitCode::kUsageError);
  }
  for (const auto& [command, which] : commands) {
    if (command->parsed()) cl.command = which;
  }
  return parsed;
}

}  // namespace mlregress::internal
