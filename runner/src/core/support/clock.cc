#include "support/clock.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

namespace mlregress::internal {

std::string utc_iso8601(std::chrono::system_clock::time_point time) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch());
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  return fmt::format("{:%Y-%m-%dT%H:%M:%S}.{:03d}Z", fmt::gmtime(seconds),
                     static_cast<int>(ms.count() % 1000));
}

std::string utc_now_iso8601() { return utc_iso8601(std::chrono::system_clock::now()); }

std::string utc_compact(std::chrono::system_clock::time_point time) {
  return fmt::format("{:%Y%m%dT%H%M%SZ}", fmt::gmtime(std::chrono::system_clock::to_time_t(time)));
}

}  // namespace mlregress::internal
