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
/// OutputError naming the path and the system's reason. The content is written to an unnamed
/// file (O_TMPFILE) where the file system allows, so a writer killed meanwhile leaves nothing;
/// it gets a name only for the rename: hidden, ".NAME.tmp.PID", never NAME's extension.
void write_file_atomically(const std::string& path, std::string_view content,
                           Durability durability = Durability::kSurvivesProcessCrash);

/// Removes the temporaries of write_file_atomically in `folder` whose writer is no longer
/// running (killed between naming and renaming). Call it where no other writer can start, e.g.
/// under the folder's lock. Returns how many it removed.
int remove_stale_temporaries(const std::string& folder);

/// Appends one line (a newline is added) under an exclusive lock, so concurrent appenders do not
/// interleave. A write cut short (full disk) is truncated back: the file holds whole lines only.
/// Throws OutputError.
void append_line(const std::string& path, std::string_view line);

}  // namespace mlregress::internal
