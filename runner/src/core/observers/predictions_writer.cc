#include "observers/predictions_writer.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>

#include "storage/predictions_file.h"
#include "support/atomic_file.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

void ensure_folder(const std::string& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw OutputError(fmt::format("cannot create '{}': {}", folder, error.message()));
}

}  // namespace

std::string flips_file_name(const std::string& test, const std::string& name) {
  return "predictions/" + test + "." + name + ".flips.csv";
}

void PredictionsWriter::on_predictions(const TestResult& /*test*/,
                                       const RecordedPredictions& predictions) {
  if (!predictions.data) return;
  ensure_folder(run_folder_ + "/predictions");
  write_predictions_csv(run_folder_ + "/" + predictions.csv_file, *predictions.data);
}

void PredictionsWriter::on_test_end(const TestResult& test, const RunResult& /*run*/) {
  for (const MetricComparison& c : test.comparisons) {
    if (!c.flips || !c.flips->full) continue;
    std::string csv = "kind,id,target,baseline_predicted,candidate_predicted";
    for (const std::string& name : c.flips->full->attribute_names) csv += "," + name;
    csv += "\n";
    const auto rows = [&](const char* kind, const std::vector<PredictionFlip>& flips) {
      for (const PredictionFlip& f : flips) {
        csv += fmt::format("{},{},{},{},{}", kind, f.id, f.target, f.baseline_predicted,
                           f.candidate_predicted);
        // One column per attribute, empty where the example has no value.
        for (const double v : f.attributes) csv += std::isfinite(v) ? fmt::format(",{}", v) : ",";
        csv += "\n";
      }
    };
    rows("correct_to_wrong", c.flips->full->correct_to_wrong);
    rows("wrong_to_correct", c.flips->full->wrong_to_correct);
    ensure_folder(run_folder_ + "/predictions");
    write_file_atomically(run_folder_ + "/" + flips_file_name(test.name, c.metric), csv);
  }
}

}  // namespace mlregress::internal
