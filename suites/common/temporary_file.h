// A file name of this process under the system's temporary folder, removed when it goes: for
// the files a test writes and reads back (checkpoints, tokenizer models).
#pragma once

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

namespace mlregress::examples {

struct TemporaryFile {
  std::string path;
  explicit TemporaryFile(const std::string& name)
      : path((std::filesystem::temp_directory_path() /
              ("mlregress-" + std::to_string(::getpid()) + "-" + name))
                 .string()) {}
  ~TemporaryFile() { std::remove(path.c_str()); }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
};

}  // namespace mlregress::examples
