#include "storage/run_folder.h"

#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "record/json_text.h"
#include "support/atomic_file.h"
#include "support/clock.h"
#include "support/errors.h"

namespace mlregress::internal {

RunFolder create_run_folder(const std::string& root, std::chrono::system_clock::time_point start,
                            const std::string& short_commit) {
  std::error_code error;
  std::filesystem::create_directories(root, error);
  if (error) {
    throw OutputError(fmt::format("cannot create the runs folder '{}': {}", root, error.message()));
  }
  const std::string base = utc_compact(start) + "-" + short_commit;
  for (int n = 1; n < 1000; ++n) {
    RunFolder folder{root, n == 1 ? base : fmt::format("{}-{}", base, n), ""};
    folder.path = root + "/" + folder.run_id;
    if (::mkdir(folder.path.c_str(), 0755) == 0) {
      const std::string curves = folder.path + "/curves";
      if (::mkdir(curves.c_str(), 0755) != 0) {
        throw OutputError(fmt::format("cannot create '{}': {}", curves, std::strerror(errno)));
      }
      return folder;
    }
    if (errno != EEXIST) {
      throw OutputError(
          fmt::format("cannot create the run folder '{}': {}", folder.path, std::strerror(errno)));
    }
  }
  throw OutputError(fmt::format("cannot create a run folder under '{}': 1000 names taken", root));
}

void finish_run_folder(const RunFolder& folder, const LedgerEntry& entry) {
  const std::string latest = folder.root + "/latest";
  const std::string temp = fmt::format("{}.tmp.{}", latest, ::getpid());
  ::unlink(temp.c_str());
  if (::symlink(folder.run_id.c_str(), temp.c_str()) != 0 ||
      ::rename(temp.c_str(), latest.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    throw OutputError(
        fmt::format("cannot point '{}' at '{}': {}", latest, folder.run_id, std::strerror(error)));
  }
  append_line(folder.root + "/ledger.jsonl", json_text(nlohmann::json(entry)));
}

}  // namespace mlregress::internal
