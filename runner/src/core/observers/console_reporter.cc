#include "observers/console_reporter.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "execution/seed_runs.h"
#include "observers/ablation_table.h"
#include "observers/not_gated_summary.h"
#include "observers/regression_report.h"
#include "observers/test_report.h"
#include "support/text_sanitize.h"  // xml_safe also keeps terminal escapes out of the console

namespace mlregress::internal {
namespace {

std::string plural(std::size_t n, const char* noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

long long to_ms(double seconds) { return std::llround(seconds * 1000.0); }

}  // namespace

bool terminal_wants_color(std::FILE* out) {
  const char* term = std::getenv("TERM");
  if (std::getenv("NO_COLOR") != nullptr) return false;
  if (term == nullptr || std::strcmp(term, "dumb") == 0) return false;
  return ::isatty(::fileno(out)) != 0;
}

void ConsoleReporter::tag(Color color, const char* text) {
  if (!color_) {
    std::fputs(text, out_);
    return;
  }
  const char* code = color == Color::kGreen ? "32" : color == Color::kRed ? "31" : "33";
  std::fprintf(out_, "\033[0;%sm%s\033[m", code, text);
}

void ConsoleReporter::flush() { std::fflush(out_); }

void ConsoleReporter::on_run_start(const RunResult& run) {
  tag(Color::kGreen, "[==========] ");
  const std::string tiers = fmt::format("{}", fmt::join(run.info.tiers, ","));
  std::fprintf(out_, "Running %s run %s (tiers %s, seed %llu, threads %d)\n",
               run.info.binary.c_str(), run.info.run_id.c_str(), tiers.c_str(),
               static_cast<unsigned long long>(run.info.seed), run.info.threads);
  flush();
}

void ConsoleReporter::on_seed_end(const TestResult& test, const SeedRun& seed_run,
                                  const RunResult& /*run*/) {
  const std::size_t done = test.seed_runs.size();
  std::size_t total = test.seed_runs_planned;
  if (test.seed_block > 0 && test.seed_cap > 0 && total > 0) {
    // A sequential test counts to the end of its current block: whether another block runs is
    // decided when this one has ended.
    const std::size_t per_seed = total / static_cast<std::size_t>(test.seed_cap);
    const std::size_t first = per_seed * static_cast<std::size_t>(test.seed_block);
    const std::size_t later =
        per_seed *
        static_cast<std::size_t>(test.seed_next_block > 0 ? test.seed_next_block : test.seed_block);
    if (first > 0 && later > 0) {
      std::size_t end = first;
      while (end < done) end += later;
      total = std::min(total, end);
    }
  }
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - test_start_).count();
  const double eta =
      done > 0 ? elapsed / static_cast<double>(done) * static_cast<double>(total - done) : 0.0;
  const std::string label = test.attempts              ? attempt_label(test, seed_run)
                            : seed_run.variant.empty() ? fmt::format("seed {}", seed_run.seed)
                                                       : fmt::format("seed {} [{}]", seed_run.seed,
                                                                     xml_safe(seed_run.variant));
  const char* tag_text = test.attempts ? "[  ATTEMPT ] " : "[   SEED   ] ";
  const bool ok = seed_run.status == TestStatus::kPassed || seed_run.status == TestStatus::kSkipped;
  if (progress_in_place_ && ok) {
    std::fprintf(out_, "\r\033[K%s %s %zu/%zu · %s · %.1f s elapsed · ETA %.0f s",
                 test.attempts ? "[ ATTEMPTS ]" : "[   SEEDS  ]", xml_safe(test.name).c_str(), done,
                 total, label.c_str(), elapsed, eta);
    progress_line_open_ = true;
    flush();
    return;
  }
  if (progress_line_open_) std::fputs("\r\033[K", out_);
  progress_line_open_ = false;
  if (!ok)
    tag(test.attempts ? Color::kYellow : Color::kRed, tag_text);
  else
    std::fputs(tag_text, out_);
  std::fprintf(out_, "%s %zu/%zu: %s %s in %.2f s (elapsed %.1f s, ETA %.0f s)\n",
               xml_safe(test.name).c_str(), done, total, label.c_str(),
               std::string(test_status_name(seed_run.status)).c_str(), seed_run.duration_s, elapsed,
               eta);
  if (!seed_run.crash_message.empty())
    std::fprintf(out_, "%s\n", xml_safe(seed_run.crash_message).c_str());
  for (const TestFailure& failure : seed_run.failures) {
    if (!failure.file.empty())
      std::fprintf(out_, "%s:%d: Failure\n", failure.file.c_str(), failure.line);
    std::fprintf(out_, "%s\n", xml_safe(failure.message).c_str());
  }
  flush();
}

void ConsoleReporter::on_test_start(const TestResult& test) {
  test_start_ = std::chrono::steady_clock::now();
  tag(Color::kGreen, "[ RUN      ] ");
  std::fprintf(out_, "%s\n", xml_safe(test.full_name).c_str());
  flush();
}

void ConsoleReporter::on_failure(const TestResult& test, const TestFailure& failure) {
  if (test.seeded) return;  // printed with its seed by on_seed_end
  if (!failure.file.empty())
    std::fprintf(out_, "%s:%d: Failure\n", failure.file.c_str(), failure.line);
  std::fprintf(out_, "%s\n", xml_safe(failure.message).c_str());
  flush();
}

void ConsoleReporter::on_metric(const TestResult& /*test*/, const MetricRecord& metric) {
  if (progress_line_open_) std::fputs("\r\033[K", out_);
  progress_line_open_ = false;
  std::fputs("[   METRIC ] ", out_);
  std::fprintf(out_, "%s\n", xml_safe(format_metric(metric)).c_str());
  flush();
}

void ConsoleReporter::on_test_end(const TestResult& test, const RunResult& run) {
  if (progress_line_open_) std::fputs("\r\033[K", out_);
  progress_line_open_ = false;
  const std::string name = xml_safe(test.full_name);
  const long long ms = to_ms(test.duration_s);
  switch (test.status) {
    case TestStatus::kPassed: {
      tag(Color::kGreen, "[       OK ] ");
      const auto pending = [&](auto analysis) {
        return std::any_of(test.comparisons.begin(), test.comparisons.end(),
                           [&](const MetricComparison& c) { return analysis(c) && !c.decision; });
      };
      const bool seeds =
          pending([](const MetricComparison& c) { return c.distribution.has_value(); });
      const bool flips = pending([](const MetricComparison& c) { return c.flips.has_value(); });
      std::fprintf(out_, "%s (%lld ms)%s\n", name.c_str(), ms,
                   seeds   ? "; its multi-seed verdicts follow at the end of the run"
                   : flips ? "; its predictions' verdicts follow at the end of the run"
                           : "");
      break;
    }
    case TestStatus::kSkipped:
      tag(Color::kYellow, "[  SKIPPED ] ");
      std::fprintf(out_, "%s (%lld ms)%s%s\n", name.c_str(), ms,
                   test.skip_message.empty() ? "" : ": ", xml_safe(test.skip_message).c_str());
      break;
    case TestStatus::kFailed:
      tag(Color::kRed, "[  FAILED  ] ");
      std::fprintf(out_, "%s (%lld ms)\n", name.c_str(), ms);
      break;
    case TestStatus::kCrashed:
      tag(Color::kRed, "[  CRASHED ] ");
      std::fprintf(out_, "%s (%lld ms): %s\n", name.c_str(), ms, test.crash_message.c_str());
      break;
    case TestStatus::kRegressed:
      tag(Color::kRed, "[ REGRESSED] ");
      std::fprintf(out_, "%s (%lld ms)\n", name.c_str(), ms);
      break;
    case TestStatus::kTimedOut:
      tag(Color::kRed, "[ TIMED OUT] ");
      std::fprintf(out_, "%s (%lld ms): %s\n", name.c_str(), ms, test.crash_message.c_str());
      break;
  }
  const std::string report = format_regression_report(run.info.run_id, test);
  if (!report.empty()) std::fputs(xml_safe(report).c_str(), out_);
  flush();
}

// Each capability's outcome and its rate over the history: informs, never fails the run.
void ConsoleReporter::print_capabilities(const RunResult& run) {
  for (const TestResult& test : run.tests) {
    for (const MetricRecord& metric : test.metrics) {
      if (!metric.target) continue;
      const auto rate = test.capability_rates.find(metric.name);
      const bool met = target_met(*metric.target, metric.value);
      tag(met ? Color::kGreen : Color::kYellow, "[CAPABILITY] ");
      std::fprintf(
          out_, "%s.%s %s\n", xml_safe(test.name).c_str(), xml_safe(metric.name).c_str(),
          xml_safe(describe_capability(metric, rate == test.capability_rates.end()
                                                   ? std::nullopt
                                                   : std::optional<CapabilityRate>(rate->second)))
              .c_str());
    }
  }
}

// Metrics without a baseline pass as NEW; say how to give them one.
void ConsoleReporter::print_promotion_hint(const RunResult& run) {
  std::size_t fresh = 0, tests = 0;
  for (const TestResult& test : run.tests) {
    std::size_t count = 0;
    for (std::size_t i = 0; i < test.comparisons.size(); ++i) {
      // A capability has no baseline until graduate writes its guard: promote leaves it.
      const bool capability = i < test.metrics.size() && test.metrics[i].target;
      count += test.comparisons[i].verdict == Verdict::kNew && !capability ? 1 : 0;
    }
    fresh += count;
    tests += count > 0;
  }
  if (fresh == 0) return;
  tag(Color::kYellow, "[   NEW    ] ");
  if (!run.info.baseline_history.empty()) {
    std::fprintf(out_,
                 "%s of %s %s no baseline yet: the rolling baseline holds %s once this run is "
                 "under %s\n",
                 plural(fresh, "metric").c_str(), plural(tests, "test").c_str(),
                 fresh == 1 ? "has" : "have", fresh == 1 ? "it" : "them",
                 run.info.baseline_history.c_str());
    return;
  }
  std::fprintf(out_, "%s of %s %s no baseline yet. Review this run, then adopt it:\n",
               plural(fresh, "metric").c_str(), plural(tests, "test").c_str(),
               fresh == 1 ? "has" : "have");
  std::fprintf(out_, "             %s promote %s --baselines %s --reason \"...\"\n",
               run.info.binary.c_str(), run.info.run_folder.c_str(), run.info.baselines.c_str());
}

void ConsoleReporter::on_run_end(const RunResult& run) {
  print_ablation_tables(run);
  print_gate_verdicts(run);
  print_capabilities(run);
  print_promotion_hint(run);
  print_summary(run);
}

// Seeded tests with variants: the ablation table of each, from seeds.jsonl.
void ConsoleReporter::print_ablation_tables(const RunResult& run) {
  const bool has_variants =
      std::any_of(run.tests.begin(), run.tests.end(), [](const TestResult& t) {
        return t.seeded && !t.seed_runs.empty() &&
               std::any_of(t.seed_runs.begin(), t.seed_runs.end(), [&](const SeedRun& r) {
                 return r.variant != t.seed_runs.front().variant;
               });
      });
  if (has_variants && !seed_ledger_.empty()) {
    try {
      const SeedLedger seeds = read_seed_ledger(seed_ledger_);
      for (const std::string& note : seeds.damaged) {
        std::fprintf(out_, "warning: %s\n", xml_safe(note).c_str());
      }
      std::fputs(xml_safe(render_ablation_tables(seeds.lines)).c_str(), out_);
    } catch (const std::exception& error) {
      std::fprintf(out_, "ablation table unavailable: %s\n", xml_safe(error.what()).c_str());
    }
  }
}

void ConsoleReporter::print_gate_verdicts(const RunResult& run) {
  print_seeded_verdicts(run);
  print_prediction_verdicts(run);
  print_late_causes(run);
}

// The cause of a value, indented under its verdict line (nothing when it has none).
void ConsoleReporter::print_cause(const MetricComparison& c) {
  if (c.cause) {
    std::fprintf(out_, "                 cause: %s\n", xml_safe(format_cause(*c.cause)).c_str());
  }
}

void ConsoleReporter::print_seeded_verdicts(const RunResult& run) {
  // Seeded metrics get their verdicts only now (Holm across the run), so they are listed here.
  bool gate_header = false;
  for (const TestResult& test : run.tests) {
    for (const MetricComparison& c : test.comparisons) {
      if (!c.distribution || !c.decision) continue;
      if (!gate_header) {
        tag(Color::kGreen, "[==========] ");
        std::fprintf(out_,
                     "Multi-seed gate (one-sided, Holm across the run's statistical checks)\n");
        gate_header = true;
      }
      const bool bad = c.verdict == Verdict::kRegression;
      const bool unsure = c.verdict == Verdict::kInconclusive;
      tag(bad      ? Color::kRed
          : unsure ? Color::kYellow
                   : Color::kGreen,
          fmt::format("[{:^14}] ", verdict_name(c.verdict)).c_str());
      std::fprintf(out_, "%s.%s: %s\n", xml_safe(test.name).c_str(), xml_safe(c.metric).c_str(),
                   xml_safe(format_distribution(*c.distribution, *c.decision)).c_str());
      std::fprintf(out_, "                 %s\n", xml_safe(comparison_note(c)).c_str());
      for (const SequentialLook& look : c.looks) {
        std::fprintf(out_, "                   %s\n", xml_safe(format_look(look)).c_str());
      }
      print_cause(c);
    }
  }
}

void ConsoleReporter::print_prediction_verdicts(const RunResult& run) {
  // Predictions compared example by example: McNemar's tests joined the same Holm families.
  for (const TestResult& test : run.tests) {
    for (const MetricComparison& c : test.comparisons) {
      if (!c.flips || !c.decision) continue;
      tag(c.verdict == Verdict::kRegression ? Color::kRed : Color::kGreen,
          fmt::format("[{:^14}] ", verdict_name(c.verdict)).c_str());
      std::fprintf(out_, "%s.%s (predictions): %s\n", xml_safe(test.name).c_str(),
                   xml_safe(c.metric).c_str(), xml_safe(c.note).c_str());
      std::string summary = c.flips->summary;
      while (!summary.empty() && summary.back() == '\n') summary.pop_back();
      for (std::size_t at = 0; (at = summary.find('\n', at)) != std::string::npos; at += 18)
        summary.replace(at, 1, "\n                 ");
      std::fprintf(out_, "                 %s\n", xml_safe(summary).c_str());
      print_cause(c);
    }
  }
}

void ConsoleReporter::print_late_causes(const RunResult& run) {
  // The causes of the other values of tests whose checks were decided only now (a sibling's
  // verdict is evidence for them; their reports said the cause would follow).
  for (const TestResult& test : run.tests) {
    bool decided_now = false;
    for (const MetricComparison& c : test.comparisons) {
      decided_now = decided_now || ((c.distribution || c.flips) && c.decision);
    }
    if (!decided_now) continue;
    for (const MetricComparison& c : test.comparisons) {
      if (!c.cause || c.distribution || c.flips) continue;
      tag(c.verdict == Verdict::kRegression ? Color::kRed : Color::kYellow, "[  CAUSE   ] ");
      std::fprintf(out_, "%s.%s (%s): %s\n", xml_safe(test.name).c_str(),
                   xml_safe(c.metric).c_str(), std::string(verdict_name(c.verdict)).c_str(),
                   xml_safe(format_cause(*c.cause)).c_str());
    }
  }
}

// Every metric the run could not gate, each with its reason, under the summary line that says
// what to do: red when --strict-env makes them fail the run.
void ConsoleReporter::print_not_gated(const RunResult& run) {
  const std::string summary = not_gated_summary(run);
  if (summary.empty()) return;
  const Color color = run.info.strict_env ? Color::kRed : Color::kYellow;
  tag(color, "[NOT GATED ] ");
  std::fprintf(out_, "%s\n", xml_safe(summary).c_str());
  for (const TestResult& test : run.tests) {
    for (const MetricComparison& c : test.comparisons) {
      if (!is_not_gated(c.verdict)) continue;
      tag(color, "[NOT GATED ] ");
      std::fprintf(out_, "%s.%s: %s (%s)\n", xml_safe(test.name).c_str(),
                   xml_safe(c.metric).c_str(), std::string(verdict_name(c.verdict)).c_str(),
                   xml_safe(c.note).c_str());
      if (c.cause) {
        tag(color, "[NOT GATED ] ");
        std::fprintf(out_, "  cause: %s\n", xml_safe(format_cause(*c.cause)).c_str());
      }
    }
  }
}

// GoogleTest's closing lines: the counts, the tests that did not pass, the runner's errors.
void ConsoleReporter::print_summary(const RunResult& run) {
  std::vector<const TestResult*> passed, skipped, failed;
  for (const TestResult& test : run.tests) {
    if (test.status == TestStatus::kPassed) passed.push_back(&test);
    if (test.status == TestStatus::kSkipped) skipped.push_back(&test);
    if (is_test_failure(test.status) || test.status == TestStatus::kRegressed) {
      failed.push_back(&test);
    }
  }
  tag(Color::kGreen, "[==========] ");
  std::fprintf(out_, "%s ran. (%lld ms total)\n", plural(run.tests.size(), "test").c_str(),
               to_ms(run.info.duration_s));
  tag(Color::kGreen, "[  PASSED  ] ");
  std::fprintf(out_, "%s.\n", plural(passed.size(), "test").c_str());
  if (!skipped.empty()) {
    tag(Color::kYellow, "[  SKIPPED ] ");
    std::fprintf(out_, "%s, listed below:\n", plural(skipped.size(), "test").c_str());
    for (const TestResult* test : skipped) {
      tag(Color::kYellow, "[  SKIPPED ] ");
      std::fprintf(out_, "%s\n", xml_safe(test->full_name).c_str());
    }
  }
  if (!failed.empty()) {
    tag(Color::kRed, "[  FAILED  ] ");
    std::fprintf(out_, "%s, listed below:\n", plural(failed.size(), "test").c_str());
    for (const TestResult* test : failed) {
      tag(Color::kRed, "[  FAILED  ] ");
      std::fprintf(out_, "%s%s\n", xml_safe(test->full_name).c_str(),
                   test->status == TestStatus::kCrashed     ? " (crashed)"
                   : test->status == TestStatus::kTimedOut  ? " (timed out)"
                   : test->status == TestStatus::kRegressed ? " (regression)"
                                                            : "");
    }
  }
  print_not_gated(run);
  for (const std::string& error : run.runner_errors) {
    tag(Color::kRed, "[  RUNNER  ] ");
    std::fprintf(out_, "%s\n", xml_safe(error).c_str());
  }
  std::fprintf(out_, "%zu passed, %zu failed, %zu skipped\n", passed.size(), failed.size(),
               skipped.size());
  std::fprintf(out_, "Run folder: %s\n", run.info.run_folder.c_str());
  flush();
}

}  // namespace mlregress::internal
