// record_dataset() for tensors: the fingerprint of the data itself (dtype, shape and values of
// each tensor, in order), e.g.
//   record_dataset("eval", mlregress::fingerprint_tensors({eval.images, eval.labels}));
#pragma once

#include <torch/torch.h>

#include <string>
#include <vector>

#include "mlregress/dataset.h"

namespace mlregress {

inline DatasetFingerprint fingerprint_tensors(const std::vector<torch::Tensor>& tensors) {
  DatasetHasher hasher;
  for (const torch::Tensor& tensor : tensors) {
    // The shape and dtype too: the same bytes as [2, 3] or [3, 2] are other data.
    std::string header = std::string(c10::toString(tensor.scalar_type())) + "[";
    for (const std::int64_t size : tensor.sizes()) header += std::to_string(size) + ",";
    hasher.add(header + "]");
    const torch::Tensor values = tensor.detach().to(torch::kCPU).contiguous();
    hasher.add(values.data_ptr(), values.numel() * values.element_size());
  }
  return hasher.finish();
}

}  // namespace mlregress
