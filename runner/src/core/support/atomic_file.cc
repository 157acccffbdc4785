#include "support/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "support/errors.h"

namespace mlregress::internal {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
  throw OutputError(fmt::format("cannot {} '{}': {}", what, path, std::strerror(error)));
}

// 0 on success, else the errno of the failed write.
int write_all(int fd, std::string_view content) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
  return 0;
}

// The rename is only durable once the directory entry is on disk too.
void sync_parent_directory(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  const std::string dir =
      slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content,
                           Durability durability) {
  const bool flush = durability == Durability::kSurvivesPowerLoss;
  const std::string temp = fmt::format("{}.tmp.{}", path, ::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    fail(fmt::format("create a temporary file for '{}':", path), temp, error);
  }
  if (const int error = write_all(fd, content); error != 0) {
    ::close(fd);
    ::unlink(temp.c_str());
    fail("write", temp, error);
  }
  if ((flush && ::fsync(fd) != 0) || ::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail("flush", temp, error);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail("replace", path, error);
  }
  if (flush) sync_parent_directory(path);
}

void append_line(const std::string& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail("open", path, errno);
  std::string buffer(line);
  buffer += '\n';
  if (const int error = write_all(fd, buffer); error != 0) {
    ::close(fd);
    fail("append to", path, error);
  }
  if (::close(fd) != 0) fail("close", path, errno);
}

}  // namespace mlregress::internal
