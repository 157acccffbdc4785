#include "seed_ledger_writer.h"

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstring>

#include "output_error.h"
#include "results_json_writer.h"

namespace mlregress::internal {

void SeedLedgerWriter::on_seed_end(const TestResult& test, const SeedRun& seed_run,
                                   const RunResult& /*run*/) {
  nlohmann::json line = seed_run_json(seed_run);
  line["test"] = test.name;
  const std::string text =
      line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  // One write() with O_APPEND: a line is either whole or absent.
  const int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) throw OutputError(fmt::format("cannot open '{}': {}", path_, std::strerror(errno)));
  const ssize_t written = ::write(fd, text.data(), text.size());
  const int write_errno = errno;
  ::close(fd);
  if (written != static_cast<ssize_t>(text.size())) {
    throw OutputError(fmt::format("cannot append to '{}': {}", path_,
                                  written < 0 ? std::strerror(write_errno) : "short write"));
  }
}

}  // namespace mlregress::internal
