#include "golden_files.h"

#include <cstdlib>
#include <fstream>
#include <regex>

#include "process.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using test_support::file_exists;
using test_support::read_file;

void replace_all(std::string& text, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (std::size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
}

}  // namespace

std::string normalise_volatile(std::string text, const std::string& temp_dir) {
  replace_all(text, temp_dir, "<tmp>");
  replace_all(text, MLREGRESS_SOURCE_DIR, "<src>");
  const std::pair<const char*, const char*> rules[] = {
      {R"re(\d{8}T\d{6}Z-([0-9a-f]{7}|unknown)(-\d+)?)re", "<run-id>"},
      {R"re(\(\d+ ms)re", "(N ms"},
      {R"re(time="[0-9.]+")re", "time=\"T\""},
      {R"re(timestamp="[^"]*")re", "timestamp=\"TS\""},
      {R"re(hostname="[^"]*")re", "hostname=\"HOST\""},
      {R"re((name="git\.commit" value=)"[^"]*")re", "$1\"COMMIT\""},
      {R"re((name="git\.dirty" value=)"[^"]*")re", "$1\"DIRTY\""},
      {R"re( in \d+\.\d{3} s)re", " in T s"},
      {R"re("(duration_s|started_at|finished_at)": [^,\n]+)re", "\"$1\": \"<volatile>\""},
      // The profile id hashes the CPU model and the framework: the machine decides it.
      {R"re("environment_profile": "[^"]*")re", "\"environment_profile\": \"<profile>\""},
  };
  for (const auto& [pattern, replacement] : rules) {
    text = std::regex_replace(text, std::regex(pattern), replacement);
  }
  return text;
}

::testing::AssertionResult matches_golden(const std::string& actual,
                                          const std::string& golden_name) {
  const std::string path = std::string(MLREGRESS_GOLDEN_DIR) + "/" + golden_name;
  if (std::getenv("MLREGRESS_UPDATE_GOLDEN") != nullptr) {
    std::ofstream(path, std::ios::binary) << actual;
    return ::testing::AssertionSuccess() << "updated " << path;
  }
  if (!file_exists(path)) {
    return ::testing::AssertionFailure()
           << "no golden file " << path << "; run with MLREGRESS_UPDATE_GOLDEN=1 to create it";
  }
  const std::string expected = read_file(path);
  if (expected == actual) return ::testing::AssertionSuccess();
  std::size_t line = 1, at = 0;
  while (at < expected.size() && at < actual.size() && expected[at] == actual[at]) {
    line += expected[at] == '\n';
    ++at;
  }
  auto line_at = [&](const std::string& text) {
    const std::size_t begin = text.rfind('\n', at == 0 ? 0 : at - 1);
    const std::size_t start = begin == std::string::npos ? 0 : begin + 1;
    return text.substr(start, text.find('\n', start) - start);
  };
  return ::testing::AssertionFailure()
         << golden_name << " differs at line " << line << ":\n  expected: " << line_at(expected)
         << "\n  actual:   " << line_at(actual)
         << "\n(MLREGRESS_UPDATE_GOLDEN=1 rewrites the golden file; review the diff)";
}

}  // namespace mlregress::e2e
