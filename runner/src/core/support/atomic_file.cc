#include "support/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

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

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
}

// The rename is only durable once the directory entry is on disk too.
void sync_parent_directory(const std::string& path) {
  const std::string dir = parent_of(path);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

// ".NAME.tmp.PID" beside NAME: hidden, and without NAME's extension, so that a loader globbing
// "*.toml" never reads it.
std::string temporary_for(const std::string& path, pid_t pid) {
  const std::size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return fmt::format("{}.{}.tmp.{}", dir, name, pid);
}

// The writer's PID when `name` is one of our temporaries, else 0.
pid_t temporary_writer(std::string_view name) {
  const std::size_t marker = name.rfind(".tmp.");
  if (name.empty() || name.front() != '.' || marker == std::string_view::npos) return 0;
  const std::string_view digits = name.substr(marker + 5);
  pid_t pid = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
  return error == std::errc() && end == digits.data() + digits.size() ? pid : 0;
}

}  // namespace

int remove_stale_temporaries(const std::string& folder) {
  int removed = 0;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(folder, error)) {
    const pid_t writer = temporary_writer(entry.path().filename().string());
    if (writer <= 0) continue;
    if (::kill(writer, 0) == 0 || errno != ESRCH) continue;  // still running (or not ours)
    removed += ::unlink(entry.path().c_str()) == 0;
  }
  return removed;
}

void write_file_atomically(const std::string& path, std::string_view content,
                           Durability durability) {
  const bool flush = durability == Durability::kSurvivesPowerLoss;
  const std::string temp = temporary_for(path, ::getpid());
  // Unnamed until written: a kill during the write or the fsync leaves no file behind.
  int fd = ::open(parent_of(path).c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
  const bool unnamed = fd >= 0;
  if (!unnamed) fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int error = errno;
    fail(fmt::format("create a temporary file for '{}':", path), temp, error);
  }
  if (const int error = write_all(fd, content); error != 0) {
    ::close(fd);
    if (!unnamed) ::unlink(temp.c_str());
    fail("write", temp, error);
  }
  if (flush && ::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    if (!unnamed) ::unlink(temp.c_str());
    fail("flush", temp, error);
  }
  if (unnamed) {
    // rename() needs a name: link the written file in just for it.
    ::unlink(temp.c_str());
    const std::string self = fmt::format("/proc/self/fd/{}", fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      const int error = errno;
      ::close(fd);
      fail("name", temp, error);
    }
  }
  if (::close(fd) != 0) {
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
  // Whole lines or nothing: a write cut short (a full disk) is truncated back, or the next line
  // would be glued to the partial one. The lock keeps another appender from writing between
  // the size taken here and the truncation.
  while (::flock(fd, LOCK_EX) != 0 && errno == EINTR) {
  }
  struct stat before {};
  ::fstat(fd, &before);
  if (const int error = write_all(fd, buffer); error != 0) {
    if (::ftruncate(fd, before.st_size) != 0) {
      // nothing more to do: the error below names the file
    }
    ::close(fd);
    fail("append to", path, error);
  }
  if (::close(fd) != 0) fail("close", path, errno);
}

}  // namespace mlregress::internal
