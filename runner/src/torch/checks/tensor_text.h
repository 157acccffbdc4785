// How the checks write tensors into failure messages: shapes as [8, 1, 16, 16], flat offsets
// as multi-dimensional indices. Private to the checks; one place so every message agrees.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

namespace mlregress::checks::detail {

/// "[8, 1, 16, 16]"; "[]" for a scalar.
std::string shape_text(c10::IntArrayRef sizes);

/// The multi-dimensional index of element `flat` of a contiguous tensor of `sizes`.
std::vector<std::int64_t> unravel_index(c10::IntArrayRef sizes, std::int64_t flat);

/// "[2, 0, 5]" for an index as returned by unravel_index.
std::string index_text(const std::vector<std::int64_t>& index);

/// "[a, b, c]" for a list of names, or "none".
std::string name_list(const std::vector<std::string>& names);

}  // namespace mlregress::checks::detail
