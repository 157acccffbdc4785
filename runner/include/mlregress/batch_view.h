// A batch as the model receives it, kept for a person to look at: the seeds' first debugging step
// is "look at the batch right before it enters the model". A test records one with
// MlTest::record_batch; the run folder keeps it (batches/<test>.<name>.json) and report.html
// draws it: images as a grid, decoded text as rows, tabular rows as a table, each example beside
// its label. mlregress/torch/batch_view.h makes one from tensors (image_batch undoes the
// normalisation a pipeline applied; text_batch; table_batch).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress {

struct BatchView {
  enum class Kind { kImages, kText, kTable };
  Kind kind = Kind::kImages;
  /// One label per example, beside it (its class, its target); empty when there are none.
  std::vector<std::string> labels;

  // Images: N pictures of height x width with 1 (grey) or 3 (RGB) channels, 8-bit, row-major
  // N·H·W·C; N = pixels.size() / (height · width · channels).
  std::int64_t height = 0;
  std::int64_t width = 0;
  std::int64_t channels = 0;
  std::vector<std::uint8_t> pixels;
  /// The share of values that fell outside [0, 255] when the images were made and were clamped:
  /// a pipeline that normalised twice shows here (and as saturated pixels).
  double clamped_fraction = 0.0;

  // Text: one decoded example per entry.
  std::vector<std::string> texts;

  // Table: one row per example, one value per column.
  std::vector<std::string> columns;
  std::vector<std::vector<double>> rows;

  /// How the view was made ("un-normalised with mean … std …; 16 of 64 examples"), for the
  /// report; may be empty.
  std::string note;

  friend bool operator==(const BatchView&, const BatchView&) = default;
};

/// "images", "text", "table".
std::string_view batch_kind_name(BatchView::Kind kind);
std::optional<BatchView::Kind> parse_batch_kind(std::string_view name);

/// The number of examples the view shows (images, texts or rows).
std::int64_t batch_examples(const BatchView& view);

/// The most examples, and the largest image side, a view may hold (a report page stays small).
inline constexpr std::int64_t kMaxBatchExamples = 1024;
inline constexpr std::int64_t kMaxBatchImageSide = 512;
/// The most pixel values (bytes) of an images view: 4 MiB, about 5.3 MiB of base64 in the batch
/// file and a little more as inline BMP in report.html (e.g. 85 RGB images of 128x128).
inline constexpr std::int64_t kMaxBatchPixelBytes = 4 * 1024 * 1024;

/// Why the view cannot be stored as it is (sizes that disagree, a label count that is not the
/// example count, too many examples), or "" when it can.
std::string batch_view_problem(const BatchView& view);

}  // namespace mlregress
