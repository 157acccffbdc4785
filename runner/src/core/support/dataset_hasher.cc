#include "support/dataset_hasher.h"

#include <fmt/format.h>
#include <openssl/evp.h>

#include <array>
#include <fstream>
#include <stdexcept>

namespace mlregress {

struct DatasetHasher::State {
  EVP_MD_CTX* context = nullptr;
  ~State() { EVP_MD_CTX_free(context); }
};

DatasetHasher::DatasetHasher() : state_(std::make_unique<State>()) {
  state_->context = EVP_MD_CTX_new();
  if (state_->context == nullptr || EVP_DigestInit_ex(state_->context, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("DatasetHasher: OpenSSL cannot start a SHA-256");
}

DatasetHasher::~DatasetHasher() = default;

void DatasetHasher::add(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(state_->context, data, size) != 1)
    throw std::runtime_error("DatasetHasher: OpenSSL SHA-256 update failed");
  bytes_ += size;
}

DatasetFingerprint DatasetHasher::finish() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(state_->context, digest.data(), &length) != 1)
    throw std::runtime_error("DatasetHasher: OpenSSL SHA-256 final failed");
  std::string hex = "sha256:";
  for (unsigned int i = 0; i < length; ++i) hex += fmt::format("{:02x}", digest[i]);
  return {hex, bytes_};
}

DatasetFingerprint fingerprint_files(const std::vector<std::string>& paths) {
  return internal::fingerprint_files_for("record_dataset", paths);
}

DatasetFingerprint internal::fingerprint_files_for(std::string_view caller,
                                                   const std::vector<std::string>& paths) {
  DatasetHasher hasher;
  std::array<char, 1 << 16> buffer{};
  for (const std::string& path : paths) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read '{}'", caller, path));
    while (in) {
      in.read(buffer.data(), buffer.size());
      hasher.add(buffer.data(), static_cast<std::size_t>(in.gcount()));
    }
    if (in.bad()) throw std::runtime_error(fmt::format("{}: error reading '{}'", caller, path));
  }
  return hasher.finish();
}

}  // namespace mlregress
