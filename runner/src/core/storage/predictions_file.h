// A classifier's predictions on a frozen evaluation set, kept in a run folder so that a later
// run can be compared with it example by example (comparison/prediction_flips). CSV, because
// people open it: the header "id,predicted,target", then one line of three integers per example.
// Predictions recorded with per-example attributes add one column each after the three
// ("id,predicted,target,position,length"), a number or empty (no value); the reader still takes
// the three-column file.
#pragma once

#include <string>

#include "analysis/prediction_flips.h"

namespace mlregress::internal {

/// Where a test's predictions live below a run folder or a baseline folder.
std::string predictions_file_name(const std::string& test, const std::string& name);

/// The file's text. The three vectors and every attribute's values must have the same length, and
/// an attribute's name must be a header word other than id, predicted and target (letters,
/// digits, '_', '.', '-') used once (std::invalid_argument).
std::string render_predictions_csv(const Predictions& predictions);

/// Writes the file whole (write_file_atomically): a crash leaves the old file or the new one.
/// Throws OutputError when it cannot be written.
void write_predictions_csv(const std::string& path, const Predictions& predictions);

/// Reads a file written by write_predictions_csv, in its order. Throws RunFolderError
/// "<path>:<line>: expected ..." for a missing header, a line that is not three integers and one
/// number (or nothing) per attribute column, a negative class index, an id seen before or a last
/// line without its newline (a file cut short), and "<path>: ..." when it cannot be read or is
/// empty.
Predictions read_predictions_csv(const std::string& path);

}  // namespace mlregress::internal
