#include "renderers/bisect_report.h"

#include <fmt/format.h>

#include <cstdint>
#include <filesystem>

#include "analysis/verdict.h"
#include "renderers/html_report.h"
#include "renderers/markdown_report.h"
#include "renderers/svg_plot.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

std::string short_id(const std::string& commit) { return commit.substr(0, 12); }

std::string number(const std::optional<double>& value) {
  return value ? format_value(*value) : "—";
}

// The answer's badge: green good, red bad, grey skip (as the verdicts are coloured).
std::string_view answer_colour(const std::string& answer) {
  return answer == "good"  ? verdict_colour(Verdict::kPass)
         : answer == "bad" ? verdict_colour(Verdict::kRegression)
                           : verdict_colour(Verdict::kNotComparable);
}

std::string badge(std::string_view text, std::string_view colour) {
  return fmt::format("<span class=\"badge\" style=\"background:{}\">{}</span>", colour,
                     escape_markup(text));
}

std::string verdict_cell(const std::string& verdict) {
  if (verdict.empty()) return "—";
  const std::optional<Verdict> v = parse_verdict(verdict);
  return badge(verdict, v ? verdict_colour(*v) : verdict_colour(Verdict::kNotComparable));
}

// A reason that only says the verdict again ("REGRESSION") is left out of the tables.
bool repeats_verdict(const BisectTry& t) { return t.reason == t.verdict; }

std::string role_name(const BisectTry& t) {
  return t.role == "good" ? "GOOD" : t.role == "bad" ? "BAD" : "step";
}

// What the count of commits tried comes to, against the bound of a bisect without skips.
std::string effort(const BisectRecord& r) {
  return fmt::format(
      "{} commit{} tried ({} built, {} cached) for {} commits; without skipped commits a bisect "
      "needs at most ⌈log₂ {}⌉ + 2 = {}",
      r.tried.size(), r.tried.size() == 1 ? "" : "s", r.builds(),
      static_cast<int>(r.tried.size()) - r.builds(), r.commits, r.commits,
      bisect_commit_bound(r.commits));
}

std::string commit_html(const BisectCommit& c) {
  return fmt::format("<code>{}</code> {}", escape_markup(short_id(c.commit)),
                     escape_markup(c.subject));
}

std::string header_html(const BisectRecord& r) {
  const std::string title =
      r.culprit ? fmt::format("Culprit: {}", commit_html(*r.culprit)) : "No culprit named";
  std::string out = fmt::format(
      "<header id=\"verdict\" class=\"verdict {}\" data-culprit=\"{}\"><h1>{}</h1>"
      "<p class=\"summary\">bisect of {}{}: {}</p><dl class=\"facts\">",
      r.culprit ? "regression" : "incomplete", r.culprit ? escape_markup(r.culprit->commit) : "",
      title, escape_markup(r.test),
      r.metric.empty() ? std::string() : fmt::format(" ({})", escape_markup(r.metric)),
      escape_markup(effort(r)));
  if (r.culprit) {
    out += fmt::format("<dt>first bad commit</dt><dd><code>{}</code> {}</dd>",
                       escape_markup(r.culprit->commit), escape_markup(r.culprit->subject));
  }
  out += fmt::format(
      "<dt>GOOD</dt><dd>{}</dd><dt>BAD</dt><dd>{}</dd><dt>commits</dt><dd>{}, GOOD and BAD "
      "included</dd><dt>repository</dt><dd>{}</dd></dl></header>",
      commit_html(r.good), commit_html(r.bad), r.commits, escape_markup(r.repo));
  return out;
}

std::string failure_html(const BisectRecord& r) {
  if (r.culprit) return "";
  std::string out = "<pre class=\"failure\">" + escape_markup(r.error) + "</pre>";
  if (!r.candidates.empty()) {
    out += "<p>Only skipped commits are left; the first bad commit is one of:</p><ul>";
    for (const BisectCommit& c : r.candidates) out += "<li>" + commit_html(c) + "</li>";
    out += "</ul>";
  }
  return out;
}

std::string tried_html(const BisectRecord& r, const std::string& folder,
                       const std::string& run_links) {
  std::string out =
      "<section id=\"tried\"><h2>Commits tried, in order</h2><table><tr><th>#</th><th>commit</th>"
      "<th>subject</th><th>role</th><th>answer</th><th>metric</th><th>value</th>"
      "<th>GOOD's value</th><th>verdict</th><th>why</th><th>built</th><th>run</th></tr>";
  int index = 0;
  for (const BisectTry& t : r.tried) {
    const bool culprit = r.culprit && r.culprit->commit == t.commit.commit;
    std::string run = "—";
    if (!t.run.empty()) {
      std::error_code error;
      const bool has_page = std::filesystem::exists(folder + "/" + t.run + "/report.html", error);
      // The run's id as the text, its folder as the title: the whole path would widen the table.
      const std::string id = std::filesystem::path(t.run).filename().string();
      run = has_page ? fmt::format("<a href=\"{}{}/report.html\" title=\"{}\"><code>{}</code></a>",
                                   escape_markup(percent_encoded(run_links)),
                                   escape_markup(percent_encoded(t.run)), escape_markup(t.run),
                                   escape_markup(id))
                     : fmt::format("<code title=\"{}\">{}</code>", escape_markup(t.run),
                                   escape_markup(id));
    }
    out += fmt::format(
        "<tr{} data-commit=\"{}\" data-answer=\"{}\"><td class=\"num\">{}</td><td><code>{}</code>"
        "</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        culprit ? " id=\"culprit\" class=\"differs\"" : "", escape_markup(t.commit.commit),
        escape_markup(t.answer), ++index, escape_markup(short_id(t.commit.commit)),
        escape_markup(t.commit.subject), role_name(t), badge(t.answer, answer_colour(t.answer)),
        escape_markup(t.metric.empty() ? "—" : t.metric), number(t.value), number(t.baseline),
        verdict_cell(t.verdict), escape_markup(repeats_verdict(t) ? "" : t.reason),
        t.built ? "yes" : "cached", run);
  }
  return out + "</table></section>";
}

}  // namespace

int bisect_commit_bound(int commits) {
  int log2_ceiling = 0;
  while ((std::int64_t{1} << log2_ceiling) < commits) ++log2_ceiling;
  return log2_ceiling + 2;
}

std::string render_bisect_html_report(const BisectRecord& r, const std::string& folder,
                                      const std::string& run_links) {
  std::string out =
      html_page_start(r.culprit ? fmt::format("bisect · culprit {} {}", short_id(r.culprit->commit),
                                              r.culprit->subject)
                                : fmt::format("bisect · no culprit · {}", r.test));
  out += header_html(r) + failure_html(r) + tried_html(r, folder, run_links);
  return out + html_page_end(fmt::format(
                   "Method: GOOD was built and its test run first; its result is the baseline "
                   "every other commit is judged against. BAD must be a REGRESSION against it. "
                   "<code>git bisect run</code> then picked the commits between them: PASS or "
                   "IMPROVED is "
                   "good, REGRESSION bad, and a failed build or test, INCONCLUSIVE, "
                   "NOT_COMPARABLE or NEW a skip. The first bad commit is the culprit. Written "
                   "by mlregress from {}/bisect.json.",
                   escape_markup(folder)));
}

std::string render_bisect_markdown_report(const BisectRecord& r) {
  std::string out =
      r.culprit ? fmt::format("## 🔎 mlregress bisect: culprit `{}` {}\n\n",
                              short_id(r.culprit->commit), markdown_cell(r.culprit->subject))
                : fmt::format("## ⚠️ mlregress bisect: no culprit named\n\n{}\n\n",
                              markdown_cell(r.error));
  out += fmt::format("Test `{}`{}, GOOD `{}` {}, BAD `{}` {}. {}.\n\n", markdown_cell(r.test),
                     r.metric.empty() ? "" : fmt::format(" (metric `{}`)", markdown_cell(r.metric)),
                     short_id(r.good.commit), markdown_cell(r.good.subject), short_id(r.bad.commit),
                     markdown_cell(r.bad.subject), effort(r));
  if (!r.culprit && !r.candidates.empty()) {
    out += "Only skipped commits are left; the first bad commit is one of:\n\n";
    for (const BisectCommit& c : r.candidates)
      out += fmt::format("- `{}` {}\n", short_id(c.commit), markdown_cell(c.subject));
    out += "\n";
  }
  out += "| # | commit | subject | role | answer | value | GOOD's value | verdict | why |\n";
  out += "|---:|---|---|---|---|---:|---:|---|---|\n";
  int index = 0;
  for (const BisectTry& t : r.tried) {
    const bool culprit = r.culprit && r.culprit->commit == t.commit.commit;
    out += fmt::format("| {} | `{}`{} | {} | {} | {} | {} | {} | {} | {} |\n", ++index,
                       short_id(t.commit.commit), culprit ? " **culprit**" : "",
                       markdown_cell(t.commit.subject), role_name(t), t.answer, number(t.value),
                       number(t.baseline), t.verdict.empty() ? "—" : t.verdict,
                       markdown_cell(repeats_verdict(t) ? "" : t.reason));
  }
  return out;
}

}  // namespace mlregress::internal
