// The command line of a test binary. Planted: options without a command (run is the default),
// a negative seed that CLI11 would wrap to 2^64 - 1, a NaN or infinite --alpha that every range
// check lets through, options that only make sense together or apart, a misspelt command or
// tier. Each must stop with exit code usage_error before anything runs; good command lines must
// reach the fields the commands read.
#include "commands/cli_options.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "analysis/capability.h"
#include "execution/run_plan.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

constexpr int kUsage = static_cast<int>(ExitCode::kUsageError);

struct Parsed {
  ParsedCommandLine parsed;
  std::string out;
  std::string err;
  const CommandLine& cl() const { return parsed.command_line; }
};

// Parses `args` as the arguments after the binary's name, with what it printed.
Parsed parse(std::vector<std::string> args) {
  args.insert(args.begin(), "suite_tests");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  Parsed result;
  ::testing::internal::CaptureStdout();
  ::testing::internal::CaptureStderr();
  result.parsed = parse_command_line(static_cast<int>(args.size()), argv.data(), "suite_tests");
  result.err = ::testing::internal::GetCapturedStderr();
  result.out = ::testing::internal::GetCapturedStdout();
  return result;
}

// A usage error: nothing may run, and the message says what was wrong.
void expect_usage_error(const std::vector<std::string>& args, const std::string& says = "") {
  const Parsed p = parse(args);
  std::string line;
  for (const std::string& a : args) line += a + " ";
  EXPECT_TRUE(p.parsed.exit_now) << line;
  EXPECT_EQ(p.parsed.exit_code, kUsage) << line;
  EXPECT_THAT(p.err, HasSubstr("suite_tests: error: ")) << line;
  EXPECT_THAT(p.err, HasSubstr(says)) << line;
}

// A command line that parses: no exit, nothing printed.
Parsed parse_ok(const std::vector<std::string>& args) {
  Parsed p = parse(args);
  std::string line;
  for (const std::string& a : args) line += a + " ";
  EXPECT_FALSE(p.parsed.exit_now) << line << "\n" << p.err;
  EXPECT_EQ(p.parsed.exit_code, 0) << line;
  return p;
}

TEST(CliOptionsRun, RunIsTheCommandWhenNoneIsGiven) {
  EXPECT_EQ(parse_ok({}).cl().command, Command::kRun);
  const Parsed p = parse_ok({"--seed", "5", "--filter", "Cnn*"});
  EXPECT_EQ(p.cl().command, Command::kRun);
  EXPECT_EQ(p.cl().run.seed, 5u);
  EXPECT_EQ(p.cl().run.filter, "Cnn*");
  EXPECT_EQ(parse_ok({"run", "--seed", "6"}).cl().run.seed, 6u);
}

TEST(CliOptionsRun, DefaultsAreTheDocumentedOnes) {
  const RunOptions run = parse_ok({}).cl().run;
  EXPECT_EQ(run.alpha, kDefaultAlpha);
  EXPECT_EQ(run.out, "runs");
  EXPECT_EQ(run.color, "auto");
  EXPECT_EQ(run.window, 10u);
  EXPECT_EQ(run.seed, 0u);
  EXPECT_EQ(run.threads, 1);
  EXPECT_EQ(run.jobs, 0);  // the number of cores
  EXPECT_EQ(run.seed_timeout_s, 600.0);
  EXPECT_EQ(run.timeout_s, 0.0);  // per tier
  EXPECT_EQ(run.ab_rounds, 10);
  EXPECT_TRUE(run.tiers.empty());
  EXPECT_TRUE(run.baselines.empty());
  EXPECT_TRUE(run.baseline_history.empty());
  EXPECT_FALSE(run.all_seeds);
  EXPECT_FALSE(run.strict_env);
  // The other judging commands start from the same level.
  EXPECT_EQ(parse_ok({"compare", "a", "b"}).cl().compare.alpha, kDefaultAlpha);
  EXPECT_EQ(parse_ok({"report", "r"}).cl().report.alpha, kDefaultAlpha);
  EXPECT_EQ(parse_ok({"merge", "s0"}).cl().merge.alpha, kDefaultAlpha);
}

TEST(CliOptionsRun, EveryOptionReachesItsField) {
  const Parsed p = parse_ok({"run",
                             "--tier",
                             "medium",
                             "--filter",
                             "Cnn*",
                             "--set",
                             "Cnn.lr=0.1",
                             "--set",
                             "Cnn.steps=3",
                             "--seed",
                             "9223372036854775807",
                             "--threads",
                             "4",
                             "--out",
                             "out",
                             "--junit",
                             "j.xml",
                             "--color",
                             "never",
                             "--ctest-measurements",
                             "--baselines",
                             "b",
                             "--strict-env",
                             "--repo",
                             "repo",
                             "-j",
                             "3",
                             "--timeout",
                             "30",
                             "--seed-timeout",
                             "60",
                             "--alpha",
                             "0.05",
                             "--all-seeds",
                             "--hypothesis",
                             "h",
                             "--change",
                             "c",
                             "--criteria",
                             "k",
                             "--notes",
                             "n.md",
                             "--shard",
                             "1/4",
                             "--shard-count",
                             "4",
                             "--no-shard",
                             "--shard-weights",
                             "w",
                             "--ab",
                             "other",
                             "--rounds",
                             "20",
                             "--ab-timeout",
                             "90",
                             "--ab-margin",
                             "0.1"});
  const RunOptions& run = p.cl().run;
  EXPECT_THAT(run.tiers, ElementsAre("medium"));
  EXPECT_EQ(run.filter, "Cnn*");
  EXPECT_THAT(run.sets, ElementsAre("Cnn.lr=0.1", "Cnn.steps=3"));
  EXPECT_EQ(run.seed, kMaxSeed);
  EXPECT_EQ(run.threads, 4);
  EXPECT_EQ(run.out, "out");
  EXPECT_EQ(run.junit, "j.xml");
  EXPECT_EQ(run.color, "never");
  EXPECT_TRUE(run.ctest_measurements);
  EXPECT_EQ(run.baselines, "b");
  EXPECT_TRUE(run.strict_env);
  EXPECT_EQ(run.repo, "repo");
  EXPECT_EQ(run.jobs, 3);
  EXPECT_EQ(run.timeout_s, 30.0);
  EXPECT_EQ(run.seed_timeout_s, 60.0);
  EXPECT_EQ(run.alpha, 0.05);
  EXPECT_TRUE(run.all_seeds);
  EXPECT_EQ(run.hypothesis, "h");
  EXPECT_EQ(run.change, "c");
  EXPECT_EQ(run.criteria, "k");
  EXPECT_EQ(run.notes_file, "n.md");
  EXPECT_EQ(run.shard, "1/4");
  EXPECT_EQ(run.shard_count, 4);
  EXPECT_TRUE(run.no_shard);
  EXPECT_EQ(run.shard_weights, "w");
  EXPECT_EQ(run.ab_binary, "other");
  EXPECT_EQ(run.ab_rounds, 20);
  EXPECT_EQ(run.ab_timeout_s, 90.0);
  EXPECT_EQ(run.ab_margin, 0.1);

  const Parsed history = parse_ok({"--baseline-history", "runs", "--window", "5"});
  EXPECT_EQ(history.cl().run.baseline_history, "runs");
  EXPECT_EQ(history.cl().run.window, 5u);
}

TEST(CliOptionsRun, TiersSplitAtCommasAndRepeat) {
  EXPECT_THAT(parse_ok({"--tier", "fast,medium"}).cl().run.tiers, ElementsAre("fast", "medium"));
  EXPECT_THAT(parse_ok({"--tier", "fast", "--tier", "full"}).cl().run.tiers,
              ElementsAre("fast", "full"));
  EXPECT_THAT(parse_ok({"list", "--tier", "medium,full"}).cl().list.tiers,
              ElementsAre("medium", "full"));
}

TEST(CliOptionsRun, AnUnknownTierIsAUsageError) {
  expect_usage_error({"--tier", "slow"}, "slow");
  expect_usage_error({"--tier", "fast,slow"}, "slow");
  expect_usage_error({"list", "--tier", "nightly"}, "nightly");
}

// run --determinism: the three modes reach the field (warn when not given); a misspelt mode
// stops with the list of modes before anything runs.
TEST(CliOptionsRun, DeterminismTakesTheThreeModesAndNothingElse) {
  EXPECT_EQ(parse_ok({}).cl().run.determinism, "warn");
  for (const std::string mode : {"off", "warn", "strict"}) {
    EXPECT_EQ(parse_ok({"--determinism", mode}).cl().run.determinism, mode);
  }
  expect_usage_error({"--determinism", "sometimes"},
                     "--determinism is off, warn or strict, not 'sometimes'");
  expect_usage_error({"--determinism", "Strict"}, "not 'Strict'");
  expect_usage_error({"--determinism", ""});
}

TEST(CliOptionsRun, ASeedOutsideWhatBaselineFilesHoldIsAUsageError) {
  // "-1" would otherwise become 18446744073709551615, which no baseline file can hold.
  expect_usage_error({"--seed", "-1"}, "a seed is a whole number from 0 to 9223372036854775807");
  expect_usage_error({"--seed", "9223372036854775808"}, "9223372036854775808");
  expect_usage_error({"--seed", "18446744073709551616"});
  expect_usage_error({"--seed", "1.5"});
  expect_usage_error({"--seed", "three"});
  expect_usage_error({"rerun", "runs/latest", "--test", "Study", "--seed", "-1"},
                     "a seed is a whole number");
  EXPECT_EQ(parse_ok({"rerun", "r", "--test", "Study", "--seed", "3"}).cl().rerun.seed, 3u);
  EXPECT_FALSE(parse_ok({"rerun", "r", "--test", "Study"}).cl().rerun.seed.has_value());
}

TEST(CliOptions, AlphaIsAFiniteLevelInItsRangeForEveryCommandThatJudges) {
  const std::vector<std::vector<std::string>> commands = {
      {"run"}, {"compare", "a", "b"}, {"report", "r"}, {"merge", "s0"}};
  for (const std::vector<std::string>& command : commands) {
    for (const char* bad :
         {"nan", "NaN", "inf", "-inf", "0", "-0.01", "0.6", "1", "1e-10", "0.01x", "one"}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--alpha", bad});
      expect_usage_error(args, "--alpha");
    }
    for (const char* good : {"0.5", "1e-9", "0.05"}) {
      std::vector<std::string> args = command;
      args.insert(args.end(), {"--alpha", good});
      parse_ok(args);
    }
  }
}

TEST(CliOptionsRun, OtherNumbersAreCheckedToo) {
  expect_usage_error({"--timeout", "0"});
  expect_usage_error({"--timeout", "nan"});
  expect_usage_error({"--timeout", "inf"});
  expect_usage_error({"--seed-timeout", "-5"});
  expect_usage_error({"--threads", "0"});
  expect_usage_error({"--jobs", "-1"});
  expect_usage_error({"--rounds", "1"});
  expect_usage_error({"--ab-margin", "nan"});
  expect_usage_error({"--color", "blue"});
  expect_usage_error({"history", "--max-p", "nan"});
  expect_usage_error({"history", "--min-magnitude", "-0.1"});
}

TEST(CliOptionsRun, WindowNeedsBaselineHistoryAndBaselinesExcludeIt) {
  // Without --baseline-history a --window would be silently ignored.
  expect_usage_error({"--window", "5"}, "--window");
  expect_usage_error({"--baseline-history", "runs", "--window", "0"}, "--window");
  // Two baselines at once: which one judged the run?
  expect_usage_error({"--baselines", "b", "--baseline-history", "runs"}, "--baseline");
  expect_usage_error({"report", "r", "--against", "a", "--baselines", "b"});
}

TEST(CliOptions, AnUnknownCommandOrOptionIsAUsageError) {
  expect_usage_error({"frobnicate"}, "unknown command 'frobnicate'");
  // A misspelt command must not be taken for a run with a positional argument.
  expect_usage_error({"promte", "runs/latest"}, "unknown command 'promte'");
  expect_usage_error({"--frobnicate"}, "--frobnicate");
  expect_usage_error({"list", "--seed", "3"}, "--seed");
  // Required arguments and subcommands.
  expect_usage_error({"promote"}, "run");
  expect_usage_error({"compare", "a"});
  expect_usage_error({"rerun", "r"}, "--test");
  expect_usage_error({"baselines"});
}

TEST(CliOptions, HelpExitsWithZero) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{
           {"--help"}, {"-h"}, {"run", "--help"}, {"promote", "--help"}}) {
    const Parsed p = parse(args);
    EXPECT_TRUE(p.parsed.exit_now) << args.front();
    EXPECT_EQ(p.parsed.exit_code, 0) << args.front();
    EXPECT_THAT(p.out, HasSubstr("--")) << args.front();
  }
  // The top-level help lists the commands and the exit codes.
  const Parsed top = parse({"--help"});
  EXPECT_THAT(top.out, HasSubstr("promote"));
  EXPECT_THAT(top.out, HasSubstr("Exit codes:"));
  EXPECT_THAT(top.out, HasSubstr("usage_error"));
  EXPECT_THAT(parse({"run", "--help"}).out, HasSubstr("--baseline-history"));
}

TEST(CliOptionsCommands, EachCommandParsesIntoItsOwnOptions) {
  {
    const Parsed p = parse_ok({"promote", "runs/latest", "--baselines", "b", "--reason", "why",
                               "--filter", "Cnn*", "--force"});
    EXPECT_EQ(p.cl().command, Command::kPromote);
    EXPECT_EQ(p.cl().promote.run, "runs/latest");
    EXPECT_EQ(p.cl().promote.baselines, "b");
    EXPECT_EQ(p.cl().promote.reason, "why");
    EXPECT_EQ(p.cl().promote.filter, "Cnn*");
    EXPECT_TRUE(p.cl().promote.force);
    EXPECT_FALSE(p.cl().promote.add_seeds);
    EXPECT_EQ(parse_ok({"promote", "r"}).cl().promote.baselines, "baselines");
    EXPECT_TRUE(parse_ok({"promote", "r", "--add-seeds"}).cl().promote.add_seeds);
    EXPECT_THAT(parse({"promote", "--help"}).out, HasSubstr("--add-seeds"));
    EXPECT_TRUE(parse_ok({"promote", "r", "--paired-spread"}).cl().promote.paired_spread);
    EXPECT_FALSE(p.cl().promote.paired_spread);
    EXPECT_THAT(parse({"promote", "--help"}).out, HasSubstr("--paired-spread"));
    EXPECT_TRUE(
        parse_ok({"promote", "r", "--paired-spread", "--add-pairs"}).cl().promote.add_pairs);
    expect_usage_error({"promote", "r", "--add-pairs"}, "--paired-spread");
  }
  {
    const Parsed p = parse_ok({"compare", "a", "b", "--alpha", "0.05", "--allow-incomplete"});
    EXPECT_EQ(p.cl().command, Command::kCompare);
    EXPECT_EQ(p.cl().compare.run_a, "a");
    EXPECT_EQ(p.cl().compare.run_b, "b");
    EXPECT_EQ(p.cl().compare.alpha, 0.05);
    EXPECT_TRUE(p.cl().compare.allow_incomplete);
    EXPECT_TRUE(p.cl().compare.constraints.empty());
  }
  {
    // --constraint takes one text each time: the run folders after it stay positional.
    const Parsed p = parse_ok({"compare", "A", "B", "--constraint", "peak <= 1.10x", "--constraint",
                               "val_loss <= +0.5%"});
    EXPECT_EQ(p.cl().compare.run_a, "A");
    EXPECT_EQ(p.cl().compare.run_b, "B");
    EXPECT_THAT(p.cl().compare.constraints, ElementsAre("peak <= 1.10x", "val_loss <= +0.5%"));
  }
  {
    const Parsed p = parse_ok({"compare", "--constraint", "peak <= 1.10x", "A", "B"});
    EXPECT_EQ(p.cl().compare.run_a, "A");
    EXPECT_EQ(p.cl().compare.run_b, "B");
    EXPECT_THAT(p.cl().compare.constraints, ElementsAre("peak <= 1.10x"));
  }
  {
    const Parsed p = parse_ok({"report", "r", "--baselines", "b", "--format", "markdown", "--out",
                               "-", "--alpha", "0.02", "--history", "h1", "h2", "--repo", "g"});
    EXPECT_EQ(p.cl().command, Command::kReport);
    EXPECT_EQ(p.cl().report.run, "r");
    EXPECT_EQ(p.cl().report.baselines, "b");
    EXPECT_EQ(p.cl().report.format, "markdown");
    EXPECT_EQ(p.cl().report.out, "-");
    EXPECT_EQ(p.cl().report.alpha, 0.02);
    EXPECT_THAT(p.cl().report.history, ElementsAre("h1", "h2"));
    EXPECT_EQ(p.cl().report.repo, "g");
    EXPECT_EQ(parse_ok({"report", "r"}).cl().report.format, "html");
  }
  {
    const Parsed p = parse_ok({"merge", "s0", "s1", "--out", "o", "--baselines", "b", "--junit",
                               "j.xml", "--color", "always", "--alpha", "0.02", "--force"});
    EXPECT_EQ(p.cl().command, Command::kMerge);
    EXPECT_THAT(p.cl().merge.shards, ElementsAre("s0", "s1"));
    EXPECT_EQ(p.cl().merge.out, "o");
    EXPECT_EQ(p.cl().merge.baselines, "b");
    EXPECT_EQ(p.cl().merge.junit, "j.xml");
    EXPECT_EQ(p.cl().merge.color, "always");
    EXPECT_EQ(p.cl().merge.alpha, 0.02);
    EXPECT_TRUE(p.cl().merge.force);
    EXPECT_EQ(parse_ok({"merge", "s0"}).cl().merge.out, "runs");
  }
  {
    const Parsed p = parse_ok({"notes", "r", "--interpretation", "it worked", "--next", "more"});
    EXPECT_EQ(p.cl().command, Command::kNotes);
    EXPECT_EQ(p.cl().notes.run, "r");
    EXPECT_EQ(p.cl().notes.interpretation, "it worked");
    EXPECT_EQ(p.cl().notes.next, "more");
  }
  {
    EXPECT_EQ(parse_ok({"ledger"}).cl().command, Command::kLedger);
    EXPECT_EQ(parse_ok({"ledger"}).cl().ledger.runs, "runs");
    EXPECT_EQ(parse_ok({"ledger", "elsewhere"}).cl().ledger.runs, "elsewhere");
    EXPECT_EQ(parse_ok({"ledger"}).cl().ledger.format, "text");
    const Parsed p = parse_ok({"ledger", "r", "--metric", "loss", "--metric", "tokens_per_s",
                               "--test", "Fast.Lm", "--format", "json"});
    EXPECT_EQ(p.cl().ledger.metrics, (std::vector<std::string>{"loss", "tokens_per_s"}));
    EXPECT_EQ(p.cl().ledger.test, "Fast.Lm");
    EXPECT_EQ(p.cl().ledger.format, "json");
    expect_usage_error({"ledger", "r", "--format", "html"}, "html");
  }
  {
    const Parsed p = parse_ok({"rerun", "r", "--test", "Fast.Cnn", "--seed", "4", "--out", "o",
                               "--repo", "g", "--force"});
    EXPECT_EQ(p.cl().command, Command::kRerun);
    EXPECT_EQ(p.cl().rerun.run, "r");
    EXPECT_EQ(p.cl().rerun.test, "Fast.Cnn");
    EXPECT_EQ(p.cl().rerun.seed, 4u);
    EXPECT_EQ(p.cl().rerun.out, "o");
    EXPECT_EQ(p.cl().rerun.repo, "g");
    EXPECT_TRUE(p.cl().rerun.force);
  }
  {
    const Parsed p =
        parse_ok({"history", "a", "b", "--test", "Cnn", "--metric", "loss", "--format", "json",
                  "--out", "h.html", "--repo", "g", "--max-p", "0.01", "--min-magnitude", "0.1"});
    EXPECT_EQ(p.cl().command, Command::kHistory);
    EXPECT_THAT(p.cl().history.paths, ElementsAre("a", "b"));
    EXPECT_EQ(p.cl().history.test, "Cnn");
    EXPECT_EQ(p.cl().history.metric, "loss");
    EXPECT_EQ(p.cl().history.format, "json");
    EXPECT_EQ(p.cl().history.out, "h.html");
    EXPECT_EQ(p.cl().history.repo, "g");
    EXPECT_EQ(p.cl().history.max_p, 0.01);
    EXPECT_EQ(p.cl().history.min_magnitude, 0.1);
    EXPECT_THAT(parse_ok({"history"}).cl().history.paths, ElementsAre("runs"));
  }
  {
    const Parsed p = parse_ok({"bisect", "v1", "v2", "--test", "Cnn", "--metric", "loss", "--build",
                               "cmake --build build", "--binary", "bin", "--repo", "g", "--out",
                               "o", "--run-args", "--seed 3", "--no-rebuild"});
    EXPECT_EQ(p.cl().command, Command::kBisect);
    EXPECT_EQ(p.cl().bisect.good, "v1");
    EXPECT_EQ(p.cl().bisect.bad, "v2");
    EXPECT_EQ(p.cl().bisect.test, "Cnn");
    EXPECT_EQ(p.cl().bisect.metric, "loss");
    EXPECT_EQ(p.cl().bisect.build, "cmake --build build");
    EXPECT_EQ(p.cl().bisect.binary, "bin");
    EXPECT_EQ(p.cl().bisect.repo, "g");
    EXPECT_EQ(p.cl().bisect.out, "o");
    EXPECT_EQ(p.cl().bisect.run_args, "--seed 3");
    EXPECT_TRUE(p.cl().bisect.no_rebuild);
    EXPECT_EQ(parse_ok({"bisect"}).cl().bisect.out, "runs/bisect");
  }
  {
    const Parsed p = parse_ok({"ablation", "r", "--test", "Study"});
    EXPECT_EQ(p.cl().command, Command::kAblation);
    EXPECT_EQ(p.cl().ablation.run, "r");
    EXPECT_EQ(p.cl().ablation.test, "Study");
    EXPECT_FALSE(p.cl().ablation.robust);
    EXPECT_TRUE(parse_ok({"ablation", "r", "--robust"}).cl().ablation.robust);
  }
  {
    const Parsed p = parse_ok({"baselines", "check", "--baselines", "b"});
    EXPECT_EQ(p.cl().command, Command::kBaselinesCheck);
    EXPECT_EQ(p.cl().baselines_check.baselines, "b");
    EXPECT_EQ(parse_ok({"baselines", "check"}).cl().baselines_check.baselines, "baselines");
  }
  {
    const Parsed p = parse_ok({"list", "--tier", "fast", "--filter", "Cnn*", "--format", "json"});
    EXPECT_EQ(p.cl().command, Command::kList);
    EXPECT_THAT(p.cl().list.tiers, ElementsAre("fast"));
    EXPECT_EQ(p.cl().list.filter, "Cnn*");
    EXPECT_EQ(p.cl().list.format, "json");
    // The run's options stay at their defaults: a list must not look like a run.
    EXPECT_TRUE(p.cl().run.tiers.empty());
    EXPECT_TRUE(p.cl().run.filter.empty());
  }
}

// graduate: its defaults are the rule's (analysis/capability.h), and a reason is required.
TEST(CliOptionsGraduate, DefaultsAreTheRulesAndEveryOptionReachesItsField) {
  const Parsed p = parse_ok({"graduate", ".", "--test", "T", "--metric", "m", "--reason", "why"});
  EXPECT_EQ(p.cl().command, Command::kGraduate);
  const GraduateOptions& g = p.cl().graduate;
  EXPECT_EQ(g.runs, ".");
  EXPECT_EQ(g.test, "T");
  EXPECT_EQ(g.metric, "m");
  EXPECT_EQ(g.reason, "why");
  EXPECT_EQ(g.baselines, "baselines");
  EXPECT_EQ(g.last, kGraduationDefaultRuns);
  EXPECT_EQ(g.min_lower_bound, kGraduationDefaultLowerBound);
  EXPECT_FALSE(g.demote);
  const Parsed d =
      parse_ok({"graduate", "--test", "T", "--metric", "m", "--reason", "why", "--demote", "--last",
                "20", "--min-lower-bound", "0.5", "--force", "--baselines", "b"});
  EXPECT_TRUE(d.cl().graduate.demote);
  EXPECT_TRUE(d.cl().graduate.force);
  EXPECT_EQ(d.cl().graduate.last, 20);
  EXPECT_EQ(d.cl().graduate.min_lower_bound, 0.5);
  EXPECT_EQ(d.cl().graduate.baselines, "b");
}

TEST(CliOptionsGraduate, AMissingReasonOrAWindowOfOneIsAUsageError) {
  expect_usage_error({"graduate", ".", "--test", "T", "--metric", "m"}, "--reason");
  expect_usage_error(
      {"graduate", ".", "--test", "T", "--metric", "m", "--reason", "r", "--last", "1"}, "--last");
}

}  // namespace
}  // namespace mlregress::internal
