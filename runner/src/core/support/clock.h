// Wall-clock time in UTC, formatted the same way everywhere (ISO 8601 with a Z).
#pragma once

#include <chrono>
#include <string>

namespace mlregress::internal {

/// "2026-12-02T13:45:12.345Z"
std::string utc_now_iso8601();
std::string utc_iso8601(std::chrono::system_clock::time_point time);
/// "20261202T134512Z": sortable and safe in a folder name.
std::string utc_compact(std::chrono::system_clock::time_point time);

}  // namespace mlregress::internal
