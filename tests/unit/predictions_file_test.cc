// The predictions file: what is written is read back exactly, and a damaged file is reported
// with its path and line. Planted: a wrong header, a short or non-numeric row, a negative class,
// an id twice, a file cut short mid-line, an empty or missing file.
#include "storage/predictions_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

TEST(PredictionsFile, AttributesRoundTripAsColumns) {
  TempDir dir;
  const std::string path = dir / "predictions.csv";
  const double nan = std::nan("");
  Predictions written{{42, -7, 3}, {3, 0, 1}, {3, 1, 1}};
  written.attributes = {{"position", {12, 0, 15}}, {"size", {0.25, nan, -3.5}}};
  write_predictions_csv(path, written);
  EXPECT_EQ(read_file(path),
            "id,predicted,target,position,size\n42,3,3,12,0.25\n-7,0,1,0,\n3,1,1,15,-3.5\n");
  const Predictions read = read_predictions_csv(path);
  EXPECT_EQ(read.ids, written.ids);
  EXPECT_EQ(read.predicted, written.predicted);
  EXPECT_EQ(read.target, written.target);
  ASSERT_EQ(read.attributes.size(), 2u);
  EXPECT_EQ(read.attributes[0].name, "position");
  EXPECT_EQ(read.attributes[0].values, (std::vector<double>{12, 0, 15}));
  EXPECT_EQ(read.attributes[1].name, "size");
  EXPECT_EQ(read.attributes[1].values[0], 0.25);
  EXPECT_TRUE(std::isnan(read.attributes[1].values[1]));  // no value: empty, read back as NaN
  EXPECT_EQ(read.attributes[1].values[2], -3.5);

  // The three-column file of earlier runs and baselines still reads, without attributes.
  write_text(path, "id,predicted,target\n1,2,2\n");
  const Predictions old = read_predictions_csv(path);
  EXPECT_EQ(old.ids, (std::vector<std::int64_t>{1}));
  EXPECT_TRUE(old.attributes.empty());
}

TEST(PredictionsFile, BadAttributesAreRejected) {
  TempDir dir;
  Predictions short_values{{1, 2}, {0, 0}, {0, 0}};
  short_values.attributes = {{"length", {3}}};
  EXPECT_THROW(write_predictions_csv(dir / "p.csv", short_values), std::invalid_argument);
  for (const char* name : {"target", "a,b", "", "x y"}) {
    Predictions named{{1}, {0}, {0}};
    named.attributes = {{name, {1}}};
    EXPECT_THROW(render_predictions_csv(named), std::invalid_argument) << name;
  }
  Predictions twice{{1}, {0}, {0}};
  twice.attributes = {{"length", {1}}, {"length", {2}}};
  EXPECT_THROW(render_predictions_csv(twice), std::invalid_argument);

  const std::string path = dir / "predictions.csv";
  const std::string header = "id,predicted,target,length\n";
  EXPECT_EQ(error_reading(dir, header + "1,2,3\n"),
            path +
                ":2: expected 'id,predicted,target' (three integers) and 1 attribute values "
                "(numbers or empty), got '1,2,3'");
  EXPECT_EQ(error_reading(dir, header + "1,2,3,abc\n"),
            path +
                ":2: expected 'id,predicted,target' (three integers) and 1 attribute values "
                "(numbers or empty), got '1,2,3,abc'");
  EXPECT_THAT(error_reading(dir, "id,predicted,target,length,length\n"),
              ::testing::HasSubstr(":1: expected attribute names after 'id,predicted,target'"));
  EXPECT_EQ(error_reading(dir, header + "1,2,3,\n4,0,0,7.5\n"), "");
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
