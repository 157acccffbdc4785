// Files the runner writes are replaced whole: a reader (or a crash) never sees half a file.
#pragma once

#include <string>
#include <string_view>

namespace mlregress::internal {

/// Writes `content` to a temporary file beside `path`, flushes it to disk and renames it over
/// `path`. Throws OutputError naming the path and the system's reason.
void write_file_atomically(const std::string& path, std::string_view content);

/// Appends one line (a newline is added) with a single write, so concurrent appenders do not
/// interleave. Throws OutputError.
void append_line(const std::string& path, std::string_view line);

}  // namespace mlregress::internal
