#include "renderers/scorecard_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>

#include "renderers/svg_plot.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

constexpr std::size_t kColumns = 8;
using Cells = std::array<std::string, kColumns>;

std::string optional_value(const std::optional<double>& value) {
  return value ? format_value(*value) : "—";
}

// The columns a text takes on a terminal: its code points (UTF-8 continuation bytes take none),
// as fmt pads by them.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  }));
}

std::string signed_percent(double fraction) {
  return fmt::format("{}{}%", fraction >= 0 ? "+" : "", format_value(100.0 * fraction));
}

std::string constraint_cell(const ScorecardRow& row) {
  std::vector<std::string> parts;
  for (const ConstraintCheck& check : row.constraints) parts.push_back(describe_check(check));
  return parts.empty() ? "—" : fmt::format("{}", fmt::join(parts, "; "));
}

Cells cells_of(const ScorecardRow& row) {
  return {row.metric,
          optional_value(row.a),
          optional_value(row.b),
          row.ratio() ? format_value(*row.ratio()) + "x" : "—",
          row.relative() ? signed_percent(*row.relative()) : "—",
          row.direction ? std::string(direction_name(*row.direction)) : "—",
          row.verdict ? std::string(verdict_name(*row.verdict)) : "not compared",
          constraint_cell(row)};
}

std::string names_or_none(const std::vector<std::string>& names) {
  return names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", "));
}

std::vector<std::string> texts_of(const std::vector<ConstraintCheck>& checks) {
  std::vector<std::string> out;
  for (const ConstraintCheck& check : checks) out.push_back(check.constraint.text);
  return out;
}

const Cells kHeader = {"metric", "A", "B", "B/A", "change", "direction", "verdict", "constraint"};

}  // namespace

std::string scorecard_summary(const TestScorecard& card) {
  std::string out = fmt::format("improved: {}; worse: {}; constraints violated: {}",
                                names_or_none(card.improved()), names_or_none(card.worse()),
                                names_or_none(texts_of(card.violated())));
  if (const std::vector<std::string> missing = card.only_in_a(); !missing.empty())
    out += "; not in B: " + names_or_none(missing);
  if (const std::vector<ConstraintCheck> open = card.not_evaluated(); !open.empty())
    out +=
        "; not evaluated (no value in A, or a ratio to A <= 0): " + names_or_none(texts_of(open));
  return out;
}

std::string format_scorecard(const TestScorecard& card) {
  std::vector<Cells> lines{kHeader};
  for (const ScorecardRow& row : card.rows) lines.push_back(cells_of(row));
  std::array<std::size_t, kColumns> width{};
  for (const Cells& cells : lines) {
    for (std::size_t i = 0; i < kColumns; ++i)
      width[i] = std::max(width[i], display_width(cells[i]));
  }
  std::string out = fmt::format("SCORECARD {} (A -> B)\n", card.test);
  for (const Cells& cells : lines) {
    std::string line = " ";
    // The last column is not padded: no blanks at the end of a line.
    for (std::size_t i = 0; i + 1 < kColumns; ++i)
      line += fmt::format(" {:<{}} ", cells[i], width[i]);
    out += line + " " + cells[kColumns - 1] + "\n";
  }
  return out + "  " + scorecard_summary(card) + "\n";
}

std::string scorecard_html(const TestScorecard& card) {
  std::string out = "<h3>Scorecard</h3><table class=\"scorecard\"><tr>";
  for (const std::string& name : kHeader) out += "<th>" + escape_markup(name) + "</th>";
  out += "</tr>";
  for (const ScorecardRow& row : card.rows) {
    const bool broken = std::any_of(row.constraints.begin(), row.constraints.end(), is_violation);
    const Cells cells = cells_of(row);
    out += fmt::format("<tr data-metric=\"{}\" data-scorecard-verdict=\"{}\"{}>",
                       escape_markup(row.metric), escape_markup(cells[6]),
                       broken ? " class=\"violated\"" : "");
    for (std::size_t i = 0; i < kColumns; ++i) {
      const bool number = i >= 1 && i <= 4;
      std::string style;
      if (i == 6 && row.verdict)
        style = fmt::format(" style=\"color:{}\"", verdict_colour(*row.verdict));
      out += fmt::format("<td{}{}>{}</td>", number ? " class=\"num\"" : "", style,
                         escape_markup(cells[i]));
    }
    out += "</tr>";
  }
  return out + "</table><p class=\"scorecard-summary\">" + escape_markup(scorecard_summary(card)) +
         "</p>";
}

}  // namespace mlregress::internal
