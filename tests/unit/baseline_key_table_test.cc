// Every key a baseline metric's table may hold is read and written through one table of keys. A
// key the reader accepts but the writer leaves out would be lost by the next promotion, which
// rewrites the file: here every accepted key (the list the reader names when it meets an unknown
// one) has a metric that sets it, is written, and reads back the same.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "baselines/baseline_toml.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

const char* const kProfile = "cpu-aaaa";

// A file whose one metric, Keys.m, is `metric`.
BaselineFile file_with(const BaselineMetric& metric) {
  BaselineFile file;
  file.provenance.version = 1;
  file.provenance.environment = kProfile;
  EnvironmentProfile env;
  env.id = kProfile;
  env.framework = "torch 2.3";
  env.cpu = "a cpu";
  env.machine = "x86_64";
  file.environments[env.id] = env;
  file.tests["Keys"].metrics["m"] = metric;
  return file;
}

BaselineMetric with_value(double value) {
  BaselineMetric m;
  m.value = value;
  return m;
}

BaselineMetric banded() {
  BaselineMetric m = with_value(1.0);
  m.direction = Direction::HigherIsBetter;
  m.policy = Band{.rtol = 0.125, .atol = 0.5};
  return m;
}

BaselineMetric calibrated() {
  BaselineMetric m = with_value(1.0);
  Calibration c{.repeats = 5,
                .mean = 1.0,
                .sd = 0.01,
                .max_deviation = 0.05,
                .rule = "max(3 sd, max deviation)",
                .k = 3.0,
                .environment = kProfile};
  m.policy = Band{.rtol = 0.0, .atol = calibrated_half_width(c)};
  m.calibration = c;
  return m;
}

BaselineMetric portable_exact() {
  BaselineMetric m = with_value(19.0);
  m.direction = Direction::MustEqual;
  m.policy = Exact{Scope::Portable};
  return m;
}

BaselineMetric numerics_exact() {
  BaselineMetric m;
  m.direction = Direction::MustEqual;
  m.policy = Exact{Scope::Numerics};
  m.by_environment[kProfile] = 0.25;
  return m;
}

BaselineMetric seeded() {
  BaselineMetric m;
  m.direction = Direction::HigherIsBetter;
  m.policy = Margin{.delta = 0.01, .covariate = "difficulty"};
  m.seeds = {3, 1};
  m.samples = {0.875, 0.75};
  PoolBlock block{.source_run = "r1",
                  .seeds = {1, 3},
                  .added_at = "2026-01-02T03:04:05Z",
                  .git_commit = "abc123",
                  .reason = "first",
                  .environment = kProfile};
  m.pool = {block};
  return m;
}

// Seeded over enough seeds to have measured a spread of paired differences.
BaselineMetric paired() {
  BaselineMetric m;
  m.direction = Direction::HigherIsBetter;
  m.policy = Margin{.delta = 0.01};
  for (std::uint64_t seed = 0; seed < 9; ++seed) {
    m.seeds.push_back(seed);
    m.samples.push_back(0.8 + 0.01 * static_cast<double>(seed % 3));
  }
  m.paired_spread = PairedSpread{
      .sd = 0.0025, .pairs = 9, .source_run = "r2", .measured_at = "2026-01-03T03:04:05Z"};
  return m;
}

BaselineMetric timing() {
  BaselineMetric m;
  m.policy = Timing{};
  m.by_environment[kProfile] = 120.5;
  m.cv_by_environment[kProfile] = 0.03;
  return m;
}

BaselineMetric failure_rate() {
  BaselineMetric m;
  m.policy = FailureRate{.detect = 0.25};
  m.failure_count = FailureCount{.failures = 2, .trials = 50};
  m.value = failure_count_value(*m.failure_count, m.direction);  // as the reader sets it
  return m;
}

BaselineMetric broken_down() {
  BaselineMetric m = with_value(12.0);
  Breakdown breakdown;
  breakdown.unit = BreakdownUnit::Allocations;
  breakdown.by_operator = {{"aten::addmm", 4}, {"aten::mul", 8}};
  m.breakdowns[kProfile] = breakdown;
  return m;
}

BaselineMetric with_history() {
  BaselineMetric m = with_value(2.0);
  m.history.push_back(HistoryEntry{.version = 1,
                                   .replaced_at = "2026-01-02T03:04:05Z",
                                   .reason = "retrained",
                                   .source_run = "r2",
                                   .environment = "",
                                   .old_value = 1.5,
                                   .new_value = 2.0});
  return m;
}

BaselineMetric graduated() {
  BaselineMetric m = calibrated();
  m.graduation = Graduation{.graduated_at = "2026-01-02T03:04:05Z",
                            .reason = "reached the target",
                            .target = "> 0.9",
                            .met = 2,
                            .runs = 2,
                            .lower_bound = 0.3423802275066530,
                            .threshold = 0.25,
                            .min = 0.95,
                            .max = 1.05,
                            .source_runs = {"r1", "r2"},
                            .commits = {"abc123", "def456"}};
  return m;
}

// For each key of a metric's table, a metric that sets it.
const std::map<std::string, BaselineMetric>& metric_setting_each_key() {
  static const std::map<std::string, BaselineMetric> metrics = {
      {"direction", banded()},
      {"policy", banded()},
      {"scope", portable_exact()},
      {"rtol", banded()},
      {"atol", banded()},
      {"calibration", calibrated()},
      {"margin", seeded()},
      {"covariate", seeded()},
      {"value", with_value(1.5)},
      {"values", numerics_exact()},
      {"cv", timing()},
      {"seeds", seeded()},
      {"samples", seeded()},
      {"summary", seeded()},
      {"paired_spread", paired()},
      {"pool", seeded()},
      {"detect", failure_rate()},
      {"failures", failure_rate()},
      {"trials", failure_rate()},
      {"interval", failure_rate()},
      {"breakdown_unit", broken_down()},
      {"breakdown", broken_down()},
      {"graduation", graduated()},
      {"history", with_history()},
  };
  return metrics;
}

const char* const kMetricHeader = "[tests.Keys.metrics.m]\n";

// The rendered file with `line` planted as the first key of the metric's table, and the line
// number it lands on.
std::pair<std::string, int> planted(const std::string& line) {
  std::string text = render_baseline(file_with(with_value(1.0)));
  const std::size_t at = text.find(kMetricHeader);
  EXPECT_NE(at, std::string::npos) << text;
  const std::size_t insert_at = at + std::string(kMetricHeader).size();
  text.insert(insert_at, line + "\n");
  const int line_number =
      static_cast<int>(std::count(text.begin(), text.begin() + insert_at, '\n')) + 1;
  return {text, line_number};
}

std::string error_reading(const std::string& text) {
  try {
    parse_baseline(text, "keys.toml");
  } catch (const BaselineError& error) {
    return error.what();
  }
  return "";
}

// The keys the reader accepts in a metric's table, as its unknown-key error lists them.
std::vector<std::string> accepted_keys() {
  const std::string error = error_reading(planted("colour = \"red\"").first);
  const std::string opening = "(expected one of: ";
  const std::size_t from = error.find(opening);
  const std::size_t to = error.rfind(')');
  if (from == std::string::npos || to == std::string::npos || to < from) return {};
  std::vector<std::string> keys;
  std::istringstream list(error.substr(from + opening.size(), to - from - opening.size()));
  for (std::string key; std::getline(list, key, ',');) {
    key.erase(0, key.find_first_not_of(' '));
    keys.push_back(key);
  }
  return keys;
}

// Whether `text` writes `key` in the metric's table: as "key = ..." or as a sub-table.
bool writes_key(const std::string& text, const std::string& key) {
  const std::size_t table = text.find(kMetricHeader);
  if (table == std::string::npos) return false;
  const std::string metric = text.substr(table);
  return metric.find("\n" + key + " = ") != std::string::npos ||
         metric.find("[tests.Keys.metrics.m." + key + "]") != std::string::npos ||
         metric.find("[tests.Keys.metrics.m." + key + ".") != std::string::npos;
}

TEST(BaselineKeyTable, AnUnknownKeyIsRefusedNamingTheKeyAndItsLine) {
  const auto [text, line] = planted("colour = \"red\"");
  const std::string error = error_reading(text);
  EXPECT_THAT(error, StartsWith("keys.toml:" + std::to_string(line) + ":")) << text;
  EXPECT_THAT(
      error,
      HasSubstr("unknown key 'colour' in [tests.Keys.metrics.m] (expected one of: "
                "direction, policy, scope, rtol, atol, calibration, margin, "
                "covariate, value, values, cv, seeds, samples, summary, paired_spread, pool, "
                "detect, failures, trials, interval, breakdown_unit, breakdown, "
                "graduation, history)"))
      << error;
}

TEST(BaselineKeyTable, EveryAcceptedKeyIsWrittenAndReadsBackTheSame) {
  const std::vector<std::string> keys = accepted_keys();
  ASSERT_FALSE(keys.empty());
  for (const std::string& key : keys) {
    SCOPED_TRACE(key);
    const auto example = metric_setting_each_key().find(key);
    if (example == metric_setting_each_key().end()) {
      ADD_FAILURE() << "no metric sets key '" << key << "': add one to metric_setting_each_key";
      continue;
    }
    const BaselineFile file = file_with(example->second);
    const std::string text = render_baseline(file);
    EXPECT_TRUE(writes_key(text, key)) << "the writer leaves out '" << key << "':\n" << text;
    BaselineFile back;
    ASSERT_NO_THROW(back = parse_baseline(text, "keys.toml")) << text;
    EXPECT_EQ(back, file) << text;
    EXPECT_EQ(render_baseline(back), text);
  }
}

TEST(BaselineKeyTable, EveryExampleIsOfAnAcceptedKey) {
  const std::vector<std::string> keys = accepted_keys();
  for (const auto& [key, metric] : metric_setting_each_key())
    EXPECT_NE(std::find(keys.begin(), keys.end(), key), keys.end()) << key;
}

TEST(BaselineKeyTable, AKeyOfAnotherPolicyIsRefusedNamingItsPolicyAndLine) {
  const auto [text, line] = planted("rtol = 0.5");
  const std::string error = error_reading(text);
  EXPECT_THAT(error, StartsWith("keys.toml:" + std::to_string(line) + ":")) << text;
  EXPECT_THAT(error, HasSubstr("'rtol' only applies to policy \"band\"")) << error;
}

}  // namespace
}  // namespace mlregress::internal
