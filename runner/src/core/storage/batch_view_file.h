// A batch a test recorded (MlTest::record_batch) as a file of its run folder,
// batches/<test>.<name>.json, written whole (write_file_atomically). One JSON object:
//   {"kind": "images", "examples": 16, "labels": ["3", …], "height": 16, "width": 16,
//    "channels": 3, "pixels_base64": "…" (N·H·W·C bytes, RGB), "clamped_fraction": 0.02,
//    "note": "…"}
//   {"kind": "text", "examples": 8, "labels": […], "texts": ["the cat …", …]}
//   {"kind": "table", "examples": 4, "labels": […], "columns": ["age", …], "rows": [[…], …]}
// The same object is the "batch" of the event a test process sends (execution/test_events.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "mlregress/batch_view.h"

namespace mlregress::internal {

/// "batches/<test>.<name>.json": where a test's batch lives below a run folder.
std::string batch_file_name(const std::string& test, const std::string& name);

nlohmann::json batch_view_to_json(const BatchView& view);
/// Throws JsonFieldError naming the field for anything that is not a view, or whose sizes
/// disagree (batch_view_problem).
BatchView batch_view_from_json(const nlohmann::json& json);

/// Writes the file whole. Throws OutputError when it cannot be written.
void write_batch_file(const std::string& path, const BatchView& view);
/// Reads a file written by write_batch_file. Throws RunFolderError naming the file (and the field).
BatchView read_batch_file(const std::string& path);

}  // namespace mlregress::internal
