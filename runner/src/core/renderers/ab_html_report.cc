#include "renderers/ab_html_report.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "record/json_fields.h"
#include "record/json_text.h"
#include "renderers/html_report.h"
#include "renderers/svg_plot.h"
#include "support/errors.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"
#include "timing/ab_report.h"

namespace mlregress::internal {
namespace {

std::string percent(double cost_ratio) {
  return fmt::format("{:+.1f}%", 100.0 * (cost_ratio - 1.0));
}

// What the page shows of ab.json.
struct AbRun {
  std::vector<AbMetricResult> results;
  std::string run_id, candidate, other, error;
  double alpha = 0.01, margin = 0.05;
  int rounds = 0;
};

AbRun read_ab_run(const std::string& path) {
  const nlohmann::json ab = read_json_file(path);
  AbRun run_ab;
  try {
    run_ab.results = ab_metrics_from_json(field<nlohmann::json>(ab, "metrics"));
    const nlohmann::json& run = field<nlohmann::json>(ab, "run");
    run_ab.run_id = field<std::string>(run, "id");
    run_ab.candidate = field<std::string>(field<nlohmann::json>(ab, "candidate"), "path");
    run_ab.other = field<std::string>(field<nlohmann::json>(ab, "other"), "path");
    const nlohmann::json& settings = field<nlohmann::json>(ab, "settings");
    run_ab.alpha = number_field(settings, "alpha");
    run_ab.margin = number_field(settings, "margin");
    run_ab.rounds = field<int>(settings, "rounds");
    run_ab.error = field_or<std::string>(ab, "error", "");
  } catch (const JsonFieldError& e) {
    throw RunFolderError(fmt::format("{}: {}: {}", path, e.path(), e.problem()));
  }
  return run_ab;
}

// FAILED when the run stopped with an error, else REGRESSION when any metric regressed.
std::string ab_headline(const AbRun& ab) {
  bool regressed = false;
  for (const AbMetricResult& r : ab.results)
    regressed = regressed || r.verdict == Verdict::kRegression;
  return !ab.error.empty() ? "FAILED" : regressed ? "REGRESSION" : "PASSED";
}

std::string ab_header(const AbRun& ab, const std::string& headline) {
  std::string css = headline;
  for (char& c : css) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return fmt::format(
      "<header id=\"verdict\" class=\"verdict {}\" data-verdict=\"{}\"><h1>{}</h1>"
      "<p class=\"summary\">A/B timing, {} rounds, {} metric{}</p><dl class=\"facts\">"
      "<dt>run</dt><dd>{}</dd><dt>candidate</dt><dd>{}</dd><dt>other</dt><dd>{}</dd>"
      "<dt>alpha · margin</dt><dd>{} · {:.1f}%</dd></dl></header>",
      css, headline, headline, ab.rounds, ab.results.size(), ab.results.size() == 1 ? "" : "s",
      escape_markup(ab.run_id), escape_markup(ab.candidate), escape_markup(ab.other), ab.alpha,
      100.0 * ab.margin);
}

std::string ab_table_row(const AbMetricResult& r) {
  const bool measured = !r.cost_ratios.empty();
  return fmt::format(
      "<tr data-verdict=\"{}\"><td>{}</td><td>{}</td><td class=\"num\">{}</td>"
      "<td class=\"num\">{}</td><td class=\"num\">{}</td><td><span class=\"badge\" "
      "style=\"background:{}\">{}</span></td><td>{}</td></tr>",
      verdict_name(r.verdict), escape_markup(r.series.test), escape_markup(r.series.metric),
      measured ? percent(r.median_cost_ratio) : "—",
      measured ? fmt::format("[{}, {}] ({:.1f}%)", percent(r.ci_low), percent(r.ci_high),
                             100.0 * r.ci_coverage)
               : "—",
      measured ? fmt::format("{:.3g}", r.p_slower_holm) : "—", verdict_colour(r.verdict),
      verdict_name(r.verdict), escape_markup(r.note));
}

// The ratio strip of a measured metric (none for a metric without rounds).
std::string ab_figure(const AbMetricResult& r, double margin) {
  if (r.cost_ratios.empty()) return "";
  return "<figure class=\"ab\">" +
         ratio_strip_svg(r.series.test + "." + r.series.metric, r.cost_ratios, r.median_cost_ratio,
                         r.ci_low, r.ci_high, margin, r.verdict) +
         fmt::format(
             "<figcaption>one dot per round; the bar is the median {} with its "
             "interval; dashed: 1 + margin</figcaption></figure>",
             percent(r.median_cost_ratio));
}

}  // namespace

std::string render_ab_html_report(const std::string& folder) {
  const AbRun ab = read_ab_run(folder + "/ab.json");
  const std::string headline = ab_headline(ab);
  std::string out = html_page_start(fmt::format("{} · A/B timing · {}", headline, ab.run_id));
  out += ab_header(ab, headline);
  if (!ab.error.empty()) out += "<pre class=\"failure\">" + escape_markup(ab.error) + "</pre>";
  out +=
      "<section id=\"ab\"><table><tr><th>test</th><th>metric</th><th>candidate time</th>"
      "<th>interval</th><th>p slower (Holm)</th><th>verdict</th><th>note</th></tr>";
  for (const AbMetricResult& r : ab.results) out += ab_table_row(r);
  out += "</table>";
  for (const AbMetricResult& r : ab.results) out += ab_figure(r, ab.margin);
  out += "</section>";
  return out + html_page_end(fmt::format(
                   "Method: the two builds ran interleaved in each round (order drawn per "
                   "round), so a slow spell of the machine hits both; the cost ratio of a round "
                   "is candidate / other for a duration and other / candidate for a rate. "
                   "REGRESSION needs a one-sided Wilcoxon signed-rank p(slower) below {} after "
                   "Holm and a median ratio beyond 1 + {}. Written by mlregress from {}.",
                   ab.alpha, format_value(ab.margin), escape_markup(folder)));
}

}  // namespace mlregress::internal
