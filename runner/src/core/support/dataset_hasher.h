// The file hashing behind fingerprint_files (mlregress/dataset.h), for the record_* calls that
// hash files: each names itself in the error, so the reader is sent to the call that failed.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "mlregress/dataset.h"

namespace mlregress::internal {

/// fingerprint_files, with `caller` ("record_checkpoint 'pretrained'") heading the error that
/// names a file that cannot be read: "<caller>: cannot read '<path>'".
DatasetFingerprint fingerprint_files_for(std::string_view caller,
                                         const std::vector<std::string>& paths);

}  // namespace mlregress::internal
