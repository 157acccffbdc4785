// Run folders: one per run, never shared, with runs/latest and the ledger kept right. Planted:
// two runs in the same second, a runs path that is a regular file, a stale `latest`.
#include "storage/run_folder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "support/errors.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

namespace fs = std::filesystem;
using mlregress::test_support::list_dir;
using mlregress::test_support::read_file;
using mlregress::test_support::TempDir;

// 2026-12-02 13:45:12.678 UTC.
std::chrono::system_clock::time_point fixed_start() {
  using namespace std::chrono;
  return sys_days{year{2026} / December / 2} + hours{13} + minutes{45} + seconds{12} +
         milliseconds{678};
}

std::string output_error_of(const std::string& root) {
  try {
    create_run_folder(root, fixed_start(), "a1b2c3d");
  } catch (const OutputError& error) {
    return error.what();
  }
  return "";
}

std::vector<nlohmann::json> ledger_lines(const std::string& root) {
  std::vector<nlohmann::json> entries;
  std::istringstream in(read_file(root + "/ledger.jsonl"));
  std::string line;
  while (std::getline(in, line)) entries.push_back(nlohmann::json::parse(line));
  return entries;
}

TEST(CreateRunFolder, NamesTheRunByUtcSecondAndCommit) {
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder folder = create_run_folder(root, fixed_start(), "a1b2c3d");
  EXPECT_EQ(folder.root, root);
  EXPECT_EQ(folder.run_id, "20261202T134512Z-a1b2c3d");
  EXPECT_EQ(folder.path, root + "/20261202T134512Z-a1b2c3d");
  EXPECT_TRUE(fs::is_directory(folder.path));
  EXPECT_TRUE(fs::is_directory(folder.path + "/curves"));
}

TEST(CreateRunFolder, CreatesMissingParents) {
  TempDir dir;
  const std::string root = dir / "a/b/c/runs";
  const RunFolder folder = create_run_folder(root, fixed_start(), "a1b2c3d");
  EXPECT_TRUE(fs::is_directory(folder.path + "/curves"));
}

TEST(CreateRunFolder, RunsInTheSameSecondGetDistinctFolders) {
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder first = create_run_folder(root, fixed_start(), "a1b2c3d");
  const RunFolder second = create_run_folder(root, fixed_start(), "a1b2c3d");
  const RunFolder third = create_run_folder(root, fixed_start(), "a1b2c3d");
  EXPECT_EQ(first.run_id, "20261202T134512Z-a1b2c3d");
  EXPECT_EQ(second.run_id, "20261202T134512Z-a1b2c3d-2");
  EXPECT_EQ(third.run_id, "20261202T134512Z-a1b2c3d-3");
  EXPECT_TRUE(fs::is_directory(second.path + "/curves"));
  EXPECT_EQ(list_dir(root).size(), 3u);
}

TEST(CreateRunFolder, AnExistingRunIsNeverReused) {
  // A file left in the first run must not end up shared with the second.
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder first = create_run_folder(root, fixed_start(), "a1b2c3d");
  std::filesystem::create_directory(first.path + "/curves/keep");
  const RunFolder second = create_run_folder(root, fixed_start(), "a1b2c3d");
  EXPECT_NE(second.path, first.path);
  EXPECT_TRUE(list_dir(second.path + "/curves").empty());
}

TEST(CreateRunFolder, RootThatIsARegularFileThrowsOutputError) {
  TempDir dir;
  const std::string root = dir / "runs";
  { std::ofstream(root) << "not a folder"; }
  const std::string message = output_error_of(root);
  EXPECT_THAT(message, ::testing::HasSubstr("'" + root + "'")) << message;
  EXPECT_EQ(read_file(root), "not a folder");
}

TEST(CreateRunFolder, RootBelowARegularFileThrowsOutputError) {
  TempDir dir;
  { std::ofstream(dir / "file") << "x"; }
  const std::string root = dir / "file/runs";
  const std::string message = output_error_of(root);
  EXPECT_THAT(message, ::testing::HasSubstr(root)) << message;
}

LedgerEntry entry_for(const RunFolder& folder) {
  LedgerEntry entry;
  entry.run_id = folder.run_id;
  return entry;
}

TEST(FinishRunFolder, LatestIsARelativeSymlinkToTheRun) {
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder folder = create_run_folder(root, fixed_start(), "a1b2c3d");
  finish_run_folder(folder, entry_for(folder));
  const std::string latest = root + "/latest";
  ASSERT_TRUE(fs::is_symlink(latest));
  // Relative, so the runs folder can be moved or mounted elsewhere.
  EXPECT_EQ(fs::read_symlink(latest).string(), folder.run_id);
  EXPECT_TRUE(fs::equivalent(latest, folder.path));
}

TEST(FinishRunFolder, AppendsOneParseableLedgerLine) {
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder folder = create_run_folder(root, fixed_start(), "a1b2c3d");
  LedgerEntry entry = entry_for(folder);
  entry.exit_code = ExitCode::kTestFailed;
  entry.filter = "line one\nline two";
  entry.duration_s = 1.5;
  finish_run_folder(folder, entry);
  const std::string text = read_file(root + "/ledger.jsonl");
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 1);  // the embedded newline is escaped
  const auto entries = ledger_lines(root);
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0], nlohmann::json(entry));
  EXPECT_EQ(entries[0].at("exit_status"), "test_failed");
}

TEST(FinishRunFolder, TheNextRunMovesLatestAndAddsALine) {
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder first = create_run_folder(root, fixed_start(), "a1b2c3d");
  finish_run_folder(first, entry_for(first));
  const RunFolder second =
      create_run_folder(root, fixed_start() + std::chrono::seconds(1), "e4f5a6b");
  finish_run_folder(second, entry_for(second));

  EXPECT_EQ(second.run_id, "20261202T134513Z-e4f5a6b");
  EXPECT_EQ(fs::read_symlink(root + "/latest").string(), second.run_id);
  const auto entries = ledger_lines(root);
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].at("run_id"), first.run_id);
  EXPECT_EQ(entries[1].at("run_id"), second.run_id);
  // Only the two runs, the link and the ledger: no temporary link left behind.
  EXPECT_EQ(list_dir(root),
            (std::set<std::string>{first.run_id, second.run_id, "latest", "ledger.jsonl"}));
}

TEST(FinishRunFolder, LatestThatIsARealFolderThrowsAndLeavesNoTempLink) {
  // Planted: someone made runs/latest a directory; it cannot be replaced by a link.
  TempDir dir;
  const std::string root = dir / "runs";
  const RunFolder folder = create_run_folder(root, fixed_start(), "a1b2c3d");
  fs::create_directories(root + "/latest/something");
  std::string message;
  try {
    finish_run_folder(folder, entry_for(folder));
  } catch (const OutputError& error) {
    message = error.what();
  }
  EXPECT_THAT(message, ::testing::HasSubstr(root + "/latest")) << message;
  EXPECT_EQ(list_dir(root), (std::set<std::string>{folder.run_id, "latest"}));
}

}  // namespace
}  // namespace mlregress::internal
