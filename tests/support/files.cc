#include "tests/support/files.h"

#include <filesystem>
#include <fstream>
#include <sstream>

namespace mlregress::test_support {

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream content;
  content << in.rdbuf();
  return content.str();
}

bool file_exists(const std::string& path) { return std::filesystem::exists(path); }

std::set<std::string> list_dir(const std::string& dir) {
  std::set<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.insert(entry.path().filename().string());
  }
  return names;
}

}  // namespace mlregress::test_support
