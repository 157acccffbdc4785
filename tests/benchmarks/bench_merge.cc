// What `merge` costs: 100 shard folders of a 10-test × 20-seed plan (200 seed runs, each with 2
// metrics, dealt round-robin as run --shard deals them), written once, then merged into one run
// folder per iteration: read, join, judge (the multi-seed gate over all 10 tests), write
// results.json, JUnit, seeds.jsonl, report.html. Prints the time per merge and the peak memory
// of the process (counter peak_rss_mb). The console output of each merge goes to /dev/null.
//   build/tests/benchmarks/bench_merge
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>

#include "commands/merge_command.h"
#include "record/json_text.h"
#include "storage/results_json.h"
#include "support/atomic_file.h"

namespace mlregress::internal {
namespace {

constexpr std::size_t kTests = 10, kSeeds = 20, kShards = 100;

std::vector<std::string> make_shards(const std::string& root) {
  std::filesystem::remove_all(root);
  nlohmann::json tests = nlohmann::json::object();
  std::vector<std::string> order;
  for (std::size_t t = 0; t < kTests; ++t) {
    std::vector<std::uint64_t> seeds(kSeeds);
    for (std::size_t s = 0; s < kSeeds; ++s) seeds[s] = s;
    tests["Study" + std::to_string(t)] = {
        {"tier", "full"},
        {"params", nlohmann::json::object()},
        {"config_hash", "0"},
        {"seeds", seeds},
        {"variants", {{{"name", ""}, {"params", nlohmann::json::object()}, {"config_hash", "0"}}}}};
    order.push_back("Full.Study" + std::to_string(t));
  }
  const nlohmann::json environment = {{"git", {{"commit", "0123456789abcdef"}, {"dirty", false}}}};
  std::vector<RunResult> parts(kShards);
  std::size_t unit = 0;
  for (std::size_t t = 0; t < kTests; ++t) {
    for (std::size_t s = 0; s < kSeeds; ++s, ++unit) {
      RunResult& part = parts[unit % kShards];
      if (part.tests.empty() || part.tests.back().full_name != order[t]) {
        TestResult test;
        test.name = "Study" + std::to_string(t);
        test.full_name = order[t];
        test.tier = Tier::Full;
        test.seeded = true;
        test.finished = true;
        part.tests.push_back(test);
      }
      TestResult& test = part.tests.back();
      SeedRun run;
      run.seed = s;
      const double value = 0.87 + 0.01 * std::sin(static_cast<double>(s * 7 + t));
      run.metrics = {{"accuracy", value, Direction::HigherIsBetter, Margin{.delta = 0.01}},
                     {"loss", 1.0 - value, Direction::LowerIsBetter, Margin{.delta = 0.01}}};
      test.seed_runs.push_back(run);
      if (test.metrics.empty()) test.metrics = run.metrics;
    }
  }
  std::vector<std::string> folders;
  for (std::size_t i = 0; i < kShards; ++i) {
    const std::string folder = root + "/shard" + std::to_string(i);
    std::filesystem::create_directories(folder);
    RunResult& part = parts[i];
    part.info.run_id = "shard" + std::to_string(i);
    part.info.binary = "bench";
    part.info.started_at = "2026-12-03T00:00:00.000Z";
    part.info.finished_at = "2026-12-03T00:01:00.000Z";
    part.info.environment_profile = "env-0";
    part.info.shard = ShardInfo{i, kShards, "plan", "--shard"};
    write_file_atomically(folder + "/results.json", render_results_json(part));
    write_file_atomically(folder + "/environment.json", json_text(environment) + "\n");
    write_file_atomically(folder + "/config.json",
                          json_text({{"schema_version", 1},
                                     {"order", order},
                                     {"tests", tests},
                                     {"shard", {{"index", i}, {"count", kShards}}}}) +
                              "\n");
    folders.push_back(folder);
  }
  return folders;
}

void BM_Merge(benchmark::State& state) {
  const std::string root =
      (std::filesystem::temp_directory_path() / "mlregress-bench-merge").string();
  MergeOptions options;
  options.shards = make_shards(root);
  options.out = root + "/merged";
  options.color = "never";
  const int saved = ::dup(1);
  const int null = ::open("/dev/null", O_WRONLY);
  ExitCode code = ExitCode::kPassed;
  for (auto _ : state) {
    ::dup2(null, 1);
    code = merge_command(options);
    ::dup2(saved, 1);
  }
  ::close(null);
  ::close(saved);
  if (code != ExitCode::kPassed) state.SkipWithError("the merge did not pass");
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  state.counters["peak_rss_mb"] = static_cast<double>(usage.ru_maxrss) / 1024.0;
  state.counters["shards"] = kShards;
  state.counters["seed_runs"] = kTests * kSeeds;
}

BENCHMARK(BM_Merge)->Name("merge_100_shards_10_tests_20_seeds")->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mlregress::internal

BENCHMARK_MAIN();
