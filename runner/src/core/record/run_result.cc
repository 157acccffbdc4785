#include "record/run_result.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

#include "support/enum_names.h"

namespace mlregress::internal {
namespace {

constexpr auto kTestStatusNames = enum_names<TestStatus>({{TestStatus::kPassed, "passed"},
                                                          {TestStatus::kFailed, "failed"},
                                                          {TestStatus::kSkipped, "skipped"},
                                                          {TestStatus::kCrashed, "crashed"},
                                                          {TestStatus::kRegressed, "regressed"},
                                                          {TestStatus::kTimedOut, "timed_out"}});

constexpr auto kFingerprintKindNouns =
    enum_names<FingerprintKind>({{FingerprintKind::kDataset, "dataset"},
                                 {FingerprintKind::kDataOrder, "data order"},
                                 {FingerprintKind::kCheckpoint, "checkpoint"}});

}  // namespace

std::string_view test_status_name(TestStatus status) {
  return kTestStatusNames.name(status, "unknown");
}

std::optional<TestStatus> parse_test_status(std::string_view name) {
  return kTestStatusNames.parse(name);
}

std::size_t count_not_gated(const RunResult& run) {
  std::size_t n = 0;
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;
    for (const MetricComparison& c : test.comparisons) {
      n += is_not_gated(c.verdict);
    }
  }
  return n;
}

ExitCode run_exit_code(const RunResult& run, const std::vector<std::string>& output_errors) {
  std::size_t failed = 0, skipped = 0, regressed = 0, constrained = 0;
  for (const TestResult& test : run.tests) {
    failed += is_test_failure(test.status);
    skipped += test.status == TestStatus::kSkipped;
    regressed += test.status == TestStatus::kRegressed;
    constrained += !test.constraints_violated.empty();
  }
  if (failed > 0) return ExitCode::kTestFailed;
  if (regressed > 0) return ExitCode::kRegression;
  if (constrained > 0) return ExitCode::kConstraintViolated;
  if (!run.runner_errors.empty()) return ExitCode::kInternalError;
  if (!output_errors.empty()) return ExitCode::kOutputError;
  if (run.info.strict_env && count_not_gated(run) > 0) return ExitCode::kNotGated;
  if (!run.tests.empty() && skipped == run.tests.size()) return ExitCode::kAllSkipped;
  return ExitCode::kPassed;
}

std::string variant_metric_name(const std::string& metric, const std::string& variant) {
  return variant.empty() ? metric : metric + "[" + variant + "]";
}

std::string seed_label(const SeedRun& run) {
  return run.variant.empty() ? fmt::format("seed {}", run.seed)
                             : fmt::format("seed {} [{}]", run.seed, run.variant);
}

std::vector<std::uint64_t> seeds_that_ran(const TestResult& test) {
  std::vector<std::uint64_t> seeds;
  for (const SeedRun& run : test.seed_runs) {
    if (std::find(seeds.begin(), seeds.end(), run.seed) == seeds.end()) seeds.push_back(run.seed);
  }
  std::sort(seeds.begin(), seeds.end());
  return seeds;
}

void add_declared_constraint(std::vector<std::string>& constraints, const std::string& text) {
  if (std::find(constraints.begin(), constraints.end(), text) == constraints.end())
    constraints.push_back(text);
}

void add_dataset_fingerprint(std::vector<RecordedDataset>& datasets, RecordedDataset dataset) {
  std::erase_if(datasets, [&](const RecordedDataset& d) {
    return d.name == dataset.name && d.kind == dataset.kind;
  });
  datasets.push_back(std::move(dataset));
}

std::string_view fingerprint_kind_noun(FingerprintKind kind) {
  return kFingerprintKindNouns.name(kind);
}

void write_fingerprint_kind(nlohmann::json& json, FingerprintKind kind) {
  json["order"] = kind == FingerprintKind::kDataOrder;
  if (kind == FingerprintKind::kCheckpoint) json["kind"] = "checkpoint";
}

FingerprintKind fingerprint_kind(bool order, std::string_view kind) {
  if (kind == "checkpoint") return FingerprintKind::kCheckpoint;
  if (!kind.empty())
    throw std::invalid_argument(fmt::format("unknown fingerprint kind '{}'", kind));
  return order ? FingerprintKind::kDataOrder : FingerprintKind::kDataset;
}

}  // namespace mlregress::internal
