#include "renderers/predictions_report.h"

#include <fmt/format.h>

#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

constexpr std::string_view kDiagonal = " style=\"background:#e8f5e9\"";
constexpr std::string_view kAtPrior = " style=\"color:#8a4b00;font-weight:600\"";

std::string percent(std::int64_t part, std::int64_t whole) {
  return whole == 0 ? "—"
                    : fmt::format("{:.0f}%",
                                  100.0 * static_cast<double>(part) / static_cast<double>(whole));
}

// Rows the true classes, columns the predicted ones, then each row's total and share (the label
// balance); a last row of the predicted totals.
std::string matrix_html(const ConfusionMatrix& m) {
  std::string out = "<table class=\"confusion\"><tr><th>true \\ predicted</th>";
  for (std::int64_t p = 0; p < m.classes; ++p) out += fmt::format("<th>{}</th>", p);
  out += "<th>examples</th></tr>";
  for (std::size_t t = 0; t < m.counts.size(); ++t) {
    out += fmt::format("<tr><th>{}</th>", t);
    for (std::size_t p = 0; p < m.counts[t].size(); ++p) {
      out += fmt::format("<td class=\"num{}\"{}>{}</td>", t == p ? " diag" : "",
                         t == p ? kDiagonal : "", m.counts[t][p]);
    }
    out += fmt::format("<td class=\"num\">{} ({})</td></tr>", m.target_counts[t],
                       percent(m.target_counts[t], m.examples));
  }
  out += "<tr><th>predicted</th>";
  for (const std::int64_t count : m.predicted_counts) {
    out += fmt::format("<td class=\"num\">{}</td>", count);
  }
  return out + fmt::format("<td class=\"num\">{}</td></tr></table>", m.examples);
}

}  // namespace

std::string predictions_html(const TestResult& test) {
  std::string out;
  for (const RecordedPredictions& p : test.predictions) {
    if (!p.confusion) continue;
    const ConfusionMatrix& m = *p.confusion;
    const bool at_prior = m.accuracy <= m.majority_rate;
    out += fmt::format("<div class=\"predictions\" data-at-prior=\"{}\"><p{}>{}: {}{}</p>",
                       at_prior ? "true" : "false", at_prior ? kAtPrior : "", escape_markup(p.name),
                       escape_markup(m.summary()),
                       at_prior ? " — no better than always answering the majority class" : "");
    if (!m.counts.empty()) out += matrix_html(m);
    out += "</div>";
  }
  return out.empty() ? out : "<h3>Predictions</h3>" + out;
}

std::string predictions_line(const TestResult& test) {
  std::string out;
  for (const RecordedPredictions& p : test.predictions) {
    if (!p.confusion) continue;
    out += fmt::format("{}{}: {}", out.empty() ? "" : "; ", p.name, p.confusion->summary());
  }
  return out;
}

}  // namespace mlregress::internal
