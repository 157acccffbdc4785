#include "event_sink.h"

#include <unistd.h>

#include <cerrno>
#include <string>

namespace mlregress::internal {

void FdEventSink::emit(const nlohmann::json& event) {
  // Invalid UTF-8 in user strings is replaced, never thrown on: an event must always get out.
  std::string line = event.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  line += '\n';
  const char* data = line.data();
  std::size_t left = line.size();
  while (left > 0) {
    const ssize_t written = ::write(fd_, data, left);
    if (written < 0) {
      if (errno == EINTR) continue;
      return;  // The runner is gone; nobody is left to report to.
    }
    data += written;
    left -= static_cast<std::size_t>(written);
  }
}

}  // namespace mlregress::internal
