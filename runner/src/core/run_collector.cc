#include "run_collector.h"

#include <fmt/format.h>

#include <chrono>

#include "clock.h"
#include "environment_profile.h"
#include "json_number.h"
#include "policy_json.h"
#include "output_error.h"
#include "text_sanitize.h"
#include "sample_summary.h"
#include "test_report.h"

#include <algorithm>

namespace mlregress::internal {
namespace {

MetricRecord parse_metric_event(const nlohmann::json& event) {
  MetricRecord metric;
  metric.name = event.at("name").get<std::string>();
  metric.value = read_json_number(event.at("value")).value();
  metric.direction = parse_direction(event.at("direction").get<std::string>()).value();
  metric.policy = policy_from_json(event.at("policy"));
  return metric;
}

CurveRecord parse_curve_event(const nlohmann::json& event) {
  CurveRecord curve;
  curve.name = event.at("name").get<std::string>();
  curve.steps = event.at("steps").get<std::vector<std::int64_t>>();
  for (const nlohmann::json& v : event.at("values")) curve.values.push_back(read_json_number(v).value());
  return curve;
}

// "accuracy" for the only variant, "accuracy[half_width]" for a named one: each variant's
// distribution is a metric of its own, with its own baseline.
std::string variant_metric_name(const std::string& metric, const std::string& variant) {
  return variant.empty() ? metric : metric + "[" + variant + "]";
}

std::string seed_label(const SeedRun& run) {
  return run.variant.empty() ? fmt::format("seed {}", run.seed)
                             : fmt::format("seed {} [{}]", run.seed, run.variant);
}

}  // namespace

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

const BaselineTest* RunCollector::find_baseline(TestResult& test) const {
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
  return baseline;
}

void RunCollector::apply_baselines(TestResult& test) const {
  if (baselines_ == nullptr) return;
  const BaselineTest* baseline = find_baseline(test);
  bool regressed = false;
  for (const MetricRecord& metric : test.metrics) {
    const BaselineMetric* entry = nullptr;
    if (baseline != nullptr) {
      auto it = baseline->metrics.find(metric.name);
      if (it != baseline->metrics.end()) entry = &it->second;
    }
    // A seeded metric's REGRESSION comes later, from apply_statistical_gate.
    MetricComparison c = test.seeded ? compare_distribution(metric, entry)
                                     : compare_metric(metric.name, metric.value, metric.direction, entry, profile_.id);
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
      MetricRecord metric = parse_metric_event(event);
      current().metrics.push_back(std::move(metric));
      notify([&](RunObserver& o) { o.on_metric(current(), current().metrics.back()); });
    } else if (kind == "curve") {
      RecordedCurve recorded;
      recorded.curve = parse_curve_event(event);
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

void RunCollector::start_seeded_test(const PlannedTest& planned) {
  TestResult result;
  result.name = planned.test->name;
  result.full_name = planned.test->full_name();
  result.tier = planned.test->tier;
  result.file = planned.test->file;
  result.line = planned.test->line;
  result.config_hash = planned.config_hash;
  result.seed = planned.seeds.front();
  result.threads = 1;
  result.started_at = utc_now_iso8601();
  result.seeded = true;
  result.seed_runs_planned = planned.seeds.size() * planned.variants.size();
  run_.tests.push_back(std::move(result));
  running_ = planned.test->full_name();
  running_since_ = std::chrono::steady_clock::now();
  notify([&](RunObserver& o) { o.on_test_start(current()); });
}

void RunCollector::add_seed_run(const SeedJob& job, const std::vector<nlohmann::json>& events,
                                const std::string& death, double duration_s) {
  TestResult& test = current();
  SeedRun run;
  run.variant = job.variant->name;
  run.variant_index = static_cast<std::size_t>(job.variant - job.test->variants.data());
  run.seed = job.seed;
  run.duration_s = duration_s;
  bool ended = false;
  for (const nlohmann::json& event : events) {
    try {
      const std::string kind = event.at("event").get<std::string>();
      if (kind == "failure") {
        run.failures.push_back({event.at("file").get<std::string>(), event.at("line").get<int>(),
                                event.at("message").get<std::string>(), event.at("fatal").get<bool>()});
      } else if (kind == "skip") {
        run.skip_message = event.at("message").get<std::string>();
      } else if (kind == "metric") {
        run.metrics.push_back(parse_metric_event(event));
      } else if (kind == "curve") {
        RecordedCurve recorded;
        recorded.curve = parse_curve_event(event);
        recorded.curve.name = fmt::format("{}.seed{}", variant_metric_name(recorded.curve.name, run.variant), run.seed);
        recorded.csv_file = "curves/" + unique_file_name(test.name + "." + recorded.curve.name, ".csv", curve_files_);
        test.curves.push_back(std::move(recorded));
        notify([&](RunObserver& o) { o.on_curve(test, test.curves.back()); });
      } else if (kind == "end") {
        ended = true;
        run.status = event.at("skipped").get<bool>() ? TestStatus::kSkipped
                     : event.at("passed").get<bool>() ? TestStatus::kPassed
                                                       : TestStatus::kFailed;
      }
    } catch (const std::exception& error) {
      add_runner_error(fmt::format("malformed event from {} of {} ({}): {}", seed_label(run), test.name,
                                   error.what(), event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
    }
  }
  if (!ended) {
    run.status = TestStatus::kCrashed;
    run.crash_message = death.empty() ? "the test process ended without finishing the test" : death;
  } else if (!run.failures.empty()) {
    run.status = TestStatus::kFailed;
  }
  // Keep seed runs in plan order (variant, then seed), whatever order the workers finished in:
  // results must not depend on --jobs.
  const auto rank = [](const SeedRun& r) { return std::pair{r.variant_index, r.seed}; };
  auto at = test.seed_runs.begin();
  while (at != test.seed_runs.end() && rank(*at) < rank(run)) ++at;
  at = test.seed_runs.insert(at, std::move(run));
  notify([&](RunObserver& o) { o.on_seed_end(test, *at, run_); });
}

void RunCollector::end_seeded_test(double duration_s) {
  TestResult& test = current();
  std::size_t failed = 0, crashed = 0, skipped = 0;
  for (const SeedRun& run : test.seed_runs) {
    failed += run.status == TestStatus::kFailed;
    crashed += run.status == TestStatus::kCrashed;
    skipped += run.status == TestStatus::kSkipped;
    for (const TestFailure& f : run.failures) {
      test.failures.push_back({f.file, f.line, seed_label(run) + ": " + f.message, f.fatal});
    }
    if (run.status == TestStatus::kCrashed) {
      test.failures.push_back({"", 0, seed_label(run) + ": " + run.crash_message, true});
    }
  }
  // Samples come from the seeds that passed, in plan order. A seed that failed or died is an
  // error of the test, reported above; the others' values are still kept and shown.
  for (const SeedRun& run : test.seed_runs) {
    if (run.status != TestStatus::kPassed) continue;
    for (const MetricRecord& m : run.metrics) {
      const std::string name = variant_metric_name(m.name, run.variant);
      auto it = std::find_if(test.metrics.begin(), test.metrics.end(),
                             [&](const MetricRecord& a) { return a.name == name; });
      if (it == test.metrics.end()) {
        MetricRecord aggregate;
        aggregate.name = name;
        aggregate.direction = m.direction;
        aggregate.policy = m.policy;
        test.metrics.push_back(std::move(aggregate));
        it = std::prev(test.metrics.end());
      }
      if (!it->sample_seeds.empty() && it->sample_seeds.back() == run.seed) {
        it->samples.back() = m.value;  // recorded twice in one seed: the last value counts
        continue;
      }
      it->samples.push_back(m.value);
      it->sample_seeds.push_back(run.seed);
    }
  }
  for (MetricRecord& m : test.metrics) m.value = summarize_samples(m.samples).mean;
  for (const MetricRecord& m : test.metrics) notify([&](RunObserver& o) { o.on_metric(test, m); });

  TestStatus status = TestStatus::kPassed;
  if (crashed > 0) {
    status = TestStatus::kCrashed;
    test.crash_message = fmt::format("{} of {} seed runs did not finish", crashed, test.seed_runs.size());
  } else if (failed > 0) {
    status = TestStatus::kFailed;
  } else if (skipped == test.seed_runs.size() && skipped > 0) {
    status = TestStatus::kSkipped;
    test.skip_message = test.seed_runs.front().skip_message;
  }
  end_current(status, duration_s);
}

void RunCollector::apply_statistical_gate(double alpha) {
  std::vector<DistributionAnalysis> analyses;
  std::vector<std::pair<TestResult*, MetricComparison*>> owners;
  for (TestResult& test : run_.tests) {
    for (MetricComparison& c : test.comparisons) {
      if (!c.distribution) continue;
      analyses.push_back(*c.distribution);
      owners.emplace_back(&test, &c);
    }
  }
  if (analyses.empty()) return;
  const std::vector<GateDecision> decisions = decide_gate(analyses, alpha);
  for (std::size_t i = 0; i < decisions.size(); ++i) {
    auto [test, c] = owners[i];
    c->decision = decisions[i];
    c->verdict = decisions[i].verdict;
    const std::size_t direction_note = c->note.find(kDirectionChangedNote);
    c->note = decisions[i].reason + (direction_note == std::string::npos ? "" : c->note.substr(direction_note));
    if (c->verdict == Verdict::kRegression && test->status == TestStatus::kPassed) {
      test->status = TestStatus::kRegressed;
    }
  }
}

void RunCollector::finish_run() {
  notify([&](RunObserver& o) { o.on_run_end(run_); });
}

}  // namespace mlregress::internal
