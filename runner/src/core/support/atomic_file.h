// Files the runner writes are replaced whole: a reader (or a crash) never sees half a file.
#pragma once

#include <string>
#include <string_view>

namespace mlregress::internal {

/// How far a replacement must survive. Both survive the writer being killed at any moment (the
/// rename is atomic); only kSurvivesPowerLoss also waits for the disk, which costs a few
/// milliseconds a file: worth it for baselines, not for run files rewritten after every test.
enum class Durability { kSurvivesProcessCrash, kSurvivesPowerLoss };

/// Writes `content` to a temporary file beside `path` and renames it over `path`. Throws
/// OutputError naming the path and the system's reason.
void write_file_atomically(const std::string& path, std::string_view content,
                           Durability durability = Durability::kSurvivesProcessCrash);

/// Appends one line (a newline is added) with a single write, so concurrent appenders do not
/// interleave. Throws OutputError.
void append_line(const std::string& path, std::string_view line);

}  // namespace mlregress::internal
