// Finding run folders: the folders that hold a run's results.json and environment.json, given
// run folders themselves or folders above them (runs/, CI artifacts unpacked into one folder).
#pragma once

#include <string>
#include <vector>

namespace mlregress::internal {

/// Every run folder at each path, or one or two levels below it (runs/<id>,
/// artifacts/<job>/<id>), canonical and sorted, each once (the `latest` link is the folder it
/// names). Throws RunFolderError, naming `command`, for a path that does not exist: a typo must
/// not read as "no runs".
std::vector<std::string> find_run_folders(const std::vector<std::string>& paths,
                                          const std::string& command);

}  // namespace mlregress::internal
