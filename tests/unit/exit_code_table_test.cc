// The exit codes are stated in three places that users read: the ExitCode enum, `--help` (its
// footer is generated from exit_code_descriptions()) and the README's table. The README is text,
// so this test reads it and holds it to the table.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include "mlregress/exit_code.h"

namespace mlregress {
namespace {

struct ReadmeRow {
  int code;
  std::string name, meaning;
  bool operator==(const ReadmeRow&) const = default;
};

std::vector<ReadmeRow> readme_rows() {
  std::ifstream in(std::string(MLREGRESS_SOURCE_DIR) + "/README.md");
  const std::regex row(R"re(^\| (\d+) \| `([a-z_]+)` \| (.*) \|$)re");
  std::vector<ReadmeRow> rows;
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (std::regex_match(line, m, row)) rows.push_back({std::stoi(m[1]), m[2], m[3]});
  }
  return rows;
}

TEST(ExitCodeTable, TheReadmeListsEveryCodeWithItsNameAndMeaning) {
  std::vector<ReadmeRow> expected;
  for (const ExitCodeDescription& d : exit_code_descriptions()) {
    expected.push_back({static_cast<int>(d.code), d.name, d.meaning});
  }
  EXPECT_EQ(readme_rows(), expected);
}

TEST(ExitCodeTable, NamesComeFromTheTable) {
  for (const ExitCodeDescription& d : exit_code_descriptions()) {
    EXPECT_STREQ(exit_code_name(d.code), d.name);
  }
  EXPECT_STREQ(exit_code_name(static_cast<ExitCode>(99)), "unknown");
}

TEST(ExitCodeTable, CodesAreInNumericOrderAndUnique) {
  int previous = -1;
  for (const ExitCodeDescription& d : exit_code_descriptions()) {
    EXPECT_GT(static_cast<int>(d.code), previous) << d.name;
    previous = static_cast<int>(d.code);
  }
}

}  // namespace
}  // namespace mlregress
