// Writes synthetic run folders for `history`, in the real format (results.json through the
// runner's own writer, environment.json with the git commit): one run per commit, a day apart,
// `tests` tests of `per-test` metrics each (loss, lower is better, about 1 with 1% noise), and a
// one-line report.html in each folder (a real run has one; the page links to it).
//   history_runs DIR --runs 1000 --tests 20 --per-test 10 [--shift 0.1 --shift-at 600]
// --shift F makes the first metric of the first test (T0.loss0) F higher from run --shift-at on
// (a planted regression); every other series is noise. ci/history-html-benchmark.sh and
// tests/e2e/history_page_renders_in_chromium.sh use it.
#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>

#include "record/json_text.h"
#include "storage/results_json.h"
#include "support/atomic_file.h"

namespace mlregress::internal {
namespace {

struct Settings {
  std::string out;
  int runs = 1000, tests = 20, per_test = 10, shift_at = 600;
  double shift = 0.0;
};

int usage() {
  std::fprintf(stderr,
               "usage: history_runs DIR [--runs N] [--tests N] [--per-test N] [--shift F] "
               "[--shift-at RUN]\n");
  return 2;
}

void write_run(const Settings& s, int index, std::mt19937_64& rng) {
  std::normal_distribution<double> noise(1.0, 0.01);
  RunResult run;
  // A day apart, so that the order of the first runs is the order of the commits.
  const int day = index % 28 + 1, month = index / 28 % 12 + 1, year = 2000 + index / 336;
  run.info.run_id = fmt::format("{}-{:02}-{:02}T00-00-00-{:04}", year, month, day, index);
  run.info.binary = "history_bench";
  run.info.started_at = fmt::format("{}-{:02}-{:02}T00:00:00.000Z", year, month, day);
  run.info.finished_at = fmt::format("{}-{:02}-{:02}T00:01:00.000Z", year, month, day);
  run.info.environment_profile = "env-0";
  for (int t = 0; t < s.tests; ++t) {
    TestResult test;
    test.name = fmt::format("T{}", t);
    test.full_name = "Fast." + test.name;
    test.tier = Tier::Fast;
    test.finished = true;
    for (int m = 0; m < s.per_test; ++m) {
      double value = noise(rng);
      if (t == 0 && m == 0 && index >= s.shift_at) value *= 1.0 + s.shift;
      test.metrics.push_back(
          {fmt::format("loss{}", m), value, Direction::LowerIsBetter, Band{.rtol = 0.05}});
    }
    run.tests.push_back(std::move(test));
  }
  const std::string folder = fmt::format("{}/{}", s.out, run.info.run_id);
  std::filesystem::create_directories(folder);
  write_file_atomically(folder + "/results.json", render_results_json(run));
  // A commit id per run, 40 hex digits (the first 8 scattered, as real ones are), that no
  // repository knows: ordered by first run.
  const nlohmann::json environment = {
      {"git",
       {{"commit", fmt::format("{:08x}{:032x}", (index * 2654435761u) & 0xffffffffu, index)},
        {"dirty", false}}}};
  write_file_atomically(folder + "/environment.json", json_text(environment) + "\n");
  write_file_atomically(
      folder + "/report.html",
      fmt::format("<!DOCTYPE html><title>run {}</title><p>run {}</p>\n", index, index));
}

}  // namespace
}  // namespace mlregress::internal

int main(int argc, char** argv) {
  using mlregress::internal::Settings;
  if (argc < 2) return mlregress::internal::usage();
  Settings s;
  s.out = argv[1];
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    const char* value = argv[i + 1];
    if (flag == "--runs")
      s.runs = std::atoi(value);
    else if (flag == "--tests")
      s.tests = std::atoi(value);
    else if (flag == "--per-test")
      s.per_test = std::atoi(value);
    else if (flag == "--shift")
      s.shift = std::atof(value);
    else if (flag == "--shift-at")
      s.shift_at = std::atoi(value);
    else
      return mlregress::internal::usage();
  }
  if (argc % 2 != 0 || s.runs < 1 || s.tests < 1 || s.per_test < 1) {
    return mlregress::internal::usage();
  }
  std::mt19937_64 rng(7);
  for (int index = 0; index < s.runs; ++index) mlregress::internal::write_run(s, index, rng);
  std::printf("%d run folders of %d metrics in %s\n", s.runs, s.tests * s.per_test, s.out.c_str());
  return 0;
}
