#include "commands/calibrate_command.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "baselines/calibration.h"
#include "environment/kernel_paths.h"
#include "registry/param_overrides.h"
#include "registry/test_registry.h"
#include "registry/test_selection.h"
#include "storage/run_record.h"
#include "support/atomic_file.h"
#include "support/child_process.h"
#include "support/clock.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

// Why a selected test is not calibrated, or "" when it is.
std::string left_out_because(const RegisteredTest& test) {
  if (test.seeded())
    return "a seeded test (ML_SEED_TEST): its spread is the seeds', stored as a distribution by "
           "promote";
  if (test.timing)
    return "a timing test (ML_TIMING_TEST): promote stores its spread (cv) per machine";
  if (test.flaky())
    return "a flaky test (ML_FLAKY_TEST): its baseline is a failure rate, stored by promote";
  return "";
}

// The plain tests of the selection; the others are named with the reason they are left out.
std::vector<const RegisteredTest*> calibrated_tests(const CalibrateOptions& options,
                                                    const std::string& gtest_filter) {
  const TestRegistry& registry = TestRegistry::instance();
  parse_param_overrides(options.sets, registry);  // a --set typo fails before any run
  std::vector<const RegisteredTest*> plain;
  std::vector<std::string> left_out;
  for (const RegisteredTest* test :
       select_tests(registry, options.tiers, options.filter, gtest_filter)) {
    const std::string why = left_out_because(*test);
    if (why.empty()) {
      plain.push_back(test);
    } else {
      left_out.push_back(fmt::format("{}: {}", test->name, why));
    }
  }
  for (const std::string& line : left_out) std::printf("calibrate: left out %s\n", line.c_str());
  if (plain.empty() && !left_out.empty()) {
    throw ConfigError(
        fmt::format("calibrate: nothing to calibrate: {} calibrates plain ML_TESTs only ({})",
                    options.filter.empty() ? "the selection" : "'" + options.filter + "'",
                    fmt::join(left_out, "; ")));
  }
  return plain;
}

// `run` of the calibrated tests, as this binary would be started by hand, on `threads` intra-op
// threads.
std::vector<std::string> repeat_command(const CalibrateOptions& options,
                                        const std::vector<const RegisteredTest*>& tests,
                                        const std::string& runs, int threads) {
  std::vector<std::string> names;
  for (const RegisteredTest* test : tests) names.push_back(test->name);
  std::vector<std::string> argv = {this_executable(), "run",
                                   "--filter",        fmt::format("{}", fmt::join(names, ":")),
                                   "--seed",          std::to_string(options.seed),
                                   "--threads",       std::to_string(threads),
                                   "--out",           runs,
                                   "--color",         "never"};
  for (const std::string& set : options.sets) argv.insert(argv.end(), {"--set", set});
  if (!options.repo.empty()) argv.insert(argv.end(), {"--repo", options.repo});
  return argv;
}

// One run of the calibration: a repeat, or one kernel path (`path` names it, "" for a repeat).
struct RepeatRun {
  std::vector<std::string> argv;
  EnvironmentChanges environment;
  std::string path;
};

// The runs of the calibration: K repeats of one configuration, or one per kernel path.
std::vector<RepeatRun> planned_runs(const CalibrateOptions& options,
                                    const std::vector<const RegisteredTest*>& tests,
                                    const std::string& runs) {
  std::vector<RepeatRun> planned;
  if (!options.across_kernels) {
    for (int i = 0; i < options.repeats; ++i) {
      planned.push_back({repeat_command(options, tests, runs, options.threads), {}, ""});
    }
    return planned;
  }
  for (const KernelSetting& setting : kernel_settings()) {
    planned.push_back(
        {repeat_command(options, tests, runs, options.threads + setting.extra_threads),
         environment_changes(setting), describe(setting)});
  }
  return planned;
}

// Runs repeat `index` (1-based) and reads its run folder. A repeat that could not run at all is
// an error with the run's own exit code; a failed test is left to refuse_unpromotable.
RunRecord run_repeat(const RepeatRun& repeat, const std::string& folder, int index, int count,
                     bool force) {
  const std::string log = fmt::format("{}/repeat-{:02}.log", folder, index);
  const auto start = std::chrono::steady_clock::now();
  const ChildExit exit = run_child_process(repeat.argv, log, "", 0.0, repeat.environment);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const bool ran = exit.exit_code == static_cast<int>(ExitCode::kPassed) ||
                   exit.exit_code == static_cast<int>(ExitCode::kTestFailed);
  if (!ran) {
    const ExitCode code =
        exit.exit_code > 0 ? static_cast<ExitCode>(exit.exit_code) : ExitCode::kInternalError;
    throw Error(code, fmt::format("calibrate: repeat {} of {} ended with {}; its output is in {}",
                                  index, count, exit.describe(), log));
  }
  RunRecord record = read_run_record(folder + "/runs/latest");
  record.path = std::filesystem::canonical(record.path).string();
  std::printf("  %s %*d/%d  %s  %.1f s%s%s\n", repeat.path.empty() ? "repeat" : "path",
              static_cast<int>(std::to_string(count).size()), index, count,
              record.run.info.run_id.c_str(), seconds,
              exit.exit_code == 0 ? "" : "  (a test failed)",
              repeat.path.empty() ? "" : ("  " + repeat.path).c_str());
  std::fflush(stdout);
  // A dirty tree or a failed test stops the calibration at the first repeat that shows it.
  refuse_unpromotable(record, force, "calibrate", /*needs_every_seed=*/false);
  return record;
}

std::string outcome_text(const MetricCalibration& c, bool allow_wide) {
  if (c.outcome == CalibrationOutcome::kBand ||
      (c.outcome == CalibrationOutcome::kNoiseDominates && allow_wide)) {
    return fmt::format("±{}  written{}", format_value(c.half_width),
                       c.note.empty() ? "" : " (" + c.note + ")");
  }
  return c.note;
}

// The table: one line per metric, also kept in the calibration folder.
std::string calibration_table(const std::vector<MetricCalibration>& metrics, bool allow_wide) {
  std::string out = fmt::format("  {:<36} {:>12} {:>11} {:>11} {:>7}  {}\n", "metric", "mean", "sd",
                                "max |Δ|", "k", "band");
  for (const MetricCalibration& c : metrics) {
    const std::string name = c.test + "." + c.metric;
    if (c.values.empty()) {
      out += fmt::format("  {:<36} {:>12} {:>11} {:>11} {:>7}  {}\n", name, "-", "-", "-", "-",
                         c.note);
      continue;
    }
    const Calibration& cal = c.calibration;
    out += fmt::format("  {:<36} {:>12} {:>11} {:>11} {:>7.4f}  {}\n", name, format_value(cal.mean),
                       format_value(cal.sd), format_value(cal.max_deviation), cal.k,
                       outcome_text(c, allow_wide));
  }
  return out;
}

// The calibration's folder, OUT/ID, with runs/ for the repeats' run folders.
std::string create_calibration_folder(const std::string& out, const std::string& id) {
  const std::string folder = out + "/" + id;
  std::error_code error;
  std::filesystem::create_directories(folder + "/runs", error);
  if (error) throw OutputError(fmt::format("cannot create '{}': {}", folder, error.message()));
  return folder;
}

// Runs the planned repeats one after another, after a line that says what is run and where.
std::vector<RunRecord> run_repeats(const std::vector<RepeatRun>& planned,
                                   const CalibrateOptions& options, std::size_t tests,
                                   const std::string& folder) {
  const int count = static_cast<int>(planned.size());
  std::printf("calibrate: %d %s of %zu test%s (seed %llu, %d thread%s) into %s\n", count,
              options.across_kernels ? "kernel paths" : "repeats", tests, tests == 1 ? "" : "s",
              static_cast<unsigned long long>(options.seed), options.threads,
              options.threads == 1 ? "" : "s", folder.c_str());
  std::fflush(stdout);
  std::vector<RunRecord> repeats;
  for (int i = 1; i <= count; ++i) {
    repeats.push_back(run_repeat(planned[i - 1], folder, i, count, options.force));
  }
  return repeats;
}

// Prints the table and keeps it as calibration.txt. The calibration's record is written before
// any baseline: a band without its record would not say how it was measured. An unwritable
// folder stops here (OutputError, exit output_error).
void write_calibration_record(const std::vector<MetricCalibration>& metrics,
                              const CalibrationRule& rule, const std::vector<RunRecord>& repeats,
                              bool allow_wide, const std::string& folder) {
  const std::string table =
      fmt::format("rule: {}, k for n = {}\non {}\n{}", calibration_rule_text(rule), repeats.size(),
                  repeats.front().profile.id, calibration_table(metrics, allow_wide));
  std::printf("\n%s", table.c_str());
  write_file_atomically(folder + "/calibration.txt", table);
}

// Writes the bands into the baseline files and says which files changed.
std::vector<PlannedFile> write_bands(const std::vector<RunRecord>& repeats,
                                     const std::vector<MetricCalibration>& metrics,
                                     const std::string& id, const CalibrateOptions& options) {
  const PromotionRequest request{
      .baselines_dir = options.baselines,
      .reason = options.reason.empty()
                    ? fmt::format("calibrate: {} {}", repeats.size(),
                                  options.across_kernels ? "kernel paths" : "repeats")
                    : options.reason,
      .force = options.force,
      .now = utc_now_iso8601()};
  const std::vector<PlannedFile> written =
      write_calibration(repeats, metrics, id, options.allow_wide_bands, request);
  for (const PlannedFile& file : written) {
    std::printf("calibrate: %s %s v%d -> v%d: %d changed, %d new metric%s\n", file.path.c_str(),
                file.created ? "created" : "updated", file.before.provenance.version,
                file.after.provenance.version, file.changed_metrics, file.new_metrics,
                file.new_metrics == 1 ? "" : "s");
  }
  return written;
}

// The exit code: promotion_refused when a metric that varies was left without a band.
ExitCode bands_outcome(const std::vector<MetricCalibration>& metrics,
                       const std::vector<PlannedFile>& written, bool allow_wide) {
  int bands = 0, left = 0;
  for (const MetricCalibration& c : metrics) {
    if (writes_band(c, allow_wide)) {
      ++bands;
    } else if (c.outcome != CalibrationOutcome::kIdentical &&
               c.outcome != CalibrationOutcome::kNotCalibrated) {
      ++left;
    }
  }
  if (written.empty()) {
    std::printf("calibrate: %s\n",
                bands == 0 ? "no band to write" : "the baselines already hold these bands");
  }
  if (left > 0) {
    std::printf("calibrate: %d metric%s left without a calibrated band (see above)\n", left,
                left == 1 ? "" : "s");
    return ExitCode::kPromotionRefused;
  }
  return ExitCode::kPassed;
}

}  // namespace

ExitCode calibrate_command(const CalibrateOptions& options, const std::string& binary,
                           const std::string& gtest_filter) {
  const std::vector<const RegisteredTest*> tests = calibrated_tests(options, gtest_filter);
  if (tests.empty()) {
    std::fprintf(stderr, "%s: calibrate: no test matches the selection%s\n", binary.c_str(),
                 options.filter.empty() ? "" : (" '" + options.filter + "'").c_str());
    return ExitCode::kNoTestsMatched;
  }
  // A broken baseline file stops the calibration before K runs are spent on it.
  BaselineSet::load(options.baselines, binary, /*allow_missing=*/true);

  const std::string id = "calibration-" + utc_compact(std::chrono::system_clock::now());
  const std::string folder = create_calibration_folder(options.out, id);
  const std::vector<RepeatRun> planned = planned_runs(options, tests, folder + "/runs");
  CalibrationRule rule{options.coverage, options.confidence, {}};
  for (const RepeatRun& run : planned) {
    if (!run.path.empty()) rule.kernel_paths.push_back(run.path);
  }
  const std::vector<RunRecord> repeats = run_repeats(planned, options, tests.size(), folder);

  const std::vector<MetricCalibration> metrics = calibrate_metrics(repeats, rule);
  write_calibration_record(metrics, rule, repeats, options.allow_wide_bands, folder);
  const std::vector<PlannedFile> written = write_bands(repeats, metrics, id, options);
  return bands_outcome(metrics, written, options.allow_wide_bands);
}

}  // namespace mlregress::internal
