// Reading and writing baseline files. Reading is strict (every field checked, errors carry
// file:line:column); writing is deterministic (sorted keys, shortest round-trip numbers), so a
// diff after a promotion shows only what changed.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "baselines/baseline.h"
#include "support/errors.h"

namespace mlregress::internal {

/// Throws BaselineError for malformed TOML, a wrong type, an unknown direction, a negative or NaN
/// tolerance, a schema version from the future. `source_name` is used in error messages only.
BaselineFile parse_baseline(std::string_view text, const std::string& source_name);
std::string render_baseline(const BaselineFile& file);

}  // namespace mlregress::internal
