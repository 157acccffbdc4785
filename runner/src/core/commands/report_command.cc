#include "commands/report_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>

#include "baselines/promotion.h"
#include "comparison/baseline_gate.h"
#include "renderers/ab_html_report.h"
#include "renderers/bisect_report.h"
#include "renderers/html_report.h"
#include "renderers/markdown_report.h"
#include "renderers/openmetrics_report.h"
#include "renderers/run_page.h"
#include "storage/bisect_record.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

std::string render(const RunReport& report, const std::string& format) {
  if (format == "markdown") return render_markdown_report(report);
  if (format == "openmetrics") return render_openmetrics_report(report);
  return render_html_report(report);
}

// Where `out` is written, by default report.html for HTML, stdout for the others.
std::string output_path(const ReportOptions& options) {
  return !options.out.empty() ? options.out : options.format == "html" ? "report.html" : "-";
}

ExitCode write_report(const std::string& text, const ReportOptions& options,
                      const std::string& headline) {
  const std::string out = output_path(options);
  if (out == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
  } else {
    write_file_atomically(out, text);
    std::printf("report: %s (%s, %zu bytes, %s)\n", out.c_str(), options.format.c_str(),
                text.size(), headline.c_str());
  }
  return ExitCode::kPassed;
}

// A bisect folder's record (bisect.json): the culprit and the commits tried, HTML or Markdown.
ExitCode write_bisect_report(const ReportOptions& options) {
  if (options.format == "openmetrics" || !options.against.empty() || !options.baselines.empty() ||
      !options.history.empty()) {
    throw ConfigError(fmt::format(
        "report: {} is a bisect folder (bisect.json): it has a report of its own, HTML or "
        "Markdown, without --against, --baselines or --history",
        options.run));
  }
  const BisectRecord record = read_bisect_record(options.run);
  const std::string headline =
      record.culprit ? fmt::format("bisect, culprit {}", record.culprit->commit.substr(0, 12))
                     : "bisect, no culprit";
  if (options.format == "markdown")
    return write_report(render_bisect_markdown_report(record), options, headline);
  // The run folders in the table link from where the page is written.
  namespace fs = std::filesystem;
  const std::string out = output_path(options);
  std::string links = options.run + "/";
  if (out != "-") {
    std::error_code error;
    const fs::path from = fs::absolute(fs::path(out)).parent_path();
    const fs::path relative = fs::relative(fs::absolute(options.run), from, error);
    links = error             ? fs::absolute(options.run).string() + "/"
            : relative == "." ? ""
                              : relative.string() + "/";
  }
  return write_report(render_bisect_html_report(record, options.run, links), options, headline);
}

// An A/B timing folder's record (ab.json): an HTML report of its rounds.
ExitCode write_ab_report(const ReportOptions& options) {
  if (options.format != "html" || !options.against.empty() || !options.baselines.empty()) {
    throw ConfigError(fmt::format(
        "report: {} is an A/B timing folder (ab.json): it has an HTML report of its own "
        "rounds, without --against, --baselines or another --format",
        options.run));
  }
  return write_report(render_ab_html_report(options.run), options, "A/B timing");
}

// The baselines a run named, for their stored samples only; none, with a note saying why, when
// they cannot be read now.
std::optional<BaselineSet> baselines_the_run_named(const RunInfo& info,
                                                   std::vector<std::string>& notes) {
  try {
    return BaselineSet::load(info.baselines, info.binary, /*allow_missing=*/true);
  } catch (const BaselineError& error) {
    notes.push_back(
        fmt::format("the baselines the run named cannot be read now ({}): the "
                    "plots show no stored samples",
                    error.what()));
  }
  return std::nullopt;
}

}  // namespace

ExitCode report_command(const ReportOptions& options) {
  if (!options.against.empty() && !options.baselines.empty()) {
    throw ConfigError("report: --against and --baselines name two references; give one");
  }
  if (std::filesystem::exists(options.run + "/ab.json") &&
      !std::filesystem::exists(options.run + "/results.json")) {
    return write_ab_report(options);
  }
  if (is_bisect_folder(options.run) && !std::filesystem::exists(options.run + "/results.json")) {
    return write_bisect_report(options);
  }
  RunRecord candidate = read_run_record(options.run);
  candidate.run.info.strict_env = candidate.run.info.strict_env || options.strict_env;
  std::optional<RunRecord> against;
  std::optional<BaselineSet> baselines;
  ReportReference reference;
  std::vector<std::string> notes;
  if (!options.against.empty()) {
    against = read_run_record(options.against);
    baselines = baseline_from_run(*against);
    BaselineGate(*baselines, candidate.profile, options.alpha).judge_run(candidate.run);
    reference.run = &*against;
    reference.description = fmt::format("run {} ({})", against->run.info.run_id, against->path);
  } else if (!options.baselines.empty()) {
    baselines = BaselineSet::load(options.baselines, candidate.run.info.binary,
                                  /*allow_missing=*/false);
    BaselineGate(*baselines, candidate.profile, options.alpha).judge_run(candidate.run);
    reference.description = describe_baselines(options.baselines, *baselines);
  } else if (!candidate.run.info.baselines.empty()) {
    // The verdicts stay the run's own; the baselines it named only add their stored samples.
    reference.description =
        fmt::format("baselines in {} (as the run judged it)", candidate.run.info.baselines);
    baselines = baselines_the_run_named(candidate.run.info, notes);
  } else {
    reference.description = "nothing (the run had no --baselines)";
  }
  reference.baselines = baselines ? &*baselines : nullptr;
  reference.gate_power = options.format == "html";
  RunReport report = build_run_report(candidate, reference);
  report.notes.insert(report.notes.end(), notes.begin(), notes.end());
  if (!options.history.empty()) add_history(report, candidate, options.history, options.repo);

  const ExitCode written = write_report(render(report, options.format), options, report.headline);
  // The report's own outcome is the file; only --strict-env turns a verdict into an exit code.
  // NOT_GATED only when nothing failed or regressed: the headline has the run's precedence.
  if (written == ExitCode::kPassed && options.strict_env && report.headline == "NOT_GATED") {
    return ExitCode::kNotGated;
  }
  return written;
}

}  // namespace mlregress::internal
