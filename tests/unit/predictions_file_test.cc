// The predictions file: what is written is read back exactly, and a damaged file is reported
// with its path and line. Planted: a wrong header, a short or non-numeric row, a negative class,
// an id twice, a file cut short mid-line, an empty or missing file.
#include "storage/predictions_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "support/errors.h"
#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::internal {
namespace {

using mlregress::test_support::list_dir;
using mlregress::test_support::read_file;
using mlregress::test_support::TempDir;

void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// The RunFolderError message for reading `text`, or "" when it was read.
std::string error_reading(const TempDir& dir, const std::string& text) {
  const std::string path = dir / "predictions.csv";
  write_text(path, text);
  try {
    read_predictions_csv(path);
  } catch (const RunFolderError& error) {
    return error.what();
  }
  return "";
}

TEST(PredictionsFile, RoundTrip) {
  TempDir dir;
  const Predictions written{{42, -7, 9000000000LL, 0}, {3, 0, 12, 1}, {3, 1, 12, 0}};
  const std::string path = dir / "predictions.csv";
  write_predictions_csv(path, written);
  EXPECT_EQ(read_file(path), "id,predicted,target\n42,3,3\n-7,0,1\n9000000000,12,12\n0,1,0\n");
  EXPECT_EQ(list_dir(dir.path()), (std::set<std::string>{"predictions.csv"}));  // no temporary
  const Predictions read = read_predictions_csv(path);
  EXPECT_EQ(read.ids, written.ids);
  EXPECT_EQ(read.predicted, written.predicted);
  EXPECT_EQ(read.target, written.target);

  write_predictions_csv(path, Predictions{});
  EXPECT_EQ(read_file(path), "id,predicted,target\n");
  EXPECT_TRUE(read_predictions_csv(path).ids.empty());
}

TEST(PredictionsFile, RejectsMismatchedLengthsOnWrite) {
  TempDir dir;
  EXPECT_THROW(write_predictions_csv(dir / "p.csv", Predictions{{1, 2}, {0}, {0, 1}}),
               std::invalid_argument);
}

TEST(PredictionsFile, DamagedFilesNameTheLine) {
  TempDir dir;
  const std::string path = dir / "predictions.csv";
  const std::string header = "id,predicted,target\n";
  const std::string not_a_row = ": expected 'id,predicted,target' (three integers), got ";
  // Each damaged text, and the error it gets after the file's path.
  const std::vector<std::pair<std::string, std::string>> damaged = {
      {"id,target,predicted\n1,2,3\n",
       ":1: expected the header 'id,predicted,target', got 'id,target,predicted'"},
      {header + "1,2,3\n4,5\n", ":3" + not_a_row + "'4,5'"},
      {header + "1,2,3,4\n", ":2" + not_a_row + "'1,2,3,4'"},
      {header + "1,2.0,3\n", ":2" + not_a_row + "'1,2.0,3'"},
      {header + "1,2,3\r\n", ":2" + not_a_row + "'1,2,3\r'"},
      {header + "\n", ":2" + not_a_row + "''"},
      {header + "1,-2,3\n", ":2: expected class indices >= 0, got predicted -2 and target 3"},
      {header + "1,2,3\n5,0,0\n1,2,3\n", ":4: expected a new id, got id 1 again (first on line 2)"},
      {header + "1,2,3\n4,5,1",
       ":3: expected the line to end with a newline (the file is cut short), got '4,5,1'"},
      {"", ": the predictions file is empty"}};
  for (const auto& [text, error] : damaged) {
    EXPECT_EQ(error_reading(dir, text), path + error);
  }
  EXPECT_EQ(error_reading(dir, header + "7,1,1\n"), "");
}

TEST(PredictionsFile, MissingFile) {
  TempDir dir;
  try {
    read_predictions_csv(dir / "absent.csv");
    FAIL() << "read a missing file";
  } catch (const RunFolderError& error) {
    EXPECT_EQ(std::string(error.what()), dir / "absent.csv" + ": cannot read the predictions file");
    EXPECT_EQ(error.exit_code(), ExitCode::kRunFolderError);
  }
}

}  // namespace
}  // namespace mlregress::internal
