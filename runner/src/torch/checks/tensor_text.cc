#include "tensor_text.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace mlregress::checks::detail {

std::string shape_text(c10::IntArrayRef sizes) {
  return fmt::format("[{}]", fmt::join(sizes.begin(), sizes.end(), ", "));
}

std::vector<std::int64_t> unravel_index(c10::IntArrayRef sizes, std::int64_t flat) {
  std::vector<std::int64_t> index(sizes.size(), 0);
  for (std::size_t d = sizes.size(); d-- > 0;) {
    const std::int64_t size = sizes[d];
    if (size == 0) break;
    index[d] = flat % size;
    flat /= size;
  }
  return index;
}

std::string index_text(const std::vector<std::int64_t>& index) {
  return fmt::format("[{}]", fmt::join(index, ", "));
}

std::string name_list(const std::vector<std::string>& names) {
  if (names.empty()) return "none";
  return fmt::format("[{}]", fmt::join(names, ", "));
}

}  // namespace mlregress::checks::detail
