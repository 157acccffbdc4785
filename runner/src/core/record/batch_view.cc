#include "mlregress/batch_view.h"

#include <fmt/format.h>

#include <cmath>

namespace mlregress {
namespace {

std::string images_problem(const BatchView& view) {
  if (view.channels != 1 && view.channels != 3) {
    return fmt::format("images have 1 (grey) or 3 (RGB) channels, not {}", view.channels);
  }
  if (view.height <= 0 || view.width <= 0 || view.height > kMaxBatchImageSide ||
      view.width > kMaxBatchImageSide) {
    return fmt::format("an image of {}x{}: each side is 1 to {} pixels", view.height, view.width,
                       kMaxBatchImageSide);
  }
  if (view.pixels.size() > static_cast<std::size_t>(kMaxBatchPixelBytes)) {
    return fmt::format(
        "{} pixel values, more than {} (fewer or smaller images keep the report "
        "small)",
        view.pixels.size(), kMaxBatchPixelBytes);
  }
  const auto per_image = static_cast<std::size_t>(view.height * view.width * view.channels);
  if (view.pixels.empty() || view.pixels.size() % per_image != 0) {
    return fmt::format("{} pixel values are not whole images of {}x{}x{}", view.pixels.size(),
                       view.height, view.width, view.channels);
  }
  if (!std::isfinite(view.clamped_fraction) || view.clamped_fraction < 0.0 ||
      view.clamped_fraction > 1.0) {
    return fmt::format("clamped_fraction {} is not a share between 0 and 1", view.clamped_fraction);
  }
  return "";
}

std::string table_problem(const BatchView& view) {
  if (view.columns.empty()) return "a table needs at least one column";
  for (std::size_t i = 0; i < view.rows.size(); ++i) {
    if (view.rows[i].size() != view.columns.size()) {
      return fmt::format("row {} has {} values for {} columns", i, view.rows[i].size(),
                         view.columns.size());
    }
  }
  return "";
}

}  // namespace

std::string_view batch_kind_name(BatchView::Kind kind) {
  switch (kind) {
    case BatchView::Kind::kImages:
      return "images";
    case BatchView::Kind::kText:
      return "text";
    case BatchView::Kind::kTable:
      return "table";
  }
  return "images";
}

std::optional<BatchView::Kind> parse_batch_kind(std::string_view name) {
  for (BatchView::Kind kind :
       {BatchView::Kind::kImages, BatchView::Kind::kText, BatchView::Kind::kTable}) {
    if (batch_kind_name(kind) == name) return kind;
  }
  return std::nullopt;
}

std::int64_t batch_examples(const BatchView& view) {
  switch (view.kind) {
    case BatchView::Kind::kImages: {
      const std::int64_t per_image = view.height * view.width * view.channels;
      return per_image > 0 ? static_cast<std::int64_t>(view.pixels.size()) / per_image : 0;
    }
    case BatchView::Kind::kText:
      return static_cast<std::int64_t>(view.texts.size());
    case BatchView::Kind::kTable:
      return static_cast<std::int64_t>(view.rows.size());
  }
  return 0;
}

std::string batch_view_problem(const BatchView& view) {
  std::string problem;
  if (view.kind == BatchView::Kind::kImages) problem = images_problem(view);
  if (view.kind == BatchView::Kind::kTable) problem = table_problem(view);
  if (!problem.empty()) return problem;
  const std::int64_t examples = batch_examples(view);
  if (examples == 0) return "the batch has no examples";
  if (examples > kMaxBatchExamples) {
    return fmt::format("{} examples; a view holds at most {} (show a sample)", examples,
                       kMaxBatchExamples);
  }
  if (!view.labels.empty() && static_cast<std::int64_t>(view.labels.size()) != examples) {
    return fmt::format("{} labels for {} examples (one label per example, or none)",
                       view.labels.size(), examples);
  }
  return "";
}

}  // namespace mlregress
