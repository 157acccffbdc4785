#include "renderers/html_report.h"

#include <fmt/format.h>

#include <cmath>

#include "analysis/capability.h"
#include "execution/seed_runs.h"
#include "observers/regression_report.h"
#include "observers/test_report.h"
#include "renderers/batch_html.h"
#include "renderers/predictions_report.h"
#include "renderers/scorecard_report.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

constexpr std::string_view kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;max-width:1120px;padding:0 16px 40px;color:#1d1d1d}
h1{margin:0;font-size:26px}h2{font-size:18px;margin:0 0 6px}h3{font-size:15px;margin:14px 0 4px}
header.verdict{padding:14px 18px;margin:16px 0;border-radius:6px;border-left:8px solid #2e7d32;background:#eef6ee}
header.verdict.regression,header.verdict.failed,header.verdict.constraint_violated{border-color:#c62828;background:#fbeaea}
header.verdict.incomplete,header.verdict.not_gated{border-color:#ef6c00;background:#fdf1e4}
p.not-gated{font-weight:600;color:#8a4b00}
.summary{font-size:16px;margin:4px 0 8px}
dl.facts{display:grid;grid-template-columns:max-content auto;gap:2px 14px;margin:0}dl.facts dt{color:#555}dl.facts dd{margin:0}
table{border-collapse:collapse;margin:6px 0 10px;font-size:13px}th,td{border-bottom:1px solid #e3e3e3;padding:3px 8px;text-align:left;vertical-align:middle}
th{background:#f6f6f6}td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.differs td{background:#fff4e0}
tr.violated td{background:#fbeaea}p.scorecard-summary{margin:0 0 8px}
.badge{display:inline-block;padding:1px 7px;border-radius:10px;color:#fff;font-size:12px;font-weight:600;white-space:nowrap}
section.test{border:1px solid #ddd;border-radius:6px;padding:12px 14px;margin:14px 0}
section.test.rank-0{border-left:6px solid #c62828}section.test.rank-1{border-left:6px solid #ef6c00}
.meta{color:#555;font-size:12px;margin-bottom:6px}
.capability{font-size:13px;margin:4px 0;padding:2px 6px;border-radius:4px}.capability.met{background:#e8f5e9}.capability.not-met{background:#fff8e1}
pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px;white-space:pre-wrap;word-break:break-word}
pre.failure{background:#fbeaea}
figure{margin:8px 0}figcaption{font-size:12px;color:#444}
svg.plot{max-width:100%;height:auto;background:#fff}svg .tick{font-size:10px;fill:#555}svg .plot-title{font-size:12px;font-weight:600}
footer{margin-top:28px;color:#555;font-size:12px;border-top:1px solid #ddd;padding-top:8px}
)";

std::string badge(std::string_view text, std::string_view colour) {
  return fmt::format("<span class=\"badge\" style=\"background:{}\">{}</span>", colour,
                     escape_markup(text));
}

std::string verdict_badge(Verdict verdict) {
  return badge(verdict_name(verdict), verdict_colour(verdict));
}

std::string status_badge(TestStatus status) {
  std::string name(test_status_name(status));
  for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const std::string_view colour = status == TestStatus::kPassed    ? verdict_colour(Verdict::kPass)
                                  : status == TestStatus::kSkipped ? "#757575"
                                                                   : "#c62828";
  return badge(name, colour);
}

std::string anchor(const std::string& test_name) { return "test-" + escape_markup(test_name); }

std::string header_html(const RunReport& r) {
  std::string css = r.headline;
  for (char& c : css) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  std::string out = fmt::format(
      "<header id=\"verdict\" class=\"verdict {}\" data-verdict=\"{}\"><h1>{}</h1>"
      "<p class=\"summary\">{}</p>{}<dl class=\"facts\">",
      css, r.headline, r.headline, escape_markup(count_summary(r)),
      // Before the facts: a run that gated less than it seems must say so where the eye lands.
      r.not_gated_summary.empty()
          ? ""
          : fmt::format("<p class=\"not-gated\">{}</p>", escape_markup(r.not_gated_summary)));
  auto fact = [&out](std::string_view name, const std::string& value) {
    out += fmt::format("<dt>{}</dt><dd>{}</dd>", name, escape_markup(value));
  };
  fact("run", r.info.run_id + (r.info.finished_at.empty() ? " (incomplete)" : ""));
  fact("binary", r.info.binary);
  fact("commit", r.commit.substr(0, 12) + (r.dirty ? " (dirty work tree)" : ""));
  fact("started", r.info.started_at + fmt::format(" · {:.1f} s", r.info.duration_s));
  fact("tiers", fmt::format("{}", fmt::join(r.info.tiers, ", ")) +
                    (r.info.filter.empty() ? "" : " · filter " + r.info.filter));
  fact("environment profile", r.info.environment_profile);
  fact("compared with", r.reference);
  const ReportCounts& c = r.counts;
  fact("tests",
       fmt::format("{} run: {} passed, {} failed, {} crashed, {} timed out, {} regressed, "
                   "{} skipped",
                   c.tests, c.passed, c.failed, c.crashed, c.timed_out, c.regressed, c.skipped));
  out += "</dl>";
  if (r.compared) {
    out += "<p>";
    for (const auto& [verdict, n] : c.metrics) {
      out += verdict_badge(verdict) + fmt::format(" {} &nbsp; ", n);
    }
    out += "</p>";
  }
  return out + "</header>";
}

std::string contents_html(const RunReport& r) {
  std::string out =
      "<section id=\"contents\"><h2>Tests</h2><table><tr><th>test</th><th>status</th>"
      "<th>verdicts</th><th>duration</th></tr>";
  for (const TestSection& s : r.sections) {
    std::string verdicts;
    for (const MetricComparison& c : s.test.comparisons) {
      if (c.verdict != Verdict::kPass) verdicts += verdict_badge(c.verdict) + " ";
    }
    if (verdicts.empty() && !s.test.comparisons.empty()) verdicts = verdict_badge(Verdict::kPass);
    out += fmt::format(
        "<tr><td><a href=\"#{}\">{}</a></td><td>{}</td><td>{}</td><td class=\"num\">{:.2f} s</td>"
        "</tr>",
        anchor(s.test.name), escape_markup(s.test.full_name), status_badge(s.test.status), verdicts,
        s.test.duration_s);
  }
  return out + "</table></section>";
}

std::string optional_number(const std::optional<double>& value) {
  return value ? escape_markup(format_value(*value)) : "—";
}

const MetricRecord* metric_named(const TestResult& test, const std::string& name) {
  for (const MetricRecord& m : test.metrics) {
    if (m.name == name) return &m;
  }
  return nullptr;
}

std::string metrics_table(const TestSection& s) {
  const TestResult& test = s.test;
  if (test.metrics.empty()) return "";
  if (test.comparisons.empty()) {
    std::string out =
        "<table class=\"metrics\"><tr><th>metric</th><th>value</th><th>direction and "
        "policy</th></tr>";
    for (const MetricRecord& m : test.metrics) {
      out += fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                         escape_markup(m.name), escape_markup(format_value(m.value)),
                         escape_markup(format_metric(m)));
    }
    return out + "</table>";
  }
  std::string out =
      "<table class=\"metrics\"><tr><th>metric</th><th>baseline</th><th>candidate</th>"
      "<th>Δ</th><th>tolerance</th><th>band</th><th>verdict</th><th>note</th></tr>";
  for (const MetricComparison& c : test.comparisons) {
    std::string band;
    const MetricRecord* metric = metric_named(test, c.metric);
    if (c.baseline && c.allowed && metric != nullptr) {
      band = band_svg(*c.baseline, *c.allowed, c.observed, metric->direction, c.verdict);
    }
    std::string delta = c.delta ? escape_markup(format_delta(c)) : "—";
    if (c.rate && c.rate->trials > 0) {
      // The flakiness with its interval: what the rate could be, not only what it was.
      delta = escape_markup(fmt::format("{} (failed {:.1f}% [{:.1f}%, {:.1f}%])", format_delta(c),
                                        100.0 * c.rate->failures / c.rate->trials,
                                        100.0 * c.rate->interval.lower,
                                        100.0 * c.rate->interval.upper));
    } else if (c.distribution && c.distribution->problem.empty()) {
      delta = escape_markup(fmt::format("{} [{}, {}]", format_value(c.distribution->difference),
                                        format_value(c.distribution->ci_lower),
                                        format_value(c.distribution->ci_upper)));
    }
    out += fmt::format(
        "<tr data-verdict=\"{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        verdict_name(c.verdict), escape_markup(c.metric), optional_number(c.baseline),
        escape_markup(format_value(c.observed)), delta, escape_markup(c.tolerance), band,
        verdict_badge(c.verdict),
        escape_markup(comparison_note(c)) +
            (c.cause
                 ? "<div class=\"cause\">cause: " + escape_markup(format_cause(*c.cause)) + "</div>"
                 : std::string()));
  }
  return out + "</table>";
}

std::string seeded_html(const TestSection& s) {
  std::string out;
  for (const MetricRecord& m : s.test.metrics) {
    if (m.samples.empty() && m.sample_seeds.empty()) continue;
    if (std::holds_alternative<FailureRate>(m.policy)) continue;  // 0/1 outcomes: the table says it
    SeedStrip strip;
    strip.metric = m.name;
    strip.direction = m.direction;
    strip.candidate = m.samples;
    if (const auto it = s.baseline_samples.find(m.name); it != s.baseline_samples.end())
      strip.baseline = it->second;
    std::string reason;
    for (const MetricComparison& c : s.test.comparisons) {
      if (c.metric != m.name) continue;
      strip.verdict = c.verdict;
      reason = comparison_note(c);
      if (c.distribution && c.distribution->problem.empty()) {
        strip.difference = c.distribution->difference;
        strip.ci_low = c.distribution->ci_lower;
        strip.ci_high = c.distribution->ci_upper;
        strip.margin = c.distribution->margin;
      }
      for (const SequentialLook& look : c.looks) {
        strip.looks.push_back({.seeds = look.seeds,
                               .lower = look.interval_lower,
                               .upper = look.interval_upper,
                               .level = look.pass_level,
                               .outcome = std::string(look_outcome_name(look.outcome))});
      }
    }
    std::string power;
    if (const auto it = s.gate_power.find(m.name); it != s.gate_power.end()) {
      power = "<br><span class=\"power\">power: " + escape_markup(it->second) + "</span>";
    }
    out += fmt::format("<figure class=\"seeded\">{}<figcaption>{}{}{}</figcaption></figure>",
                       seed_strip_svg(strip),
                       s.test.comparisons.empty() ? "" : verdict_badge(strip.verdict) + " ",
                       escape_markup(reason), power);
  }
  return out;
}

std::string curve_caption(const CurvePlot& plot) {
  if (!plot.problem.empty()) return escape_markup(plot.problem);
  if (plot.gate) {
    return fmt::format("{} {}", verdict_badge(plot.gate->verdict),
                       escape_markup(fmt::format("gated against the reference curve ({}): {}",
                                                 plot.gate->tolerance, plot.gate->note)));
  }
  if (!plot.divergence) return "";
  const checks::CurveComparison& d = *plot.divergence;
  if (!d.diverged) {
    return escape_markup(fmt::format("within ±{:.0f}% of the reference at every compared step ({})",
                                     kCurveReportRtol * 100.0, d.candidate_steps));
  }
  return escape_markup(fmt::format(
      "leaves ±{:.0f}% of the reference at step {} ({} steps in a row): {} against [{}, {}]; {} "
      "of {} steps outside",
      kCurveReportRtol * 100.0, d.first_divergent_step, kCurveReportSteps,
      format_value(d.candidate_value), format_value(d.lower), format_value(d.upper),
      d.steps_outside, std::min(d.candidate_steps, d.envelope_steps)));
}

std::string curves_html(const TestSection& s) {
  std::string out;
  for (const CurvePlot& plot : s.curves) {
    LineChart chart;
    chart.title = plot.name;
    chart.x_label = "step";
    chart.lines = plot.lines;
    if (plot.gate && plot.gate->curve && plot.gate->curve->first_exit_step) {
      // The gate names the reference step itself.
      chart.marker_x = static_cast<double>(*plot.gate->curve->first_exit_step);
      chart.marker_label =
          fmt::format("leaves the band at step {}", *plot.gate->curve->first_exit_step);
    } else if (!plot.gate && plot.divergence && plot.divergence->diverged) {
      // The comparison counts list positions; the marker goes at that position's step.
      const auto& line = *std::find_if(plot.lines.begin(), plot.lines.end(),
                                       [](const PlotLine& l) { return !l.reference; });
      const auto index = static_cast<std::size_t>(plot.divergence->first_divergent_step);
      if (index < line.x.size()) {
        chart.marker_x = line.x[index];
        chart.marker_label = fmt::format("diverges at step {}", format_value(line.x[index]));
      }
    }
    out += fmt::format(
        "<figure class=\"curve\" data-diverged=\"{}\">{}<figcaption>{}</figcaption>"
        "</figure>",
        chart.marker_x ? "true" : "false", line_chart_svg(chart), curve_caption(plot));
  }
  return out;
}

// One line per capability (record_target): MET or NOT MET and its rate over the history. Not a
// verdict: it never fails the run.
std::string capabilities_html(const TestResult& t) {
  std::string out;
  for (const MetricRecord& m : t.metrics) {
    if (!m.target) continue;
    const auto rate = t.capability_rates.find(m.name);
    out += fmt::format(
        "<div class=\"capability {}\">capability {} {}</div>",
        target_met(*m.target, m.value) ? "met" : "not-met", escape_markup(m.name),
        escape_markup(describe_capability(
            m, rate == t.capability_rates.end() ? std::nullopt : std::optional(rate->second))));
  }
  return out;
}

std::string section_html(const TestSection& s) {
  const TestResult& t = s.test;
  std::string out =
      fmt::format("<section class=\"test rank-{}\" id=\"{}\" data-status=\"{}\"><h2>{} {}</h2>",
                  s.rank, anchor(t.name), test_status_name(t.status), escape_markup(t.full_name),
                  status_badge(t.status));
  std::string meta = fmt::format("{}:{} · {:.2f} s · seed {} · threads {} · config {}", t.file,
                                 t.line, t.duration_s, t.seed, t.threads, t.config_hash);
  if (!t.baseline_file.empty()) {
    meta += fmt::format(" · baseline {} v{} ({}, {})", t.baseline_file, t.baseline_version,
                        t.baseline_commit.substr(0, 7), t.baseline_promoted_at.substr(0, 10));
  }
  if (!t.environment_note.empty()) meta += " · " + t.environment_note;
  out += "<div class=\"meta\">" + escape_markup(meta) + "</div>";
  if (const std::string line = fingerprints_line(t); !line.empty())
    out += "<div class=\"meta fingerprints\">" + escape_markup(line) + "</div>";
  if (const std::string line = properties_line(t); !line.empty())
    out += "<div class=\"meta properties\">" + escape_markup(line) + "</div>";
  out += capabilities_html(t);
  for (const TestFailure& f : t.failures) {
    out += "<pre class=\"failure\">" +
           escape_markup(f.file.empty() ? f.message
                                        : fmt::format("{}:{}: {}", f.file, f.line, f.message)) +
           "</pre>";
  }
  if (!t.crash_message.empty())
    out += "<pre class=\"failure\">" + escape_markup(t.crash_message) + "</pre>";
  if (t.attempts) {
    // Every failed attempt of a flaky-aware test: outcomes of the rate, kept in full.
    for (const SeedRun& attempt : t.seed_runs) {
      if (!is_test_failure(attempt.status) || is_missing_unit(attempt)) continue;
      std::string text =
          attempt_label(t, attempt) + ": " + std::string(test_status_name(attempt.status));
      for (const TestFailure& f : attempt.failures) {
        text += "\n" +
                (f.file.empty() ? f.message : fmt::format("{}:{}: {}", f.file, f.line, f.message));
      }
      if (!attempt.crash_message.empty()) text += "\n" + attempt.crash_message;
      out += "<pre class=\"failure attempt\">" + escape_markup(text) + "</pre>";
    }
  }
  if (!t.skip_message.empty()) out += "<p>skipped: " + escape_markup(t.skip_message) + "</p>";
  out += metrics_table(s);
  // Against its baseline: the scorecard of every metric and the test's own constraints.
  if (!t.comparisons.empty()) out += scorecard_html(build_scorecard(t, nullptr, {}));
  out += seeded_html(s);
  out += curves_html(s);
  out += predictions_html(t);
  out += batches_html(t);
  if (!s.ablation_text.empty())
    out += "<h3>Ablation</h3><pre class=\"ablation\">" + escape_markup(s.ablation_text) + "</pre>";
  if (!s.regression_text.empty()) {
    out += "<details><summary>regression report (as the console printed it)</summary><pre>" +
           escape_markup(s.regression_text) + "</pre></details>";
  }
  return out + "</section>";
}

std::string environment_html(const RunReport& r) {
  std::string out = fmt::format(
      "<section id=\"environment\"><h2>Environment</h2><table><tr><th>field</th><th>{}</th>"
      "<th>this run</th></tr>",
      escape_markup(r.reference_label));
  for (const EnvironmentRow& row : r.environment) {
    out += fmt::format("<tr{}><td>{}</td><td>{}</td><td>{}</td></tr>",
                       row.differs() ? " class=\"differs\"" : "", escape_markup(row.field),
                       escape_markup(row.reference), escape_markup(row.candidate));
  }
  return out + "</table></section>";
}

}  // namespace

std::string html_page_start(std::string_view title, std::string_view more_style) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
      "style-src 'unsafe-inline'; img-src data:; form-action 'none'; base-uri 'none'\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<meta name=\"generator\" content=\"mlregress\"><title>{}</title><style>{}{}</style></head>"
      "<body>\n",
      escape_markup(title), kStyle, more_style);
}

std::string html_page_end(std::string_view method) {
  return fmt::format("<footer id=\"method\">{}</footer></body></html>\n", method);
}

std::string render_html_report(const RunReport& r) {
  std::string out =
      html_page_start(fmt::format("{} · {} · {}", r.headline, r.info.binary, r.info.run_id));
  out += header_html(r);
  for (const std::string& error : r.runner_errors) {
    out += "<pre class=\"failure\">runner error: " + escape_markup(error) + "</pre>";
  }
  out += contents_html(r);
  for (const TestSection& s : r.sections) out += section_html(s);
  out += environment_html(r);
  if (!r.history_figures.empty()) {
    out += fmt::format("<section id=\"history\"><h2>History</h2><p>{}</p>",
                       escape_markup(r.history_source));
    for (const std::string& figure : r.history_figures) out += figure;
    out += "</section>";
  }
  if (!r.notes.empty()) {
    out += "<section id=\"notes\"><h2>Notes</h2><ul>";
    for (const std::string& note : r.notes) out += "<li>" + escape_markup(note) + "</li>";
    out += "</ul></section>";
  }
  return out + html_page_end(fmt::format(
                   "Method: a single value is compared with its baseline inside a band "
                   "|Δ| ≤ atol + rtol·|baseline| on the worse side (exact values must be equal; "
                   "timings use a band from the spread measured at promotion). A seeded metric "
                   "is compared seed by seed: one-sided Welch or paired t test, Holm-adjusted "
                   "across the run's statistical checks; REGRESSION needs significance and an "
                   "estimate worse than the margin δ, INCONCLUSIVE when the 95% CI still allows "
                   "a degradation beyond δ. Curves are drawn against the reference run's; the "
                   "marker is the first step where the candidate leaves ±{:.0f}% of it for {} "
                   "steps in a row. Written by mlregress from {}.",
                   kCurveReportRtol * 100.0, kCurveReportSteps, escape_markup(r.path)));
}

}  // namespace mlregress::internal
