// Reading and writing baseline files. Reading is strict (every field checked, errors carry
// file:line:column); writing is deterministic (sorted keys, shortest round-trip numbers), so a
// diff after a promotion shows only what changed.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "baseline.h"

namespace mlregress::internal {

/// A baseline file that cannot be used: malformed TOML, a wrong type, an unknown direction, a
/// negative or NaN tolerance, a schema version from the future. what() starts with file:line:col.
class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// `source_name` is used in error messages only.
BaselineFile parse_baseline(std::string_view text, const std::string& source_name);
std::string render_baseline(const BaselineFile& file);

}  // namespace mlregress::internal
