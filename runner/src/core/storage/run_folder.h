// One folder per run under a root (default runs/): named <UTC time>-<short commit>, with
// runs/latest pointing at the newest and runs/ledger.jsonl holding one line per run.
#pragma once

#include <chrono>
#include <string>

#include "storage/run_ledger.h"

namespace mlregress::internal {

struct RunFolder {
  std::string root;    ///< e.g. "runs"
  std::string run_id;  ///< e.g. "20261202T134512Z-a1b2c3d"
  std::string path;    ///< root + "/" + run_id
};

/// Creates root (and parents) and a fresh run folder with a curves/ subfolder. A second run in
/// the same second gets "-2", "-3"... Throws OutputError when the folder cannot be made.
RunFolder create_run_folder(const std::string& root, std::chrono::system_clock::time_point start,
                            const std::string& short_commit);

/// Points root/latest at the run (atomically replaced symlink) and appends its ledger line.
void finish_run_folder(const RunFolder& folder, const LedgerEntry& entry);

}  // namespace mlregress::internal
