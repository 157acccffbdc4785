#include "renderers/markdown_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "analysis/capability.h"
#include "analysis/prediction_flips.h"
#include "observers/regression_report.h"
#include "renderers/predictions_report.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

// McNemar's one-sided p for "worse", with its Holm-adjusted value once the gate decided.
std::string mcnemar_p(const MetricComparison& c) {
  if (!c.decision) return fmt::format("{:.2g}", c.flips->p_worse);
  return fmt::format("{:.2g} (Holm {:.2g})", c.flips->p_worse, c.decision->p_worse_adjusted);
}

// A table cell: one line, no column break, no HTML of its own.
std::string cell(std::string_view text, std::size_t limit = 300) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else {
      out += c;
    }
  }
  if (out.size() > limit) out = out.substr(0, limit - 3) + "...";
  return out;
}

std::string number(const std::optional<double>& value) {
  return value ? format_value(*value) : "—";
}

std::string_view verdict_mark(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression:
      return "❌ REGRESSION";
    case Verdict::kInconclusive:
      return "⚠️ INCONCLUSIVE";
    case Verdict::kImproved:
      return "🚀 IMPROVED";
    case Verdict::kNew:
      return "🆕 NEW";
    case Verdict::kNotComparable:
      return "➖ NOT_COMPARABLE";
    case Verdict::kUngated:
      return "➖ UNGATED";
    case Verdict::kPass:
      return "✅ PASS";
  }
  return "";
}

int verdict_rank(Verdict verdict) {
  switch (verdict) {
    case Verdict::kRegression:
      return 0;
    case Verdict::kInconclusive:
      return 1;
    case Verdict::kNotComparable:
    case Verdict::kUngated:
      return 2;
    case Verdict::kImproved:
      return 3;
    case Verdict::kNew:
      return 4;
    case Verdict::kPass:
      return 5;
  }
  return 5;
}

struct Row {
  int rank;
  std::string text;
};

// Appends rows while they fit in `budget` bytes; says how many did not.
void append_rows(std::string& out, const std::vector<Row>& rows, std::size_t budget,
                 std::string_view what) {
  std::size_t written = 0;
  for (const Row& row : rows) {
    if (out.size() + row.text.size() > budget) break;
    out += row.text;
    ++written;
  }
  if (written < rows.size()) {
    out += fmt::format(
        "\n*{} more {} cut to keep this summary under {} KB; report.html in the run folder has "
        "them all.*\n",
        rows.size() - written, what, kMarkdownLimit / 1000);
  }
}

std::string failure_row(const TestResult& t) {
  std::string why = t.crash_message;
  if (why.empty() && !t.failures.empty()) why = t.failures.front().message;
  return fmt::format("| `{}` | {} | {} |\n", cell(t.full_name), test_status_name(t.status),
                     cell(why));
}

std::string seeded_row(const TestResult& t, const MetricComparison& c) {
  const DistributionAnalysis& d = *c.distribution;
  return fmt::format("| `{}` | {} | {} (n={}) | {} (n={}) | {} [{}, {}] | {} | {} |\n",
                     cell(t.full_name), cell(c.metric), format_value(d.baseline_mean), d.n_baseline,
                     format_value(d.candidate_mean), d.n_candidate, format_value(d.difference),
                     format_value(d.ci_lower), format_value(d.ci_upper), format_value(d.margin),
                     verdict_mark(c.verdict));
}

// Each attribute's slice that lost most ("by position: [12, 16) lost most, 40 →wrong, ..."), or
// "—".
std::string attribute_cell(const FlipsAnalysis& f) {
  const std::vector<std::string> lines = format_slice_flips(f.by_attribute);
  return lines.empty() ? "—" : cell(fmt::format("{}", fmt::join(lines, "; ")));
}

std::string flips_row(const TestResult& t, const MetricComparison& c) {
  const FlipsAnalysis& f = *c.flips;
  return fmt::format("| `{}` | {} | {:.4f} → {:.4f} | {} | {} | {} | {} | {} | {} |\n",
                     cell(t.full_name), cell(c.metric), f.baseline_accuracy, f.candidate_accuracy,
                     f.correct_to_wrong, f.wrong_to_correct,
                     cell(f.by_class.empty() ? "—" : format_class_flips(f.by_class)),
                     attribute_cell(f), mcnemar_p(c), verdict_mark(c.verdict));
}

// Why a metric is not a PASS: a NOT_COMPARABLE names what changed (the dataset, the fields of
// the environment), an INCONCLUSIVE what the gate could not rule out.
// A cost counter names the operators its change comes from; the cause follows, with the
// rule that fired and its alternatives, cut apart from the note and the operators: the
// alternatives must not be the part a long note cuts off.
std::string why_not_pass(const MetricComparison& c) {
  std::string note = c.note;
  if (c.operators) {
    note += (note.empty() ? "" : "; ") +
            fmt::format("operators: {}", describe_operator_diff(*c.operators));
  }
  std::string why = note.empty() ? "" : cell(note);
  if (c.cause) {
    why += (why.empty() ? "" : "; ") + cell("cause: " + format_cause(*c.cause), 700);
  }
  return why;
}

// The tables' rows: failed tests, metrics that need attention (not PASS), seeded metrics,
// predictions' flips, and the metrics within tolerance.
struct MarkdownRows {
  std::vector<Row> failures, attention, seeded, flips, rest;
};

MarkdownRows markdown_rows(const RunReport& r) {
  MarkdownRows rows;
  auto& [failures, attention, seeded, flips, rest] = rows;
  for (const TestSection& s : r.sections) {
    const TestResult& t = s.test;
    if (is_test_failure(t.status)) failures.push_back({0, failure_row(t)});
    for (const MetricComparison& c : t.comparisons) {
      if (c.distribution && c.distribution->problem.empty()) {
        seeded.push_back({verdict_rank(c.verdict), seeded_row(t, c)});
      }
      if (c.flips) flips.push_back({verdict_rank(c.verdict), flips_row(t, c)});
      const std::string row =
          fmt::format("| `{}` | {} | {} | {} | {} | {} |", cell(t.full_name), cell(c.metric),
                      number(c.baseline), format_value(c.observed),
                      c.delta ? cell(format_delta(c)) : "—", verdict_mark(c.verdict));
      if (c.verdict == Verdict::kPass) {
        rest.push_back({verdict_rank(c.verdict), row + "\n"});
      } else {
        const std::string why = why_not_pass(c);
        attention.push_back(
            {verdict_rank(c.verdict), fmt::format("{} {} |\n", row, why.empty() ? "—" : why)});
      }
    }
  }
  return rows;
}

// The headline, what ran against what, and why some of it was not gated.
std::string markdown_header(const RunReport& r) {
  const std::string_view mark = r.headline == "PASSED"       ? "✅"
                                : r.headline == "INCOMPLETE" ? "⚠️"
                                                             : "❌";
  std::string out = fmt::format("## {} mlregress: {} — {}\n\n", mark, r.headline, count_summary(r));
  out +=
      fmt::format("`{}` run `{}` · commit `{}`{} · profile `{}` · compared with {}\n\n",
                  cell(r.info.binary), cell(r.info.run_id), cell(r.commit.substr(0, 12)),
                  r.dirty ? " (dirty)" : "", cell(r.info.environment_profile), cell(r.reference));
  if (!r.not_gated_summary.empty()) out += "**" + cell(r.not_gated_summary) + "**\n\n";
  return out;
}

std::string markdown_footer(const RunReport& r) {
  return fmt::format(
      "\n<sub>Method: single values against a band |Δ| ≤ atol + rtol·\\|baseline\\| on the worse "
      "side (exact values must be equal); seeded metrics by a one-sided Welch or paired t test, "
      "Holm-adjusted across the run, REGRESSION only when significant and worse than the margin "
      "δ; predictions on a frozen set by McNemar's exact test on the flips, in the same Holm "
      "family; failure rates by an exact sequential test against the baseline's failures, each at "
      "α on its own; gated curves step by step against the reference curve. Full report: "
      "`report.html` in the run folder ({}).</sub>\n",
      cell(r.path));
}

// A table's head and as many of its rows as fit in `budget`.
void append_table(std::string& out, std::string_view head, const std::vector<Row>& rows,
                  std::size_t budget, std::string_view what) {
  out += head;
  append_rows(out, rows, budget, what);
  out += "\n";
}

// The metrics within tolerance, folded away, and only while there is room left.
void append_passing_rows(std::string& out, const std::vector<Row>& rest, std::size_t budget) {
  if (!rest.empty() && out.size() < budget) {
    out += fmt::format("<details><summary>{} metrics within tolerance</summary>\n\n", rest.size());
    out += "| test | metric | BASE | HEAD | Δ | verdict |\n|---|---|---:|---:|---:|---|\n";
    append_rows(out, rest, budget - std::min(budget, std::size_t{40}), "passing rows");
    out += "\n</details>\n";
  } else if (!rest.empty()) {
    out += fmt::format("\n*{} metrics within tolerance cut to keep this summary under {} KB.*\n",
                       rest.size(), kMarkdownLimit / 1000);
  }
}

// The capabilities (record_target): whether each was met and its rate over the history. They
// never fail the run, so they have a table of their own, apart from the verdicts.
void append_capabilities(std::string& out, const RunReport& r, std::size_t budget) {
  std::vector<Row> rows;
  for (const TestSection& s : r.sections) {
    for (const MetricRecord& m : s.test.metrics) {
      if (!m.target) continue;
      const auto rate = s.test.capability_rates.find(m.name);
      const std::string history =
          rate == s.test.capability_rates.end()
              ? std::string("—")
              : fmt::format("{} of {} [{:.0f}%, {:.0f}%]", rate->second.met, rate->second.runs,
                            100.0 * rate->second.lower, 100.0 * rate->second.upper);
      rows.push_back(
          {0, fmt::format("| `{}` | {} | {} | {} | {} | {} |\n", cell(s.test.name), cell(m.name),
                          format_value(m.value), cell(target_text(*m.target)),
                          capability_outcome_name(target_met(*m.target, m.value)), history)});
    }
  }
  if (rows.empty()) return;
  append_table(out,
               "### Capabilities\n\nTargets the model aims for; NOT MET does not fail the run.\n\n"
               "| test | metric | value | target | outcome | met over runs [95% CI] |\n"
               "|---|---|---:|---|---|---|\n",
               rows, budget, "capabilities");
}

// One line per test that has one (`line_of`: its fingerprints, its properties), folded away
// under "<title> of N tests", and only while there is room left; nothing when no test has one.
void append_test_lines(std::string& out, const RunReport& r, std::size_t budget,
                       std::string (*line_of)(const TestResult&), std::string_view title,
                       std::string_view what) {
  std::vector<Row> lines;
  for (const TestSection& s : r.sections) {
    const std::string line = line_of(s.test);
    if (!line.empty())
      lines.push_back({0, fmt::format("- `{}`: {}\n", cell(s.test.full_name), cell(line))});
  }
  if (lines.empty() || out.size() >= budget) return;
  out += fmt::format("<details><summary>{} of {} tests</summary>\n\n", title, lines.size());
  append_rows(out, lines, budget, what);
  out += "\n</details>\n";
}

}  // namespace

std::string markdown_cell(std::string_view text) { return cell(text); }

std::string render_markdown_report(const RunReport& r, std::size_t limit) {
  std::string out = markdown_header(r);
  const std::string footer = markdown_footer(r);
  const std::size_t budget = limit > footer.size() + 200 ? limit - footer.size() - 200 : 0;

  MarkdownRows rows = markdown_rows(r);
  auto& [failures, attention, seeded, flips, rest] = rows;
  auto by_rank = [](const Row& a, const Row& b) { return a.rank < b.rank; };
  std::stable_sort(attention.begin(), attention.end(), by_rank);
  std::stable_sort(seeded.begin(), seeded.end(), by_rank);
  std::stable_sort(flips.begin(), flips.end(), by_rank);

  if (!failures.empty()) {
    append_table(out, "### Failed tests\n\n| test | status | message |\n|---|---|---|\n", failures,
                 budget, "failed tests");
  }
  if (!attention.empty()) {
    append_table(
        out,
        "| test | metric | BASE | HEAD | Δ | verdict | why |\n|---|---|---:|---:|---:|---|---|\n",
        attention, budget, "rows");
  } else if (r.compared) {
    out += "Every compared metric is within its baseline's tolerance.\n\n";
  } else {
    out += "Nothing was compared with a baseline (run with `--baselines DIR`).\n\n";
  }
  if (!seeded.empty()) {
    append_table(out,
                 "### Seeded metrics\n\n| test | metric | BASE mean | HEAD mean | difference [95% "
                 "CI] | margin | verdict |\n|---|---|---:|---:|---:|---:|---|\n",
                 seeded, budget, "seeded metrics");
  }
  if (!flips.empty()) {
    append_table(out,
                 "### Per-example flips\n\n| test | predictions | accuracy | correct→wrong | "
                 "wrong→correct | by true class | by attribute | McNemar p(worse) | verdict |\n"
                 "|---|---|---:|---:|---:|---|---|---:|---|\n",
                 flips, budget, "predictions");
  }
  append_capabilities(out, r, budget);
  append_passing_rows(out, rest, budget);
  append_test_lines(out, r, budget, fingerprints_line, "Fingerprints", "fingerprint lines");
  append_test_lines(out, r, budget, properties_line, "Properties", "property lines");
  append_test_lines(out, r, budget, predictions_line, "Predictions", "prediction lines");
  return out + footer;
}

}  // namespace mlregress::internal
