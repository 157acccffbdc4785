#include "commands/history_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>

#include "renderers/history_page.h"
#include "renderers/history_report.h"
#include "storage/metric_history.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

void print(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// One page, links to the runs relative to the folder it is written into.
void write_history_page(const MetricHistory& history, const stats::ChangePointOptions& options,
                        const std::string& out_option) {
  const bool to_stdout = out_option == "-";
  const std::string out = out_option.empty() ? "history.html" : out_option;
  const std::filesystem::path folder = std::filesystem::weakly_canonical(
      to_stdout ? std::filesystem::current_path() : std::filesystem::absolute(out).parent_path());
  const std::string page = render_history_page(history, options, folder);
  if (to_stdout) {
    print(page);
    return;
  }
  write_file_atomically(out, page);
  std::printf("history: %s (%zu series from %zu runs)\n", out.c_str(), history.series.size(),
              history.runs);
}

}  // namespace

ExitCode history_command(const HistoryOptions& options) {
  if (!options.out.empty() && options.format != "html") {
    throw ConfigError(
        fmt::format("history: --out writes the page of --format html; --format {} prints to stdout",
                    options.format));
  }
  const stats::ChangePointOptions change_options{.max_p = options.max_p,
                                                 .min_magnitude = options.min_magnitude};
  const MetricHistory history =
      read_metric_history(options.paths, options.test, options.metric, options.repo);
  if (options.format == "html") {
    write_history_page(history, change_options, options.out);
  } else if (options.format == "json") {
    print(render_history_json(history, change_options));
  } else {
    print(render_history_text(history, change_options));
  }
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
