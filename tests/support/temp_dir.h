// A fresh directory per test, removed with everything in it when the test ends.
#pragma once

#include <string>

namespace mlregress::test_support {

/// A fresh directory under $TMPDIR (or /tmp), removed with everything in it on destruction.
/// Throws std::runtime_error when no directory can be created.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::string& path() const { return path_; }
  /// `dir / "runs"` is the path of "runs" inside the directory.
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

}  // namespace mlregress::test_support
