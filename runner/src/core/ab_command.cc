#include "ab_command.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <utility>
#include <vector>

#include "ab_analysis.h"
#include "ab_report.h"
#include "atomic_file.h"
#include "child_process.h"
#include "clock.h"
#include "environment.h"
#include "git_info.h"
#include "json_number.h"
#include "param_overrides.h"
#include "run_folder.h"
#include "supervisor.h"
#include "test_selection.h"

namespace mlregress::internal {
namespace {

enum class Side { kCandidate, kOther };
const char* side_name(Side side) { return side == Side::kCandidate ? "candidate" : "other"; }

// A child run failed: the comparison cannot go on, and the message says where to look.
struct ChildRunFailed {
  std::string message;
};

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string this_executable() {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) throw std::runtime_error("cannot find this binary's path (/proc/self/exe): " + error.message());
  return path.string();
}

// The other build's tests that may be compared: its timing tests (a build whose listing has no
// "timing" field predates ML_TIMING_TEST; its tests are matched by name alone).
std::set<std::string> other_timing_tests(const std::string& other, const std::string& folder) {
  const std::string out = folder + "/other-list.json";
  const std::string err = folder + "/other-list.log";
  const ChildExit exit = run_child_process({other, "list", "--format", "json"}, out, err);
  nlohmann::json listing;
  try {
    if (exit.exit_code != 0) throw std::runtime_error(exit.describe());
    listing = nlohmann::json::parse(read_text(out));
    std::set<std::string> names;
    for (const nlohmann::json& test : listing.at("tests")) {
      if (test.value("timing", true)) names.insert(test.at("name").get<std::string>());
    }
    return names;
  } catch (const std::exception& error) {
    throw ConfigError(fmt::format("--ab: '{} list --format json' did not list its tests ({}); is it "
                                  "an mlregress test binary? Its output is in {}", other,
                                  error.what(), out));
  }
}

// The timing metrics of one child run: (test, metric) -> value, and each metric's direction.
struct RoundValues {
  std::map<std::pair<std::string, std::string>, double> values;
  std::map<std::pair<std::string, std::string>, Direction> directions;
};

// The child ran with a filter of exactly the compared tests, so every test in it counts.
RoundValues read_timing_metrics(const std::string& results_path) {
  RoundValues round;
  const nlohmann::json results = nlohmann::json::parse(read_text(results_path));
  for (const nlohmann::json& test : results.at("tests")) {
    const std::string name = test.at("name");
    for (const nlohmann::json& metric : test.at("metrics")) {
      if (metric.at("policy").value("kind", "") != "timing") continue;
      const auto key = std::make_pair(name, metric.at("name").get<std::string>());
      const std::optional<double> value = read_json_number(metric.at("value"));
      round.values[key] = value.value_or(std::nan(""));
      round.directions[key] =
          parse_direction(metric.at("direction").get<std::string>()).value_or(Direction::MustEqual);
    }
  }
  return round;
}

struct ChildRun {
  RoundValues values;
  double seconds = 0.0;
  std::string folder;
};

ChildRun run_side(Side side, int round, const std::string& program, const std::string& filter,
                  const RunOptions& options, const std::string& rounds_folder) {
  ChildRun run;
  // Both builds of a round get the same --out (each child makes its own run folder in it), so
  // their command lines differ only in the binary and the candidate's --set. The arguments shape
  // the child's memory layout, and layout alone moves timings: in A/A comparisons of the medium
  // tier's CNN step, --out names of different lengths ("NN-candidate", "NN-other") gave the
  // candidate a steady 5-13% edge, which equal command lines removed.
  const std::string out = fmt::format("{}/{:02}", rounds_folder, round);
  const std::string log = fmt::format("{}/{:02}-{}.log", rounds_folder, round, side_name(side));
  std::vector<std::string> argv = {program, "run", "--filter", filter, "--out", out,
                                   "--color", "never", "--seed", std::to_string(options.seed),
                                   "--threads", std::to_string(options.threads)};
  if (side == Side::kCandidate) {
    for (const std::string& set : options.sets) {
      argv.push_back("--set");
      argv.push_back(set);
    }
  }
  const auto start = std::chrono::steady_clock::now();
  const ChildExit exit = run_child_process(argv, log, "", options.ab_timeout_s);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The children run one at a time, so `latest` is the run folder this child just made.
  std::error_code no_link;
  run.folder = out + "/" + std::filesystem::read_symlink(out + "/latest", no_link).string();
  if (exit.exit_code != 0) {
    throw ChildRunFailed{fmt::format("round {}: the {} binary ({}) ended with {}; its output is in {}",
                                     round, side_name(side), program, exit.describe(), log)};
  }
  const std::string results = out + "/latest/results.json";
  try {
    run.values = read_timing_metrics(results);
  } catch (const std::exception& error) {
    throw ChildRunFailed{fmt::format("round {}: cannot read {}: {}", round, results, error.what())};
  }
  return run;
}

// One series per (test, metric) seen in any round; a round that lacks it contributes NaN,
// which the analysis reports instead of silently comparing fewer rounds.
std::vector<AbSeries> build_series(const std::vector<ChildRun>& candidate, const std::vector<ChildRun>& other) {
  std::map<std::pair<std::string, std::string>, Direction> keys;
  for (const auto* side : {&candidate, &other}) {
    for (const ChildRun& run : *side) keys.insert(run.values.directions.begin(), run.values.directions.end());
  }
  std::vector<AbSeries> series;
  for (const auto& [key, direction] : keys) {
    AbSeries s{key.first, key.second, direction, {}, {}};
    const auto value = [&key](const ChildRun& run) {
      const auto it = run.values.values.find(key);
      return it == run.values.values.end() ? std::nan("") : it->second;
    };
    for (const ChildRun& run : candidate) s.candidate.push_back(value(run));
    for (const ChildRun& run : other) s.other.push_back(value(run));
    series.push_back(std::move(s));
  }
  return series;
}

}  // namespace

ExitCode ab_command(const RunOptions& options, const RunnerHooks& hooks, const std::string& binary,
                    const std::string& gtest_filter) {
  if (!options.baselines.empty() || !options.junit.empty()) {
    throw ConfigError("--ab compares two builds with each other; --baselines and --junit do not apply");
  }
  if (const std::string why = why_not_executable(options.ab_binary); !why.empty()) {
    throw ConfigError("--ab: cannot run the other binary: " + why);
  }
  const TestRegistry& registry = TestRegistry::instance();
  parse_param_overrides(options.sets, registry);  // a typo fails before anything runs
  std::set<std::string> candidate_tests;
  for (const RegisteredTest* test : select_tests(registry, options.tiers, options.filter, gtest_filter)) {
    if (test->timing) candidate_tests.insert(test->name);
  }
  if (candidate_tests.empty()) {
    std::fprintf(stderr, "%s: --ab: no timing tests (ML_TIMING_TEST) matched the selection; see '%s list'\n",
                 binary.c_str(), binary.c_str());
    return ExitCode::kNoTestsMatched;
  }

  const auto start = std::chrono::system_clock::now();
  const auto steady_start = std::chrono::steady_clock::now();
  const GitInfo git = probe_git();
  nlohmann::json environment = probe_environment(git);
  if (hooks.probe_framework) environment["framework"] = probe_in_child_process(hooks.probe_framework);
  const RunFolder folder = create_run_folder(options.out, start, git.short_commit());
  write_file_atomically(folder.path + "/environment.json", environment.dump(2) + "\n");
  const std::string rounds_folder = folder.path + "/rounds";
  std::filesystem::create_directories(rounds_folder);

  const std::set<std::string> other_tests = other_timing_tests(options.ab_binary, folder.path);
  std::vector<std::string> compared, only_candidate, only_other;
  for (const std::string& name : candidate_tests) {
    (other_tests.count(name) ? compared : only_candidate).push_back(name);
  }
  // The other build's timing tests this binary does not have at all (removed or renamed);
  // those merely outside this selection are not news.
  for (const std::string& name : other_tests) {
    if (registry.find(name) == nullptr) only_other.push_back(name);
  }
  if (compared.empty()) {
    std::fprintf(stderr, "%s: --ab: none of the selected timing tests exists in %s\n", binary.c_str(),
                 options.ab_binary.c_str());
    return ExitCode::kNoTestsMatched;
  }
  std::string filter;
  for (const std::string& name : compared) filter += (filter.empty() ? "" : ":") + name;

  const std::string candidate = this_executable();
  const AbSettings settings{.alpha = options.alpha, .margin = options.ab_margin};
  std::string sets;
  for (const std::string& set : options.sets) sets += " --set " + set;
  std::printf("A/B timing: %zu test%s, %d rounds\n  candidate: %s (this binary)%s\n  other:     %s\n",
              compared.size(), compared.size() == 1 ? "" : "s", options.ab_rounds, candidate.c_str(),
              sets.c_str(), options.ab_binary.c_str());
  for (const std::string& name : only_candidate) std::printf("  not in the other binary: %s\n", name.c_str());
  for (const std::string& name : only_other) std::printf("  only in the other binary: %s\n", name.c_str());
  if (std::pow(0.5, options.ab_rounds) >= settings.alpha) {
    std::printf("  warning: with %d rounds the smallest possible p-value is %.3g, not below alpha %g: "
                "no REGRESSION can be found; use more rounds\n",
                options.ab_rounds, std::pow(0.5, options.ab_rounds), settings.alpha);
  }
  std::fflush(stdout);

  // Balanced random order: a coin decides who goes first in odd rounds, and the next round
  // swaps, so neither build systematically runs first (warmer caches, a quieter machine).
  const std::uint64_t order_seed = std::random_device{}();
  std::mt19937_64 rng(order_seed);
  std::vector<ChildRun> candidate_runs, other_runs;
  nlohmann::json rounds = nlohmann::json::array();
  std::string failure;
  bool candidate_first = false;
  for (int round = 1; round <= options.ab_rounds && failure.empty(); ++round) {
    candidate_first = round % 2 == 1 ? std::bernoulli_distribution(0.5)(rng) : !candidate_first;
    const Side order[2] = {candidate_first ? Side::kCandidate : Side::kOther,
                           candidate_first ? Side::kOther : Side::kCandidate};
    nlohmann::json entry = {{"round", round}, {"order", {side_name(order[0]), side_name(order[1])}}};
    try {
      for (const Side side : order) {
        const bool is_candidate = side == Side::kCandidate;
        ChildRun run = run_side(side, round, is_candidate ? candidate : options.ab_binary, filter,
                                options, rounds_folder);
        entry[side_name(side)] = {{"seconds", run.seconds}, {"folder", run.folder}};
        (is_candidate ? candidate_runs : other_runs).push_back(std::move(run));
      }
      std::printf("round %2d/%d: %s first  (candidate %.1f s, other %.1f s)\n", round, options.ab_rounds,
                  side_name(order[0]), entry["candidate"]["seconds"].get<double>(),
                  entry["other"]["seconds"].get<double>());
      std::fflush(stdout);
    } catch (const ChildRunFailed& error) {
      failure = error.message;
    }
    rounds.push_back(std::move(entry));
  }

  std::vector<AbMetricResult> results;
  if (failure.empty()) {
    results = analyse_ab(build_series(candidate_runs, other_runs), settings);
    if (results.empty()) {
      failure = "the timing tests recorded no timing metric (record_throughput, or the Timing policy)";
    }
  }
  ExitCode code = ExitCode::kPassed;
  for (const AbMetricResult& r : results) {
    if (r.verdict == Verdict::kRegression) code = ExitCode::kRegression;
  }
  if (!failure.empty()) code = ExitCode::kTestFailed;

  const double duration =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - steady_start).count();
  const nlohmann::json document = {
      {"schema_version", 1},
      {"kind", "ab"},
      {"run", {{"id", folder.run_id}, {"binary", binary}, {"started_at", utc_iso8601(start)},
               {"finished_at", utc_now_iso8601()}, {"duration_s", duration},
               {"exit_code", static_cast<int>(code)}, {"exit_status", exit_code_name(code)}}},
      {"candidate", {{"path", candidate}, {"sets", options.sets}}},
      {"other", {{"path", options.ab_binary}}},
      {"settings", {{"rounds", options.ab_rounds}, {"alpha", settings.alpha},
                    {"margin", settings.margin}, {"seed", options.seed},
                    {"threads", options.threads}, {"tiers", options.tiers},
                    {"filter", options.filter}, {"order_seed", order_seed}}},
      {"tests", compared},
      {"only_in_candidate", only_candidate},
      {"only_in_other", only_other},
      {"rounds", rounds},
      {"metrics", ab_metrics_json(results)},
      {"error", failure.empty() ? nlohmann::json() : nlohmann::json(failure)}};
  write_file_atomically(folder.path + "/ab.json", document.dump(2) + "\n");
  finish_run_folder(folder, {{"run_id", folder.run_id},
                             {"kind", "ab"},
                             {"binary", binary},
                             {"other_binary", options.ab_binary},
                             {"started_at", utc_iso8601(start)},
                             {"duration_s", duration},
                             {"git_commit", git.commit},
                             {"git_dirty", git.dirty},
                             {"exit_code", static_cast<int>(code)},
                             {"exit_status", exit_code_name(code)}});

  if (!failure.empty()) {
    std::fprintf(stderr, "%s: --ab: %s\n", binary.c_str(), failure.c_str());
  } else {
    std::fputs(render_ab_table(results, settings).c_str(), stdout);
  }
  std::printf("A/B results: %s/ab.json\n", folder.path.c_str());
  return code;
}

}  // namespace mlregress::internal
