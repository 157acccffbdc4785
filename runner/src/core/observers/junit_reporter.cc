#include "observers/junit_reporter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <pugixml.hpp>
#include <sstream>

#include "analysis/capability.h"
#include "execution/seed_runs.h"
#include "observers/regression_report.h"
#include "observers/test_report.h"
#include "record/json_text.h"
#include "support/atomic_file.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

void set(pugi::xml_node node, const char* name, std::string_view value) {
  node.append_attribute(name).set_value(xml_safe(value).c_str());
}

void set(pugi::xml_node node, const char* name, std::size_t value) {
  set(node, name, fmt::format("{}", value));
}

void text(pugi::xml_node node, std::string_view value) {
  node.append_child(pugi::node_pcdata).set_value(xml_safe(value).c_str());
}

void property(pugi::xml_node properties, std::string_view name, std::string_view value) {
  pugi::xml_node node = properties.append_child("property");
  set(node, "name", name);
  set(node, "value", value);
}

std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

// A failure message on one line, whitespace collapsed, at most ~300 characters: CI servers show
// it as the headline, the full text follows in the element's body.
std::string one_line(std::string_view text) {
  std::string out;
  for (char c : text) {
    const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  if (out.size() > 300) out = out.substr(0, 297) + "...";
  return out;
}

std::string failure_text(const TestResult& test) {
  std::string out;
  for (const TestFailure& failure : test.failures) {
    if (!failure.file.empty()) out += fmt::format("{}:{}\n", failure.file, failure.line);
    out += failure.message + "\n";
  }
  return out;
}

std::string env_string(const nlohmann::json& environment, const nlohmann::json::json_pointer& at) {
  if (!environment.contains(at)) return "";
  const nlohmann::json& value = environment.at(at);
  return value.is_string() ? value.get<std::string>() : json_text(value);
}

// "REGRESSION loss 0.31 -> 0.35 ..." for each comparison with one of `verdicts`.
std::vector<std::string> comparisons_with(const TestResult& test,
                                          std::initializer_list<Verdict> verdicts) {
  std::vector<std::string> found;
  for (const MetricComparison& c : test.comparisons) {
    if (std::find(verdicts.begin(), verdicts.end(), c.verdict) == verdicts.end()) continue;
    found.push_back(fmt::format("{} {}", verdict_name(c.verdict), format_comparison_summary(c)));
  }
  return found;
}

// A passing test that --strict-env fails: a metric of it was UNGATED or NOT_COMPARABLE.
bool fails_strict_env(const RunResult& run, const TestResult& test) {
  if (!run.info.strict_env || test.status != TestStatus::kPassed) return false;
  return std::any_of(test.comparisons.begin(), test.comparisons.end(),
                     [](const auto& c) { return is_not_gated(c.verdict); });
}

// What the testsuite counts as a failure (crashes and timeouts are errors).
bool counts_as_failure(const RunResult& run, const TestResult& test) {
  return test.status == TestStatus::kFailed || test.status == TestStatus::kRegressed ||
         !test.constraints_violated.empty() || fails_strict_env(run, test);
}

// Every failed attempt of a flaky-aware test, as Maven Surefire records reruns: in a test that
// passed (its failure rate is not worse than the baseline's) as <flakyFailure>/<flakyError>, in
// one that regressed as <rerunFailure>/<rerunError> after its <failure>. No attempt is dropped.
void add_failed_attempts(pugi::xml_node testcase, const TestResult& test) {
  if (!test.attempts) return;
  // Reruns of a failure when the rate regressed; flaky otherwise (also when another value of the
  // test regressed: the attempts themselves passed the rate gate).
  const bool failed =
      std::any_of(test.comparisons.begin(), test.comparisons.end(), [](const MetricComparison& c) {
        return c.kind == MetricKind::kRate && c.verdict == Verdict::kRegression;
      });
  for (const SeedRun& attempt : test.seed_runs) {
    if (!is_test_failure(attempt.status) || is_missing_unit(attempt)) continue;
    const bool error = attempt.status != TestStatus::kFailed;
    pugi::xml_node node = testcase.append_child(failed ? (error ? "rerunError" : "rerunFailure")
                                                       : (error ? "flakyError" : "flakyFailure"));
    std::string trace;
    for (const TestFailure& f : attempt.failures) {
      if (!f.file.empty()) trace += fmt::format("{}:{}\n", f.file, f.line);
      trace += f.message + "\n";
    }
    if (error) trace += attempt.crash_message + "\n";
    const std::string first =
        !attempt.failures.empty() ? attempt.failures.front().message : attempt.crash_message;
    set(node, "message", fmt::format("{}: {}", attempt_label(test, attempt), one_line(first)));
    set(node, "type",
        attempt.status == TestStatus::kFailed    ? "assertion"
        : attempt.status == TestStatus::kCrashed ? "crash"
                                                 : "timeout");
    text(node.append_child("stackTrace"), trace);
  }
}

// "mlregress.capability.Test.metric" = "NOT MET: 0.8 (target > 0.9); met 3 of 10 runs (…)": a
// suite property, since JUnit's test cases hold none.
void add_capability_properties(pugi::xml_node properties, const TestResult& test) {
  for (const MetricRecord& metric : test.metrics) {
    if (!metric.target) continue;
    const auto rate = test.capability_rates.find(metric.name);
    property(properties, fmt::format("mlregress.capability.{}.{}", test.name, metric.name),
             describe_capability(metric, rate == test.capability_rates.end()
                                             ? std::nullopt
                                             : std::optional(rate->second)));
  }
}

void add_testcase(pugi::xml_node suite, const RunResult& run, const TestResult& test) {
  pugi::xml_node testcase = suite.append_child("testcase");
  set(testcase, "name", test.name);
  set(testcase, "classname", fmt::format("{}.{}", run.info.binary, tier_name(test.tier)));
  set(testcase, "time", junit_seconds(test.duration_s));
  if (test.status == TestStatus::kFailed) {
    pugi::xml_node failure = testcase.append_child("failure");
    const TestFailure& first = test.failures.empty() ? TestFailure{} : test.failures.front();
    std::string message = first.file.empty() ? one_line(first.message)
                                             : fmt::format("{}:{}: {}", first.file, first.line,
                                                           one_line(first.message));
    if (test.failures.size() > 1)
      message += fmt::format(" (and {} more)", test.failures.size() - 1);
    // A failed test that also regressed: the exit code says "failed", so CI must see both here.
    const std::vector<std::string> regressed = comparisons_with(test, {Verdict::kRegression});
    if (!regressed.empty()) message += fmt::format("; also {}", fmt::join(regressed, "; "));
    set(failure, "message", message);
    set(failure, "type", "assertion");
    text(failure, failure_text(test) +
                      (regressed.empty() ? "" : format_regression_report(run.info.run_id, test)));
  } else if (test.status == TestStatus::kCrashed || test.status == TestStatus::kTimedOut) {
    const bool crashed = test.status == TestStatus::kCrashed;
    pugi::xml_node error = testcase.append_child("error");
    set(error, "message", (crashed ? "crashed: " : "timed out: ") + test.crash_message);
    set(error, "type", crashed ? "crash" : "timeout");
    text(error, failure_text(test) + test.crash_message + "\n");
  } else if (test.status == TestStatus::kRegressed) {
    const std::vector<std::string> regressed = comparisons_with(test, {Verdict::kRegression});
    pugi::xml_node failure = testcase.append_child("failure");
    set(failure, "message", fmt::format("{}", fmt::join(regressed, "; ")));
    set(failure, "type", "regression");
    text(failure, format_regression_report(run.info.run_id, test));
  } else if (!test.constraints_violated.empty()) {
    // The test's own constraints (MlTest::constrain), broken against the baseline.
    pugi::xml_node failure = testcase.append_child("failure");
    set(failure, "message", fmt::format("{}", fmt::join(test.constraints_violated, "; ")));
    set(failure, "type", "constraint_violated");
    text(failure, format_regression_report(run.info.run_id, test));
  } else if (fails_strict_env(run, test)) {
    const std::vector<std::string> not_gated =
        comparisons_with(test, {Verdict::kUngated, Verdict::kNotComparable});
    pugi::xml_node failure = testcase.append_child("failure");
    set(failure, "message", fmt::format("--strict-env: {}", fmt::join(not_gated, "; ")));
    set(failure, "type", "not_gated");
    text(failure, format_regression_report(run.info.run_id, test));
  } else if (test.status == TestStatus::kSkipped) {
    pugi::xml_node skipped = testcase.append_child("skipped");
    if (!test.skip_message.empty()) set(skipped, "message", first_line(test.skip_message));
  }
  add_failed_attempts(testcase, test);
  // A capability (MET or NOT MET) never fails the test case: it is reported in its output and in
  // the suite's properties, and the test case counts as what its status says.
  text(testcase.append_child("system-out"), format_capabilities(test) + format_test_report(test) +
                                                format_regression_report(run.info.run_id, test));
}

}  // namespace

std::string junit_seconds(double seconds) {
  if (!(std::isfinite(seconds) && seconds > 0)) seconds = 0;  // also turns -0.0 into 0
  return fmt::format("{:.3f}", seconds);
}

std::string render_junit(const RunResult& run) {
  pugi::xml_document doc;
  std::size_t failures = 0, errors = 0;
  std::size_t finished = 0;
  for (const TestResult& test : run.tests) {
    if (!test.finished) continue;  // only finished tests become testcases
    ++finished;
    failures += counts_as_failure(run, test);
    errors += test.status == TestStatus::kCrashed || test.status == TestStatus::kTimedOut;
  }
  pugi::xml_node root = doc.append_child("testsuites");
  set(root, "name", run.info.binary);
  set(root, "tests", finished);
  set(root, "failures", failures);
  set(root, "errors", errors);
  set(root, "time", junit_seconds(run.info.duration_s));

  for (Tier tier : {Tier::Fast, Tier::Medium, Tier::Full}) {
    std::vector<const TestResult*> members;
    for (const TestResult& test : run.tests) {
      if (test.tier == tier && test.finished) members.push_back(&test);
    }
    if (members.empty()) continue;
    std::size_t suite_failures = 0, suite_errors = 0, suite_skipped = 0;
    double suite_time = 0;
    for (const TestResult* test : members) {
      suite_failures += counts_as_failure(run, *test);
      suite_errors += test->status == TestStatus::kCrashed || test->status == TestStatus::kTimedOut;
      suite_skipped += test->status == TestStatus::kSkipped;
      suite_time += test->duration_s;
    }
    pugi::xml_node suite = root.append_child("testsuite");
    set(suite, "name", tier_name(tier));
    set(suite, "tests", members.size());
    set(suite, "failures", suite_failures);
    set(suite, "errors", suite_errors);
    set(suite, "skipped", suite_skipped);
    set(suite, "time", junit_seconds(suite_time));
    set(suite, "timestamp", members.front()->started_at);
    set(suite, "hostname", env_string(run.info.environment, "/hostname"_json_pointer));
    pugi::xml_node properties = suite.append_child("properties");
    property(properties, "mlregress.run_id", run.info.run_id);
    property(properties, "mlregress.seed", fmt::format("{}", run.info.seed));
    property(properties, "mlregress.threads", fmt::format("{}", run.info.threads));
    property(properties, "git.commit",
             env_string(run.info.environment, "/git/commit"_json_pointer));
    property(properties, "git.dirty", env_string(run.info.environment, "/git/dirty"_json_pointer));
    const std::string framework = env_string(run.info.environment, "/framework/name"_json_pointer);
    if (!framework.empty()) {
      property(
          properties, "framework",
          framework + " " + env_string(run.info.environment, "/framework/version"_json_pointer));
    }
    for (const TestResult* test : members) add_capability_properties(properties, *test);
    for (const TestResult* test : members) add_testcase(suite, run, *test);
  }
  std::ostringstream out;
  doc.save(out, "  ", pugi::format_default | pugi::format_no_declaration, pugi::encoding_utf8);
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + out.str();
}

}  // namespace mlregress::internal
