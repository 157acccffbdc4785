// Data versions: a content hash of the data a test measured on, so that a baseline made on other
// data is never silently compared. record_dataset() stores it with the test's metrics; promote
// keeps it in the baseline; a run whose hash differs gets NOT_COMPARABLE for every metric of the
// test, naming the dataset and both hashes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress {

struct DatasetFingerprint {
  std::string sha256;       ///< "sha256:<64 hex digits>"
  std::uint64_t bytes = 0;  ///< how much was hashed
};

/// SHA-256 (OpenSSL) over everything added, in order.
class DatasetHasher {
 public:
  DatasetHasher();
  ~DatasetHasher();
  DatasetHasher(const DatasetHasher&) = delete;
  DatasetHasher& operator=(const DatasetHasher&) = delete;
  void add(const void* data, std::size_t size);
  void add(std::string_view text) { add(text.data(), text.size()); }
  DatasetFingerprint finish();

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::uint64_t bytes_ = 0;
};

/// The contents of the files, in the order given (a file's name is not part of the hash: a
/// renamed copy is the same data). Throws std::runtime_error naming a file that cannot be read.
DatasetFingerprint fingerprint_files(const std::vector<std::string>& paths);

}  // namespace mlregress
