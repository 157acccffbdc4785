#include "storage/run_record.h"

#include <fmt/format.h>

#include <filesystem>

#include "record/json_text.h"
#include "storage/batch_view_file.h"
#include "storage/curve_csv.h"
#include "storage/predictions_file.h"
#include "storage/results_json.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

nlohmann::json read_environment(const std::string& path) {
  nlohmann::json environment = read_json_file(path);
  if (!environment.is_object()) throw RunFolderError(fmt::format("{}: not a JSON object", path));
  return environment;
}

}  // namespace

RunRecord read_run_record(const std::string& path) {
  if (!std::filesystem::is_directory(path)) {
    throw RunFolderError(fmt::format("'{}' is not a run folder (not a directory)", path));
  }
  for (const char* name : {"results.json", "environment.json"}) {
    if (!std::filesystem::exists(path + "/" + name)) {
      throw RunFolderError(
          fmt::format("'{}' is not a run folder: it has no readable {}", path, name));
    }
  }
  RunRecord record;
  record.path = path;
  record.run = read_results_json(path + "/results.json");
  record.run.info.run_folder = path;
  record.run.info.environment = read_environment(path + "/environment.json");
  record.profile = environment_profile(record.run.info.environment);
  for (TestResult& test : record.run.tests) {
    for (RecordedCurve& curve : test.curves) {
      if (!curve.curve.policy) continue;  // the others are read where they are drawn
      const CurveRecord values = read_curve_csv(path + "/" + curve.csv_file);
      curve.curve.steps = values.steps;
      curve.curve.values = values.values;
    }
    for (RecordedPredictions& p : test.predictions) {
      p.data = std::make_shared<const Predictions>(read_predictions_csv(path + "/" + p.csv_file));
    }
    for (RecordedBatch& b : test.batches) {
      // A batch is for looking at: one that cannot be read is reported, never a refused folder.
      try {
        b.data = std::make_shared<const BatchView>(read_batch_file(path + "/" + b.file));
      } catch (const Error& error) {
        b.problem = error.what();
      }
    }
  }
  return record;
}

}  // namespace mlregress::internal
