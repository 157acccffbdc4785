#include "cli_options.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "mlregress/exit_code.h"

namespace mlregress::internal {
namespace {

const std::vector<std::string> kTierNames = {"fast", "medium", "full"};

void add_selection(CLI::App* command, std::vector<std::string>& tiers, std::string& filter) {
  command->add_option("--tier", tiers, "Tiers to select: fast, medium, full (repeat or comma-separate)")
      ->delimiter(',')
      ->check(CLI::IsMember(kTierNames));
  command->add_option("--filter", filter,
                      "GoogleTest-style filter: 'Cnn*:Mlp*-*Slow'; a pattern with a '.' matches the "
                      "full name (Fast.Cnn*), one without matches the test name");
}

}  // namespace

ParsedCommandLine parse_command_line(int argc, char** argv, const std::string& binary_name) {
  ParsedCommandLine parsed;
  CommandLine& cl = parsed.command_line;

  CLI::App app{"mlregress test binary: runs and lists ML regression tests. GoogleTest flags "
               "(--gtest_filter, --gtest_list_tests, ...) are accepted too.",
               binary_name};
  app.require_subcommand(1, 1);
  app.footer(fmt::format(
      "Exit codes: 0 passed, 1 test failed, 2 regression, 3 no tests matched, 4 usage error, "
      "5 output error, 6 baseline error, 7 run folder error, 8 promotion refused, "
      "70 internal error, 77 all skipped."));

  CLI::App* run = app.add_subcommand("run", "Run the selected tests (the default command)");
  add_selection(run, cl.run.tiers, cl.run.filter);
  run->add_option("--set", cl.run.sets, "Override a parameter: TEST.KEY=VALUE (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run->add_option("--seed", cl.run.seed, "Seed every test starts from (default 0)");
  run->add_option("--threads", cl.run.threads, "Intra-op threads for every test (default 1)")
      ->check(CLI::Range(1, 1024));
  run->add_option("--out", cl.run.out, "Folder that holds the run folders (default runs)");
  run->add_option("--junit", cl.run.junit, "Also write the JUnit XML to this file");
  run->add_option("--color", cl.run.color, "Colour the console: auto, always, never")
      ->check(CLI::IsMember({"auto", "always", "never"}));
  run->add_option("--baselines", cl.run.baselines,
                  "Compare every metric with the baselines in DIR/<binary>/*.toml");
  run->add_flag("--strict-env", cl.run.strict_env,
                "A baseline recorded only for another environment profile fails the test");
  run->add_option("--jobs,-j", cl.run.jobs,
                  "Seeded tests: seeds run in this many single-threaded worker processes at once "
                  "(default: the number of cores); results do not depend on it")
      ->check(CLI::Range(0, 1024));
  run->add_option("--seed-timeout", cl.run.seed_timeout_s,
                  "Seconds one seed of a seeded test may run before it is killed and reported as an "
                  "error for that seed (default 600)")
      ->check(CLI::PositiveNumber);
  run->add_option("--alpha", cl.run.alpha,
                  "Family-wise significance level of the multi-seed gate, Holm-adjusted across the "
                  "run (default 0.01)")
      ->check(CLI::Range(1e-9, 0.5));
  run->add_option("--ab", cl.run.ab_binary,
                  "Interleaved A/B timing: run the timing tests of this binary and of OTHER_BINARY "
                  "in alternating, randomised order and test the per-round log-ratio");
  run->add_option("--rounds", cl.run.ab_rounds, "A/B rounds (default 10)")->check(CLI::Range(2, 1000));
  run->add_option("--ab-timeout", cl.run.ab_timeout_s,
                  "Seconds one child run of --ab may take before it is killed and the comparison stops "
                  "(default 600)")
      ->check(CLI::PositiveNumber);
  run->add_option("--ab-margin", cl.run.ab_margin,
                  "A/B: the median slowdown a REGRESSION must exceed, relative (default 0.05 = 5%)")
      ->check(CLI::Range(0.0, 10.0));

  CLI::App* promote = app.add_subcommand("promote", "Make a run's metrics the new baseline");
  promote->add_option("run", cl.promote.run, "Run folder (e.g. runs/latest)")->required();
  promote->add_option("--baselines", cl.promote.baselines, "Baseline folder (default baselines)");
  promote->add_option("--reason", cl.promote.reason, "Why the baseline changes (kept in the history)");
  promote->add_option("--filter", cl.promote.filter, "Promote only the tests matching this filter");
  promote->add_flag("--force", cl.promote.force, "Promote a failed, incomplete or dirty run anyway");

  CLI::App* compare = app.add_subcommand("compare", "Compare run B against run A (A is the baseline)");
  compare->add_option("run_a", cl.compare.run_a, "Baseline run folder")->required();
  compare->add_option("run_b", cl.compare.run_b, "Candidate run folder")->required();
  compare->add_option("--alpha", cl.compare.alpha, "Family-wise level of the multi-seed gate (default 0.01)")
      ->check(CLI::Range(1e-9, 0.5));

  CLI::App* ablation = app.add_subcommand(
      "ablation", "Print the ablation table of a run's seeded tests with variants (from its seeds.jsonl)");
  ablation->add_option("run", cl.ablation.run, "Run folder (e.g. runs/latest)")->required();
  ablation->add_option("--test", cl.ablation.test, "Only this test");

  CLI::App* baselines = app.add_subcommand("baselines", "Inspect the baseline files");
  CLI::App* check = baselines->add_subcommand("check", "List stale baselines, tests without one, "
                                                       "and entries from other environments");
  check->add_option("--baselines", cl.baselines_check.baselines, "Baseline folder (default baselines)");
  baselines->require_subcommand(1);

  CLI::App* list = app.add_subcommand("list", "List the tests, their tiers and parameters");
  add_selection(list, cl.list.tiers, cl.list.filter);
  list->add_option("--format", cl.list.format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));

  // `run` is the default: insert it when the first argument is an option, not a command.
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) args.emplace_back(argv[i]);
  const bool wants_help = !args.empty() && (args[0] == "-h" || args[0] == "--help");
  if (args.empty() || (!wants_help && args[0].rfind("-", 0) == 0)) args.insert(args.begin(), "run");
  const bool known = args[0] == "run" || args[0] == "list" || args[0] == "promote" ||
                     args[0] == "compare" || args[0] == "baselines" || args[0] == "ablation";
  if (!known && !wants_help) {
    std::fprintf(stderr, "%s: error: unknown command '%s' (expected run, list, promote, compare, ablation or baselines)\n",
                 binary_name.c_str(), args[0].c_str());
    parsed.exit_now = true;
    parsed.exit_code = static_cast<int>(ExitCode::kUsageError);
    return parsed;
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes the vector in reverse order

  try {
    app.parse(args);
  } catch (const CLI::CallForHelp& e) {
    app.exit(e);
    parsed.exit_now = true;
    parsed.exit_code = static_cast<int>(ExitCode::kPassed);
    return parsed;
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for the commands and options.\n",
                 binary_name.c_str(), e.what(), binary_name.c_str());
    parsed.exit_now = true;
    parsed.exit_code = static_cast<int>(ExitCode::kUsageError);
    return parsed;
  }
  cl.command = list->parsed()      ? Command::kList
                : promote->parsed() ? Command::kPromote
                : compare->parsed() ? Command::kCompare
                : check->parsed()   ? Command::kBaselinesCheck
                : ablation->parsed() ? Command::kAblation
                                    : Command::kRun;
  return parsed;
}

}  // namespace mlregress::internal
