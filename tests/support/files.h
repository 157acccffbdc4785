// Reading back what a test wrote: a file's bytes, whether a path exists, a directory's names.
#pragma once

#include <set>
#include <string>

namespace mlregress::test_support {

/// The whole file, byte for byte; empty when it cannot be opened.
std::string read_file(const std::string& path);

bool file_exists(const std::string& path);

/// The names in a directory (not recursive), sorted.
std::set<std::string> list_dir(const std::string& dir);

}  // namespace mlregress::test_support
