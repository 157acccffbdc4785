#include "commands/ab_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "commands/ab_rounds.h"
#include "environment/environment_probe.h"
#include "record/json_text.h"
#include "registry/param_overrides.h"
#include "registry/test_selection.h"
#include "renderers/ab_html_report.h"
#include "storage/run_folder.h"
#include "support/atomic_file.h"
#include "support/child_process.h"
#include "support/clock.h"
#include "support/errors.h"
#include "support/stop_signal.h"
#include "timing/ab_report.h"

namespace mlregress::internal {
namespace {

// Which timing tests both builds have, and which only one of them has.
struct AbSelection {
  std::vector<std::string> compared, only_candidate, only_other;
};

AbSelection select_compared_tests(const std::set<std::string>& candidate_tests,
                                  const std::set<std::string>& other_tests,
                                  const TestRegistry& registry) {
  AbSelection s;
  for (const std::string& name : candidate_tests) {
    (other_tests.count(name) ? s.compared : s.only_candidate).push_back(name);
  }
  // The other build's timing tests this binary does not have at all (removed or renamed);
  // those merely outside this selection are not news.
  for (const std::string& name : other_tests) {
    if (registry.find(name) == nullptr) s.only_other.push_back(name);
  }
  return s;
}

void print_header(const AbSelection& s, const RunOptions& options, const std::string& candidate,
                  const AbSettings& settings) {
  std::string sets;
  for (const std::string& set : options.sets) sets += " --set " + set;
  std::printf(
      "A/B timing: %zu test%s, %d rounds\n  candidate: %s (this binary)%s\n  other:     %s\n",
      s.compared.size(), s.compared.size() == 1 ? "" : "s", options.ab_rounds, candidate.c_str(),
      sets.c_str(), options.ab_binary.c_str());
  for (const std::string& name : s.only_candidate)
    std::printf("  not in the other binary: %s\n", name.c_str());
  for (const std::string& name : s.only_other)
    std::printf("  only in the other binary: %s\n", name.c_str());
  if (std::pow(0.5, options.ab_rounds) >= settings.alpha) {
    std::printf(
        "  warning: with %d rounds the smallest possible p-value is %.3g, not below alpha %g: "
        "no REGRESSION can be found; use more rounds\n",
        options.ab_rounds, std::pow(0.5, options.ab_rounds), settings.alpha);
  }
  std::fflush(stdout);
}

// The timing tests of this binary that the selection picks. A --set typo fails here, before
// anything runs.
std::set<std::string> selected_timing_tests(const RunOptions& options,
                                            const std::string& gtest_filter) {
  if (!options.baselines.empty() || !options.junit.empty()) {
    throw ConfigError(
        "--ab compares two builds with each other; --baselines and --junit do not apply");
  }
  if (const std::string why = why_not_executable(options.ab_binary); !why.empty()) {
    throw ConfigError("--ab: cannot run the other binary: " + why);
  }
  const TestRegistry& registry = TestRegistry::instance();
  parse_param_overrides(options.sets, registry);
  std::set<std::string> names;
  for (const RegisteredTest* test :
       select_tests(registry, options.tiers, options.filter, gtest_filter)) {
    if (test->timing) names.insert(test->name);
  }
  return names;
}

// What the rounds concluded: the per-metric results, or why there are none.
struct AbOutcome {
  std::vector<AbMetricResult> results;
  std::string failure;
  ExitCode code = ExitCode::kPassed;
};

AbOutcome judge_rounds(const AbRounds& rounds, const AbSettings& settings) {
  AbOutcome outcome;
  outcome.failure = rounds.failure;
  if (outcome.failure.empty()) {
    outcome.results = analyse_ab(rounds.series, settings);
    if (outcome.results.empty()) {
      outcome.failure =
          "the timing tests recorded no timing metric (record_throughput, or the Timing policy)";
    }
  }
  for (const AbMetricResult& r : outcome.results) {
    if (r.verdict == Verdict::kRegression) outcome.code = ExitCode::kRegression;
  }
  if (!outcome.failure.empty()) outcome.code = ExitCode::kTestFailed;
  return outcome;
}

// ab.json (runner/docs/timing.md).
nlohmann::json ab_document(const LedgerEntry& entry, const RunOptions& options,
                           const std::string& candidate, const AbSettings& settings,
                           const AbSelection& selection, const AbRounds& rounds,
                           const AbOutcome& outcome) {
  return {{"schema_version", 1},
          {"kind", "ab"},
          {"run",
           {{"id", entry.run_id},
            {"binary", entry.binary},
            {"started_at", entry.started_at},
            {"finished_at", utc_now_iso8601()},
            {"duration_s", entry.duration_s},
            {"exit_code", static_cast<int>(outcome.code)},
            {"exit_status", exit_code_name(outcome.code)}}},
          {"candidate", {{"path", candidate}, {"sets", options.sets}}},
          {"other", {{"path", options.ab_binary}}},
          {"settings",
           {{"rounds", options.ab_rounds},
            {"alpha", settings.alpha},
            {"margin", settings.margin},
            {"seed", options.seed},
            {"threads", options.threads},
            {"tiers", options.tiers},
            {"filter", options.filter},
            {"order_seed", rounds.order_seed}}},
          {"tests", selection.compared},
          {"only_in_candidate", selection.only_candidate},
          {"only_in_other", selection.only_other},
          {"rounds", rounds.log},
          {"metrics", ab_metrics_json(outcome.results)},
          {"error", outcome.failure.empty() ? nlohmann::json() : nlohmann::json(outcome.failure)}};
}

// The A/B run's folder with its environment.json and rounds/, where each round's runs go.
RunFolder create_ab_folder(const RunOptions& options, const RunnerHooks& hooks,
                           std::chrono::system_clock::time_point start, const GitInfo& git) {
  const RunFolder folder = create_run_folder(options.out, start, git.short_commit());
  write_file_atomically(folder.path + "/environment.json",
                        json_text(probe_environment(git, hooks, nullptr), 2) + "\n");
  const std::string rounds_folder = folder.path + "/rounds";
  std::error_code not_made;
  std::filesystem::create_directories(rounds_folder, not_made);
  if (not_made) {
    throw OutputError(
        fmt::format("--ab: cannot create '{}': {}", rounds_folder, not_made.message()));
  }
  return folder;
}

// The A/B run's line in ledger.jsonl; its duration ends now.
LedgerEntry ab_ledger_entry(const RunFolder& folder, const RunOptions& options,
                            const std::string& binary, std::chrono::system_clock::time_point start,
                            std::chrono::steady_clock::time_point steady_start, const GitInfo& git,
                            ExitCode code) {
  LedgerEntry entry;
  entry.run_id = folder.run_id;
  entry.kind = "ab";
  entry.binary = binary;
  entry.other_binary = options.ab_binary;
  entry.started_at = utc_iso8601(start);
  entry.duration_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  entry.git = git;
  entry.exit_code = code;
  return entry;
}

// ab.json, then report.html from it (a report that cannot be written is said, not fatal), then
// `latest` and the run's line in the ledger.
void write_ab_record(const RunFolder& folder, const LedgerEntry& entry,
                     const nlohmann::json& document, const std::string& binary) {
  write_file_atomically(folder.path + "/ab.json", json_text(document, 2) + "\n");
  try {
    write_file_atomically(folder.path + "/report.html", render_ab_html_report(folder.path));
  } catch (const Error& error) {
    std::fprintf(stderr, "%s: --ab: report.html: %s\n", binary.c_str(), error.what());
  }
  finish_run_folder(folder, entry);
}

}  // namespace

ExitCode ab_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                    const std::string& gtest_filter) {
  install_stop_handlers();  // SIGINT / SIGTERM reach the child run, which stops in order
  const std::set<std::string> candidate_tests = selected_timing_tests(options, gtest_filter);
  if (candidate_tests.empty()) {
    std::fprintf(
        stderr, "%s: --ab: no timing tests (ML_TIMING_TEST) matched the selection; see '%s list'\n",
        binary.c_str(), binary.c_str());
    return ExitCode::kNoTestsMatched;
  }
  const auto start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const TestRegistry& registry = TestRegistry::instance();
  const GitInfo git = probe_git(run_repository(options.repo, registry.source_files()));
  const RunFolder folder = create_ab_folder(options, hooks, start, git);
  const std::string rounds_folder = folder.path + "/rounds";

  const AbSelection selection = select_compared_tests(
      candidate_tests, other_timing_tests(options.ab_binary, folder.path), registry);
  if (selection.compared.empty()) {
    std::fprintf(stderr, "%s: --ab: none of the selected timing tests exists in %s\n",
                 binary.c_str(), options.ab_binary.c_str());
    return ExitCode::kNoTestsMatched;
  }
  const std::string candidate = this_executable();
  const AbSettings settings{.alpha = options.alpha, .margin = options.ab_margin};
  print_header(selection, options, candidate, settings);
  const AbRounds rounds = run_ab_rounds({candidate, options.ab_binary,
                                         fmt::format("{}", fmt::join(selection.compared, ":")),
                                         &options, rounds_folder});
  const AbOutcome outcome = judge_rounds(rounds, settings);

  const LedgerEntry entry =
      ab_ledger_entry(folder, options, binary, start, steady_start, git, outcome.code);
  write_ab_record(folder, entry,
                  ab_document(entry, options, candidate, settings, selection, rounds, outcome),
                  binary);

  if (!outcome.failure.empty()) {
    std::fprintf(stderr, "%s: --ab: %s\n", binary.c_str(), outcome.failure.c_str());
  } else {
    std::fputs(render_ab_table(outcome.results, settings).c_str(), stdout);
  }
  std::printf("A/B results: %s/ab.json\n", folder.path.c_str());
  return outcome.code;
}

}  // namespace mlregress::internal
