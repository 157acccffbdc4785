#include "atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "output_error.h"

namespace mlregress::internal {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& path, int error) {
  throw OutputError(fmt::format("cannot {} '{}': {}", what, path, std::strerror(error)));
}

void write_all(int fd, std::string_view content, const std::string& path) {
  while (!content.empty()) {
    const ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      fail("write", path, error);
    }
    content.remove_prefix(static_cast<std::size_t>(n));
  }
}

}  // namespace

void write_file_atomically(const std::string& path, std::string_view content) {
  const std::string temp = fmt::format("{}.tmp.{}", path, ::getpid());
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) fail("create", temp, errno);
  write_all(fd, content, temp);
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail("flush", temp, error);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    fail("replace", path, error);
  }
}

void append_line(const std::string& path, std::string_view line) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) fail("open", path, errno);
  std::string buffer(line);
  buffer += '\n';
  write_all(fd, buffer, path);
  if (::close(fd) != 0) fail("close", path, errno);
}

}  // namespace mlregress::internal
