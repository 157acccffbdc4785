#include "run_collector.h"

#include <fmt/format.h>

#include <chrono>

#include "clock.h"
#include "environment_profile.h"
#include "json_number.h"
#include "output_error.h"
#include "text_sanitize.h"

namespace mlregress::internal {

std::string_view test_status_name(TestStatus status) {
  switch (status) {
    case TestStatus::kPassed: return "passed";
    case TestStatus::kFailed: return "failed";
    case TestStatus::kSkipped: return "skipped";
    case TestStatus::kCrashed: return "crashed";
    case TestStatus::kRegressed: return "regressed";
  }
  return "unknown";
}

RunCollector::RunCollector(const RunPlan& plan, RunResult& run, std::vector<RunObserver*> observers)
    : plan_(plan), run_(run), observers_(std::move(observers)) {}

template <typename Call>
void RunCollector::notify(Call&& call) {
  for (RunObserver* observer : observers_) {
    try {
      call(*observer);
    } catch (const OutputError& error) {
      // Keep running: the remaining tests and the other outputs are still worth having.
      output_errors_.push_back(error.what());
    }
  }
}

void RunCollector::compare_with(const BaselineSet* baselines, EnvironmentProfile profile,
                                bool strict_env) {
  baselines_ = baselines;
  profile_ = std::move(profile);
  strict_env_ = strict_env;
}

void RunCollector::apply_baselines(TestResult& test) const {
  if (baselines_ == nullptr) return;
  const LoadedBaselineFile* loaded = baselines_->find(test.name);
  const BaselineTest* baseline = nullptr;
  if (loaded != nullptr) {
    baseline = &loaded->file.tests.at(test.name);
    const Provenance& p = loaded->file.provenance;
    test.baseline_file = loaded->path;
    test.baseline_version = p.version;
    test.baseline_commit = p.git_commit;
    test.baseline_promoted_at = p.promoted_at;
    auto env = loaded->file.environments.find(p.environment);
    test.environment_note =
        (env != loaded->file.environments.end() ? describe_environment_change(env->second, profile_)
                                                : std::string("environment unknown")) +
        (baseline->config_hash == test.config_hash ? " · config same" : " · config changed");
  }
  bool regressed = false;
  for (const MetricRecord& metric : test.metrics) {
    const BaselineMetric* entry = nullptr;
    if (baseline != nullptr) {
      auto it = baseline->metrics.find(metric.name);
      if (it != baseline->metrics.end()) entry = &it->second;
    }
    MetricComparison c = compare_metric(metric.name, metric.value, metric.direction, entry, profile_.id);
    regressed = regressed || c.verdict == Verdict::kRegression ||
                (strict_env_ && c.verdict == Verdict::kNotComparable);
    test.comparisons.push_back(std::move(c));
  }
  if (regressed && test.status == TestStatus::kPassed) test.status = TestStatus::kRegressed;
}

void RunCollector::start_run() {
  notify([&](RunObserver& o) { o.on_run_start(run_); });
}

TestResult& RunCollector::current() { return run_.tests.back(); }

void RunCollector::handle(const nlohmann::json& event) {
  try {
    const std::string kind = event.at("event").get<std::string>();
    if (kind == "start") {
      const std::string full_name = event.at("test").get<std::string>();
      const PlannedTest* planned = plan_.find(full_name);
      if (planned == nullptr) {
        add_runner_error(fmt::format("test process started an unplanned test '{}'", full_name));
        return;
      }
      TestResult result;
      result.name = planned->test->name;
      result.full_name = full_name;
      result.tier = planned->test->tier;
      result.file = planned->test->file;
      result.line = planned->test->line;
      result.config_hash = planned->config_hash;
      result.seed = plan_.seed;
      result.threads = plan_.threads;
      result.started_at = event.value("started_at", utc_now_iso8601());
      run_.tests.push_back(std::move(result));
      running_ = full_name;
      running_since_ = std::chrono::steady_clock::now();
      notify([&](RunObserver& o) { o.on_test_start(current()); });
      return;
    }
    if (running_.empty()) {
      add_runner_error(fmt::format("event '{}' arrived outside a test", kind));
      return;
    }
    if (kind == "failure") {
      TestFailure failure{event.at("file").get<std::string>(), event.at("line").get<int>(),
                          event.at("message").get<std::string>(), event.at("fatal").get<bool>()};
      current().failures.push_back(std::move(failure));
      notify([&](RunObserver& o) { o.on_failure(current(), current().failures.back()); });
    } else if (kind == "skip") {
      current().skip_message = event.at("message").get<std::string>();
    } else if (kind == "metric") {
      MetricRecord metric;
      metric.name = event.at("name").get<std::string>();
      metric.value = read_json_number(event.at("value")).value();
      metric.direction = parse_direction(event.at("direction").get<std::string>()).value();
      const nlohmann::json& policy = event.at("policy");
      const std::string policy_kind = policy.at("kind").get<std::string>();
      if (policy_kind == "band") {
        metric.policy = Band{read_json_number(policy.at("rtol")).value(),
                             read_json_number(policy.at("atol")).value()};
      } else if (policy_kind == "exact") {
        metric.policy = Exact{};
      }
      current().metrics.push_back(std::move(metric));
      notify([&](RunObserver& o) { o.on_metric(current(), current().metrics.back()); });
    } else if (kind == "curve") {
      RecordedCurve recorded;
      recorded.curve.name = event.at("name").get<std::string>();
      recorded.curve.steps = event.at("steps").get<std::vector<std::int64_t>>();
      for (const nlohmann::json& v : event.at("values")) {
        recorded.curve.values.push_back(read_json_number(v).value());
      }
      recorded.csv_file =
          "curves/" + unique_file_name(current().name + "." + recorded.curve.name, ".csv",
                                       curve_files_);
      current().curves.push_back(std::move(recorded));
      notify([&](RunObserver& o) { o.on_curve(current(), current().curves.back()); });
    } else if (kind == "end") {
      const bool skipped = event.at("skipped").get<bool>();
      const bool passed = event.at("passed").get<bool>();
      end_current(skipped ? TestStatus::kSkipped
                          : (passed ? TestStatus::kPassed : TestStatus::kFailed),
                  event.at("duration_s").get<double>());
    } else {
      add_runner_error(fmt::format("unknown event '{}'", kind));
    }
  } catch (const std::exception& error) {
    add_runner_error(fmt::format("malformed event from the test process ({}): {}", error.what(),
                                 event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
  }
}

void RunCollector::end_current(TestStatus status, double duration_s) {
  TestResult& test = current();
  // A failure always wins: GoogleTest may call a test with a failed SetUp "skipped".
  if (!test.failures.empty() && status != TestStatus::kCrashed) status = TestStatus::kFailed;
  test.status = status;
  test.duration_s = duration_s;
  apply_baselines(test);
  test.finished = true;
  running_.clear();
  notify([&](RunObserver& o) { o.on_test_end(test, run_); });
}

void RunCollector::crash_running_test(const std::string& message) {
  if (running_.empty()) return;
  current().crash_message = message;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - running_since_).count();
  end_current(TestStatus::kCrashed, elapsed);
}

void RunCollector::add_runner_error(const std::string& message) {
  run_.runner_errors.push_back(message);
}

void RunCollector::finish_run() {
  notify([&](RunObserver& o) { o.on_run_end(run_); });
}

}  // namespace mlregress::internal
