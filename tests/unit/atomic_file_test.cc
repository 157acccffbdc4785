// Files are replaced whole and ledger lines appended whole. Planted failures: a missing folder,
// a rename that cannot happen, a write that runs out of room, concurrent appenders; in each case
// the error must name the path and no temporary file may be left behind.
#include "support/atomic_file.h"

#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "support/errors.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using mlregress::test_support::list_dir;
using mlregress::test_support::read_file;
using mlregress::test_support::TempDir;

// The OutputError message thrown by `call`, or "" when nothing was thrown.
template <typename Call>
std::string output_error_of(Call&& call) {
  try {
    call();
  } catch (const OutputError& error) {
    return error.what();
  }
  return "";
}

TEST(WriteFileAtomically, WritesTheContentExactly) {
  TempDir dir;
  const std::string path = dir / "results.json";
  const std::string content("{\"a\":1}\n\0binary\xFF", 16);
  write_file_atomically(path, content);
  EXPECT_EQ(read_file(path), content);
  EXPECT_EQ(list_dir(dir.path()), (std::set<std::string>{"results.json"}));
}

TEST(WriteFileAtomically, EmptyContentGivesAnEmptyFile) {
  TempDir dir;
  write_file_atomically(dir / "empty", "");
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "empty"));
  EXPECT_EQ(std::filesystem::file_size(dir / "empty"), 0u);
}

TEST(WriteFileAtomically, ReplacesALongerFileWhole) {
  TempDir dir;
  const std::string path = dir / "junit.xml";
  write_file_atomically(path, std::string(10000, 'x'));
  write_file_atomically(path, "short");
  EXPECT_EQ(read_file(path), "short");  // no tail of the old content
  EXPECT_EQ(list_dir(dir.path()), (std::set<std::string>{"junit.xml"}));
}

TEST(WriteFileAtomically, AReaderOfTheOldFileNeverSeesTheNewOne) {
  // Replacing by rename leaves an open reader on the old, complete file; rewriting in place
  // (open with O_TRUNC) would show it a truncated or mixed file.
  TempDir dir;
  const std::string path = dir / "junit.xml";
  write_file_atomically(path, "old content");
  const int reader = ::open(path.c_str(), O_RDONLY);
  ASSERT_GE(reader, 0);
  write_file_atomically(path, "new");
  char buffer[64] = {};
  const ssize_t n = ::pread(reader, buffer, sizeof buffer, 0);
  ::close(reader);
  EXPECT_EQ(std::string(buffer, n > 0 ? static_cast<std::size_t>(n) : 0), "old content");
  EXPECT_EQ(read_file(path), "new");
}

TEST(WriteFileAtomically, MissingDirectoryThrowsOutputErrorNamingThePath) {
  TempDir dir;
  const std::string path = dir / "no/such/dir/junit.xml";
  const std::string message = output_error_of([&] { write_file_atomically(path, "x"); });
  EXPECT_THAT(message, ::testing::HasSubstr(path)) << message;
  EXPECT_THAT(message, ::testing::HasSubstr("No such file or directory")) << message;
  EXPECT_TRUE(list_dir(dir.path()).empty());  // nothing created anywhere
}

TEST(WriteFileAtomically, FailedRenameRemovesTheTempFile) {
  // Planted: the target is a non-empty directory, so the final rename fails after the temporary
  // file was fully written beside it.
  TempDir dir;
  const std::string path = dir / "target";
  std::filesystem::create_directories(path + "/occupied");
  const std::string message = output_error_of([&] { write_file_atomically(path, "content"); });
  EXPECT_THAT(message, ::testing::HasSubstr(path)) << message;
  EXPECT_EQ(list_dir(dir.path()), (std::set<std::string>{"target"}));
}

// Runs `write` in a child process whose file size limit is `limit_bytes`, so that the write
// itself fails (EFBIG), as on a full disk. Returns the child's exit code: 0 when it threw
// OutputError, 1 when it returned normally, 2 for any other exception.
template <typename Write>
int with_file_size_limit(rlim_t limit_bytes, Write&& write) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit{};
    ::getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = limit_bytes;
    ::setrlimit(RLIMIT_FSIZE, &limit);
    try {
      write();
    } catch (const OutputError&) {
      ::_exit(0);
    } catch (...) {
      ::_exit(2);
    }
    ::_exit(1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int write_with_file_size_limit(const std::string& path, const std::string& content,
                               rlim_t limit_bytes) {
  return with_file_size_limit(limit_bytes, [&] { write_file_atomically(path, content); });
}

TEST(WriteFileAtomically, FailedWriteThrowsAndKeepsTheOldFile) {
  TempDir dir;
  const std::string path = dir / "junit.xml";
  write_file_atomically(path, "old");
  EXPECT_EQ(write_with_file_size_limit(path, std::string(100000, 'x'), 4096), 0);
  EXPECT_EQ(read_file(path), "old");
}

// When write() fails (disk full, EFBIG), the half-written "<path>.tmp.<pid>" must not stay
// beside the target.
TEST(WriteFileAtomically, FailedWriteLeavesNoTempFile) {
  TempDir dir;
  const std::string path = dir / "junit.xml";
  write_file_atomically(path, "old");
  ASSERT_EQ(write_with_file_size_limit(path, std::string(100000, 'x'), 4096), 0);
  EXPECT_EQ(list_dir(dir.path()), (std::set<std::string>{"junit.xml"}));
}

// What a writer killed between naming its temporary and renaming it leaves: a hidden file that
// the next writer (under the folder's lock) removes, while a live writer's is left alone.
TEST(RemoveStaleTemporaries, RemovesOnlyTheTemporariesOfWritersThatAreGone) {
  TempDir dir;
  const pid_t gone = ::fork();
  if (gone == 0) ::_exit(0);
  ::waitpid(gone, nullptr, 0);
  const std::string stale = ".suite.toml.tmp." + std::to_string(gone);
  const std::string live = ".suite.toml.tmp." + std::to_string(::getppid());
  for (const std::string& name : {stale, live, std::string("suite.toml"), std::string(".hidden"),
                                  std::string("notes.tmp.1")}) {
    std::ofstream(dir / name) << "x";
  }
  EXPECT_EQ(remove_stale_temporaries(dir.path()), 1);
  EXPECT_EQ(list_dir(dir.path()),
            (std::set<std::string>{live, "suite.toml", ".hidden", "notes.tmp.1"}));
}

TEST(WriteFileAtomically, LeavesNothingButTheFile) {
  TempDir dir;
  write_file_atomically(dir / "suite.toml", "a", Durability::kSurvivesPowerLoss);
  write_file_atomically(dir / "suite.toml", "b");
  EXPECT_EQ(list_dir(dir.path()), (std::set<std::string>{"suite.toml"}));
  EXPECT_EQ(read_file(dir / "suite.toml"), "b");
}

// A full disk mid-line must not leave half a line for the next run's line to be glued to.
TEST(AppendLine, AWriteCutShortLeavesWholeLinesOnly) {
  TempDir dir;
  const std::string path = dir / "ledger.jsonl";
  append_line(path, "{\"run\": 1}");
  const std::string before = read_file(path);
  const std::string long_line(200, 'x');
  ASSERT_EQ(with_file_size_limit(before.size() + 50, [&] { append_line(path, long_line); }), 0);
  EXPECT_EQ(read_file(path), before);
  append_line(path, "{\"run\": 3}");
  EXPECT_EQ(read_file(path), "{\"run\": 1}\n{\"run\": 3}\n");
}

TEST(AppendLine, CreatesTheFileAndAddsANewline) {
  TempDir dir;
  const std::string path = dir / "ledger.jsonl";
  append_line(path, R"({"run":1})");
  EXPECT_EQ(read_file(path), "{\"run\":1}\n");
}

TEST(AppendLine, KeepsWhatIsThereAndAppendsInOrder) {
  TempDir dir;
  const std::string path = dir / "ledger.jsonl";
  write_file_atomically(path, "first\n");
  append_line(path, "second");
  append_line(path, "");
  append_line(path, "third");
  EXPECT_EQ(read_file(path), "first\nsecond\n\nthird\n");
}

TEST(AppendLine, MissingDirectoryThrowsOutputErrorNamingThePath) {
  TempDir dir;
  const std::string path = dir / "missing/ledger.jsonl";
  const std::string message = output_error_of([&] { append_line(path, "x"); });
  EXPECT_THAT(message, ::testing::HasSubstr("'" + path + "'")) << message;
}

TEST(AppendLine, ConcurrentAppendersDoNotInterleave) {
  // Planted: four processes append long lines at once. Writing the line and its newline
  // separately, or through a buffered stream, would splice lines together.
  TempDir dir;
  const std::string path = dir / "ledger.jsonl";
  constexpr int kWriters = 4;
  constexpr int kLines = 200;
  pid_t children[kWriters];
  for (int w = 0; w < kWriters; ++w) {
    children[w] = ::fork();
    if (children[w] == 0) {
      try {
        for (int i = 0; i < kLines; ++i) {
          append_line(path, std::to_string(w) + ":" + std::to_string(i) + ":" +
                                std::string(3000, static_cast<char>('a' + w)));
        }
      } catch (...) {
        ::_exit(1);
      }
      ::_exit(0);
    }
  }
  for (pid_t child : children) {
    int status = 0;
    ::waitpid(child, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  std::istringstream lines(read_file(path));
  std::string line;
  int count[kWriters] = {};
  int total = 0;
  while (std::getline(lines, line)) {
    ++total;
    ASSERT_GE(line.size(), 3000u);
    const int w = line[0] - '0';
    ASSERT_TRUE(w >= 0 && w < kWriters) << line.substr(0, 20);
    EXPECT_EQ(line.substr(line.size() - 3000), std::string(3000, static_cast<char>('a' + w)));
    ++count[w];
  }
  EXPECT_EQ(total, kWriters * kLines);
  for (int w = 0; w < kWriters; ++w) EXPECT_EQ(count[w], kLines);
}

}  // namespace
}  // namespace mlregress::internal
