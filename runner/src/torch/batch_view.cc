#include "mlregress/torch/batch_view.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <stdexcept>

namespace mlregress {
namespace {

std::string shape_of(const torch::Tensor& t) { return fmt::format("{}", t.sizes().vec()); }

[[noreturn]] void refuse(std::string_view what, const std::string& problem) {
  throw std::invalid_argument(fmt::format("{}: {}", what, problem));
}

// One text per label of a 1-D tensor of `examples` values; none for an undefined tensor.
std::vector<std::string> label_texts(std::string_view what, const torch::Tensor& labels,
                                     std::int64_t examples) {
  if (!labels.defined()) return {};
  if (labels.dim() != 1 || labels.size(0) != examples) {
    refuse(what, fmt::format("labels must be 1-D with one value per example ({}), got {}", examples,
                             shape_of(labels)));
  }
  std::vector<std::string> texts;
  const bool floating = labels.is_floating_point();
  const torch::Tensor values =
      labels.detach().to(torch::kCPU, floating ? torch::kDouble : torch::kLong).contiguous();
  for (std::int64_t i = 0; i < examples; ++i) {
    texts.push_back(floating ? fmt::format("{}", values[i].item<double>())
                             : fmt::format("{}", values[i].item<std::int64_t>()));
  }
  return texts;
}

// The first `keep` entries (labels beside the examples kept).
std::vector<std::string> first(std::vector<std::string> values, std::int64_t keep) {
  if (static_cast<std::int64_t>(values.size()) > keep)
    values.resize(static_cast<std::size_t>(keep));
  return values;
}

// The pipeline's per-channel constants as [1, C, 1, 1].
torch::Tensor per_channel(const std::vector<double>& values, std::int64_t channels,
                          const char* name) {
  const auto n = static_cast<std::int64_t>(values.size());
  if (n != 1 && n != channels) {
    refuse("image_batch", fmt::format("{} has {} values for {} channels (one, or one per channel)",
                                      name, n, channels));
  }
  return torch::tensor(values, torch::kDouble).view({1, n, 1, 1});
}

// The images in 0..255 before clamping, and how the view got there.
torch::Tensor to_byte_scale(const torch::Tensor& images, const ImageViewOptions& options,
                            std::vector<std::string>& notes) {
  const std::int64_t channels = images.size(1);
  if (!options.mean.empty() || !options.std.empty()) {
    const torch::Tensor mean = per_channel(options.mean, channels, "mean");
    const torch::Tensor std = per_channel(options.std, channels, "std");
    if ((std == 0).any().item<bool>()) refuse("image_batch", "a std of 0");
    if (!(options.value_range > 0.0)) refuse("image_batch", "value_range must be above 0");
    notes.push_back(fmt::format("un-normalised with mean {} std {}", options.mean, options.std));
    return (images * std + mean) * (255.0 / options.value_range);
  }
  if (images.scalar_type() == torch::kByte) return images;
  const double low = images.min().item<double>();
  const double high = images.max().item<double>();
  notes.push_back(fmt::format("scaled from the batch's range [{:.4g}, {:.4g}]", low, high));
  if (!(high > low)) return torch::zeros_like(images);
  return (images - low) * (255.0 / (high - low));
}

// Shrinks images whose longer side exceeds max_side, keeping the aspect ratio.
torch::Tensor shrink(const torch::Tensor& images, std::int64_t max_side,
                     std::vector<std::string>& notes) {
  const std::int64_t h = images.size(2), w = images.size(3);
  const std::int64_t side = std::max(h, w);
  if (max_side <= 0 || side <= max_side) return images;
  const std::int64_t nh = std::max<std::int64_t>(1, h * max_side / side);
  const std::int64_t nw = std::max<std::int64_t>(1, w * max_side / side);
  notes.push_back(fmt::format("shrunk from {}x{}", h, w));
  return torch::adaptive_avg_pool2d(images, {nh, nw});
}

BatchView images_view(const torch::Tensor& images, std::vector<std::string> labels,
                      const ImageViewOptions& options) {
  if (images.dim() != 4 || (images.size(1) != 1 && images.size(1) != 3) || images.size(0) == 0) {
    refuse("image_batch",
           fmt::format("images must be [N, C, H, W] with N >= 1 and C 1 or 3, got {}",
                       shape_of(images)));
  }
  const std::int64_t total = images.size(0);
  const std::int64_t shown = std::min(total, std::max<std::int64_t>(1, options.max_images));
  std::vector<std::string> notes;
  torch::Tensor x = images.detach().to(torch::kCPU);
  // Un-normalised first: mean and std are in the tensor's own channel order (the pipeline's
  // Normalize), which for a BGR tensor is B, G, R.
  x = to_byte_scale(x.scalar_type() == torch::kByte ? x : x.to(torch::kDouble), options, notes)
          .to(torch::kDouble);
  if (options.bgr && x.size(1) == 3) {
    x = x.flip(1);
    notes.push_back("BGR drawn as RGB");
  }
  BatchView view;
  view.kind = BatchView::Kind::kImages;
  view.clamped_fraction = ((x < -0.5) | (x > 255.5)).to(torch::kDouble).mean().item<double>();
  x = shrink(x.slice(0, 0, shown), options.max_side, notes);
  const torch::Tensor bytes =
      x.round().clamp(0, 255).to(torch::kByte).permute({0, 2, 3, 1}).contiguous();
  view.height = bytes.size(1);
  view.width = bytes.size(2);
  view.channels = bytes.size(3);
  const std::uint8_t* data = bytes.data_ptr<std::uint8_t>();
  view.pixels.assign(data, data + bytes.numel());
  view.labels = first(std::move(labels), shown);
  if (shown < total) notes.push_back(fmt::format("the first {} of {} examples", shown, total));
  view.note = fmt::format("{}", fmt::join(notes, "; "));
  return view;
}

}  // namespace

BatchView image_batch(const torch::Tensor& images, const torch::Tensor& labels,
                      const ImageViewOptions& options) {
  const std::int64_t examples = images.dim() > 0 ? images.size(0) : 0;
  return images_view(images, label_texts("image_batch", labels, examples), options);
}

BatchView image_batch(const torch::Tensor& images, const std::vector<std::string>& labels,
                      const ImageViewOptions& options) {
  const std::int64_t examples = images.dim() > 0 ? images.size(0) : 0;
  if (!labels.empty() && static_cast<std::int64_t>(labels.size()) != examples) {
    refuse("image_batch", fmt::format("{} labels for {} images", labels.size(), examples));
  }
  return images_view(images, labels, options);
}

BatchView text_batch(const std::vector<std::string>& texts, const std::vector<std::string>& labels,
                     std::int64_t max_rows) {
  if (!labels.empty() && labels.size() != texts.size()) {
    refuse("text_batch", fmt::format("{} labels for {} texts", labels.size(), texts.size()));
  }
  const std::int64_t shown =
      std::min(static_cast<std::int64_t>(texts.size()), std::max<std::int64_t>(1, max_rows));
  BatchView view;
  view.kind = BatchView::Kind::kText;
  view.texts = first(texts, shown);
  view.labels = first(labels, shown);
  if (shown < static_cast<std::int64_t>(texts.size()))
    view.note = fmt::format("the first {} of {} examples", shown, texts.size());
  return view;
}

BatchView text_batch(const std::vector<std::string>& texts, const torch::Tensor& labels,
                     std::int64_t max_rows) {
  return text_batch(
      texts, label_texts("text_batch", labels, static_cast<std::int64_t>(texts.size())), max_rows);
}

BatchView table_batch(const torch::Tensor& rows, std::vector<std::string> columns,
                      const torch::Tensor& labels, std::int64_t max_rows) {
  if (rows.dim() != 2 || rows.size(0) == 0 || rows.size(1) == 0) {
    refuse("table_batch",
           fmt::format("rows must be [N, F] with N, F >= 1, got {}", shape_of(rows)));
  }
  const std::int64_t total = rows.size(0), features = rows.size(1);
  if (columns.empty()) {
    for (std::int64_t f = 0; f < features; ++f) columns.push_back(fmt::format("x{}", f));
  }
  if (static_cast<std::int64_t>(columns.size()) != features) {
    refuse("table_batch", fmt::format("{} column names for {} features", columns.size(), features));
  }
  const std::int64_t shown = std::min(total, std::max<std::int64_t>(1, max_rows));
  BatchView view;
  view.kind = BatchView::Kind::kTable;
  view.columns = std::move(columns);
  view.labels = first(label_texts("table_batch", labels, total), shown);
  const torch::Tensor values =
      rows.detach().slice(0, 0, shown).to(torch::kCPU, torch::kDouble).contiguous();
  const double* data = values.data_ptr<double>();
  for (std::int64_t r = 0; r < shown; ++r)
    view.rows.emplace_back(data + r * features, data + (r + 1) * features);
  if (shown < total) view.note = fmt::format("the first {} of {} examples", shown, total);
  return view;
}

}  // namespace mlregress
