#include "commands/ab_rounds.h"

#include <fmt/format.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <utility>

#include "storage/results_json.h"
#include "support/child_process.h"
#include "support/errors.h"

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

using MetricKey = std::pair<std::string, std::string>;  // (test, metric)

// The timing metrics of one child run and their directions. The child ran with a filter of
// exactly the compared tests, so every test in it counts.
struct ChildRun {
  std::map<MetricKey, double> values;
  std::map<MetricKey, Direction> directions;
  double seconds = 0.0;
  std::string folder;
};

void read_timing_metrics(const RunResult& results, ChildRun& run) {
  for (const TestResult& test : results.tests) {
    for (const MetricRecord& metric : test.metrics) {
      if (!std::holds_alternative<Timing>(metric.policy)) continue;
      run.values[{test.name, metric.name}] = metric.value;
      run.directions[{test.name, metric.name}] = metric.direction;
    }
  }
}

ChildRun run_side(Side side, int round, const std::string& program,
                  const AbRoundsRequest& request) {
  const RunOptions& options = *request.options;
  ChildRun run;
  // Both builds of a round get the same --out (each child makes its own run folder in it), so
  // their command lines differ only in the binary and the candidate's --set. The arguments shape
  // the child's memory layout, and layout alone moves timings: in A/A comparisons of the medium
  // tier's CNN step, --out names of different lengths ("NN-candidate", "NN-other") gave the
  // candidate a steady 5-13% edge, which equal command lines removed.
  const std::string out = fmt::format("{}/{:02}", request.rounds_folder, round);
  const std::string log =
      fmt::format("{}/{:02}-{}.log", request.rounds_folder, round, side_name(side));
  std::vector<std::string> argv = {program,     "run",
                                   "--filter",  request.filter,
                                   "--out",     out,
                                   "--color",   "never",
                                   "--seed",    std::to_string(options.seed),
                                   "--threads", std::to_string(options.threads)};
  // Both sides, and only when asked: a build from before the switch knows no --determinism.
  if (options.determinism != "warn")
    argv.insert(argv.end(), {"--determinism", options.determinism});
  if (side == Side::kCandidate) {
    for (const std::string& set : options.sets) argv.insert(argv.end(), {"--set", set});
  }
  const auto start = std::chrono::steady_clock::now();
  ChildExit exit;
  try {
    exit = run_child_process(argv, log, "", options.ab_timeout_s);
  } catch (const Error&) {
    throw;                                     // a log that cannot be written, a stop signal
  } catch (const std::runtime_error& error) {  // exec refused the binary
    throw ChildRunFailed{fmt::format("round {}: the {} binary ({}) cannot be started: {}", round,
                                     side_name(side), program, error.what())};
  }
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // The children run one at a time, so `latest` is the run folder this child just made.
  std::error_code no_link;
  run.folder = out + "/" + std::filesystem::read_symlink(out + "/latest", no_link).string();
  if (exit.exit_code != 0) {
    throw ChildRunFailed{
        fmt::format("round {}: the {} binary ({}) ended with {}; its output is in {}", round,
                    side_name(side), program, exit.describe(), log)};
  }
  try {
    read_timing_metrics(read_results_json(out + "/latest/results.json"), run);
  } catch (const std::exception& error) {
    throw ChildRunFailed{fmt::format("round {}: {}", round, error.what())};
  }
  return run;
}

// One series per (test, metric) seen in any round; a round that lacks it contributes NaN,
// which the analysis reports instead of silently comparing fewer rounds.
std::vector<AbSeries> build_series(const std::vector<ChildRun>& candidate,
                                   const std::vector<ChildRun>& other) {
  std::map<MetricKey, Direction> keys;
  for (const auto* side : {&candidate, &other}) {
    for (const ChildRun& run : *side) keys.insert(run.directions.begin(), run.directions.end());
  }
  std::vector<AbSeries> series;
  for (const auto& entry : keys) {
    const MetricKey& key = entry.first;
    AbSeries s{key.first, key.second, entry.second, {}, {}};
    const auto value = [&key](const ChildRun& run) {
      const auto it = run.values.find(key);
      return it == run.values.end() ? std::nan("") : it->second;
    };
    for (const ChildRun& run : candidate) s.candidate.push_back(value(run));
    for (const ChildRun& run : other) s.other.push_back(value(run));
    series.push_back(std::move(s));
  }
  return series;
}

}  // namespace

std::set<std::string> other_timing_tests(const std::string& other, const std::string& folder) {
  const std::string out = folder + "/other-list.json";
  const std::string err = folder + "/other-list.log";
  try {
    const ChildExit exit = run_child_process({other, "list", "--format", "json"}, out, err);
    if (exit.exit_code != 0) throw std::runtime_error(exit.describe());
    const nlohmann::json listing = nlohmann::json::parse(read_text(out));
    std::set<std::string> names;
    for (const nlohmann::json& test : listing.at("tests")) {
      if (test.value("timing", true)) names.insert(test.at("name").get<std::string>());
    }
    return names;
  } catch (const Error&) {
    throw;  // a listing that cannot be written, a stop signal
  } catch (const std::exception& error) {
    throw ConfigError(
        fmt::format("--ab: '{} list --format json' did not list its tests ({}); is it "
                    "an mlregress test binary? Its output is in {}",
                    other, error.what(), out));
  }
}

AbRounds run_ab_rounds(const AbRoundsRequest& request) {
  const int rounds = request.options->ab_rounds;
  AbRounds result;
  result.order_seed = std::random_device{}();
  std::mt19937_64 rng(result.order_seed);
  std::vector<ChildRun> candidate_runs, other_runs;
  bool candidate_first = false;
  for (int round = 1; round <= rounds && result.failure.empty(); ++round) {
    candidate_first = round % 2 == 1 ? std::bernoulli_distribution(0.5)(rng) : !candidate_first;
    const Side order[2] = {candidate_first ? Side::kCandidate : Side::kOther,
                           candidate_first ? Side::kOther : Side::kCandidate};
    nlohmann::json entry = {{"round", round},
                            {"order", {side_name(order[0]), side_name(order[1])}}};
    try {
      for (const Side side : order) {
        const bool is_candidate = side == Side::kCandidate;
        ChildRun run =
            run_side(side, round, is_candidate ? request.candidate : request.other, request);
        entry[side_name(side)] = {{"seconds", run.seconds}, {"folder", run.folder}};
        (is_candidate ? candidate_runs : other_runs).push_back(std::move(run));
      }
      std::printf("round %2d/%d: %s first  (candidate %.1f s, other %.1f s)\n", round, rounds,
                  side_name(order[0]), entry["candidate"]["seconds"].get<double>(),
                  entry["other"]["seconds"].get<double>());
      std::fflush(stdout);
    } catch (const ChildRunFailed& error) {
      result.failure = error.message;
    }
    result.log.push_back(std::move(entry));
  }
  if (result.failure.empty()) result.series = build_series(candidate_runs, other_runs);
  return result;
}

}  // namespace mlregress::internal
