// Batches for a person to look at (MlTest::record_batch), made from the tensors a model receives:
//
//   record_batch("input", mlregress::image_batch(images, labels,
//                                               {.mean = {0.485, 0.456, 0.406},
//                                                .std = {0.229, 0.224, 0.225}}));
//   record_batch("tokens", mlregress::text_batch(tokenizer.decode(ids), labels));
//   record_batch("rows", mlregress::table_batch(features, {"age", "income"}, labels));
//
// image_batch undoes the normalisation the pipeline declares (x · std + mean, then 0..value_range
// to 0..255), so a batch shows what the pixels were: channels swapped by a BGR read show as
// swapped colours, a batch normalised twice as saturated pixels and a clamped_fraction far above
// 0. Labels stay beside their examples: a shifted label shows as a wrong pair.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <vector>

#include "mlregress/batch_view.h"

namespace mlregress {

struct ImageViewOptions {
  std::int64_t max_images = 16;  ///< the first examples shown
  std::int64_t max_side = 32;    ///< a larger image is shrunk (area average) to fit this side
  /// The per-channel mean and std of the pipeline's Normalize (one value each, or one per
  /// channel, in the tensor's own channel order: B, G, R for a `bgr` tensor). Empty: the batch
  /// is scaled from its own minimum and maximum to 0..255.
  std::vector<double> mean;
  std::vector<double> std;
  /// The un-normalised value drawn as 255: 1 for ToTensor's [0, 1], 255 for raw bytes.
  double value_range = 1.0;
  /// The tensor's channels are in BGR order (an OpenCV read): flipped to RGB to be drawn.
  bool bgr = false;
};

/// A view of `images` [N, C, H, W] (C 1 or 3; any floating or integer dtype, any device) with
/// `labels` (1-D, N values; undefined: none). Throws std::invalid_argument for another shape, a
/// mean/std of the wrong length, a std of 0, or labels of another length.
BatchView image_batch(const torch::Tensor& images, const torch::Tensor& labels = {},
                      const ImageViewOptions& options = {});
/// The same with labels as names (class names), one per image, or none.
BatchView image_batch(const torch::Tensor& images, const std::vector<std::string>& labels,
                      const ImageViewOptions& options = {});

/// A view of decoded text, one entry per example, the first `max_rows`, with `labels` (1-D, one
/// per text; undefined: none).
BatchView text_batch(const std::vector<std::string>& texts, const torch::Tensor& labels = {},
                     std::int64_t max_rows = 16);
BatchView text_batch(const std::vector<std::string>& texts, const std::vector<std::string>& labels,
                     std::int64_t max_rows = 16);

/// A view of tabular rows [N, F] (one column name per feature; empty: "x0", "x1", ...), the first
/// `max_rows`, with `labels` (1-D, N values; undefined: none).
BatchView table_batch(const torch::Tensor& rows, std::vector<std::string> columns = {},
                      const torch::Tensor& labels = {}, std::int64_t max_rows = 32);

}  // namespace mlregress
