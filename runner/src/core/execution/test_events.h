// The events a test process sends the runner, one JSON line each, the moment they happen: a test
// started, an assertion failed, the test skipped itself, a metric or curve was recorded, the test
// ended. Results reach the runner as they happen, so a test that later crashes loses nothing it
// already recorded. The wire format is defined here once (to_json / from_json), for the worker
// that writes it and the supervisor that reads it.
//
//   {"event": "start", "test": "Fast.Cnn", "started_at": "2026-12-02T13:45:12.345Z"}
//   {"event": "failure", "file": "cnn_test.cc", "line": 12, "message": "...", "fatal": true}
//   {"event": "skip", "message": "needs a GPU"}
//   {"event": "metric", "name": "loss", "value": 0.01, "direction": "lower_is_better",
//    "policy": {"kind": "band", "rtol": 0.5, "atol": 0.001}}
//   {"event": "breakdown", "metric": "ops_per_step", "breakdown": {"unit": "calls",
//    "operators": {"aten::addmm": 12, "aten::relu": 4}}}
//   {"event": "curve", "name": "loss", "steps": [0, 1], "values": [1.3, "NaN"]}
//   {"event": "dataset", "name": "eval", "sha256": "sha256:ab12...", "bytes": 52224, "order":
//   false} (a checkpoint adds "kind": "checkpoint")
//   {"event": "property", "key": "dtype", "value": "float32"}
//   {"event": "constraint", "text": "val_loss <= +0.5%"}
//   {"event": "held_out", "name": "test", "sha256": "sha256:ab12..."}
//   {"event": "predictions", "name": "eval", "ids": [0, 1], "predicted": [3, 1], "target": [3, 2]}
//     (with attributes: "attributes": [{"name": "length", "values": [12, null]}], null: no value)
//   {"event": "batch", "name": "input", "batch": {"kind": "images", …}} (storage/batch_view_file.h)
//   {"event": "end", "test": "Fast.Cnn", "passed": true, "skipped": false, "duration_s": 0.2}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <variant>

#include "analysis/prediction_flips.h"
#include "mlregress/batch_view.h"
#include "mlregress/metric.h"
#include "record/run_result.h"

namespace mlregress::internal {

struct TestStarted {
  std::string test;  ///< full name, "Fast.CnnOverfitsOneBatch"
  std::string started_at;
};

struct AssertionFailed {
  TestFailure failure;
};

struct TestSkipped {
  std::string message;
};

struct MetricRecorded {
  MetricRecord metric;  ///< name, value, direction and policy; no samples
};

/// record_breakdown: the metric of that name, recorded earlier in the test, split by operator.
struct BreakdownRecorded {
  std::string metric;
  Breakdown breakdown;
};

struct CurveRecorded {
  CurveRecord curve;
};

struct PredictionsRecorded {
  std::string name;
  Predictions predictions;
};

/// record_batch: a batch as the model receives it, for the report.
struct BatchRecorded {
  std::string name;
  BatchView view;
};

struct DatasetRecorded {
  std::string name;
  std::string sha256;
  std::uint64_t bytes = 0;
  FingerprintKind kind = FingerprintKind::kDataset;
};

/// record_property: a fact about what the test ran on, not gated.
struct PropertyRecorded {
  std::string key;
  std::string value;
};

/// MlTest::constrain: a constraint on one of the test's metrics, checked against the baseline.
struct ConstraintDeclared {
  std::string text;
};

/// record_held_out_evaluation: the test evaluated the held-out set of that name and fingerprint.
struct HeldOutEvaluated {
  std::string name;
  std::string sha256;
};

struct TestEnded {
  std::string test;
  bool passed = false;
  bool skipped = false;
  double duration_s = 0.0;
};

using TestEvent =
    std::variant<TestStarted, AssertionFailed, TestSkipped, MetricRecorded, BreakdownRecorded,
                 CurveRecorded, PredictionsRecorded, DatasetRecorded, PropertyRecorded,
                 ConstraintDeclared, HeldOutEvaluated, BatchRecorded, TestEnded>;

/// The status a test ended with, as its worker reported it: skipped, passed or failed. (The
/// collector lets a recorded failure win over a skip.)
inline TestStatus ended_status(const TestEnded& ended) {
  if (ended.skipped) return TestStatus::kSkipped;
  return ended.passed ? TestStatus::kPassed : TestStatus::kFailed;
}

/// Gives the metric the breakdown names its breakdown (the last metric of that name; record()
/// refuses a second one). A breakdown of a metric not recorded is dropped: record_breakdown
/// refuses it in the test.
void attach_breakdown(std::vector<MetricRecord>& metrics, const BreakdownRecorded& event);

void to_json(nlohmann::json& json, const TestEvent& event);
/// Throws (nlohmann's exceptions or std::invalid_argument) for anything that is not an event.
void from_json(const nlohmann::json& json, TestEvent& event);

/// One line of the wire: the event as compact JSON, invalid UTF-8 in user text replaced.
std::string event_line(const TestEvent& event);

/// Decodes one line, or says why it is not an event.
struct DecodedEvent {
  std::optional<TestEvent> event;
  std::string error;  ///< set when `event` is empty
};
DecodedEvent decode_event_line(const std::string& line);

}  // namespace mlregress::internal
