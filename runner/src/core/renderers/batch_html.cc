#include "renderers/batch_html.h"

#include <fmt/format.h>

#include <algorithm>

#include "renderers/bmp_image.h"
#include "support/number_format.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

// The label of example i, escaped, or "" when the batch has none.
std::string label_of(const BatchView& view, std::size_t i) {
  return i < view.labels.size() ? escape_markup(view.labels[i]) : "";
}

// Small images drawn larger, pixel for pixel: about 64 CSS pixels on the longer side.
std::int64_t display_scale(const BatchView& view) {
  return std::max<std::int64_t>(1, 64 / std::max(view.height, view.width));
}

std::string images_html(const BatchView& view) {
  const std::int64_t scale = display_scale(view);
  const auto per_image = static_cast<std::size_t>(view.height * view.width * view.channels);
  std::string out = "<div class=\"batch-grid\" style=\"display:flex;flex-wrap:wrap;gap:6px\">";
  for (std::int64_t i = 0; i < batch_examples(view); ++i) {
    const std::size_t index = static_cast<std::size_t>(i);
    out += fmt::format(
        "<figure style=\"margin:0;text-align:center\"><img src=\"{}\" width=\"{}\" height=\"{}\" "
        "alt=\"example {}\" style=\"image-rendering:pixelated;border:1px solid #ddd\">"
        "<figcaption>{}</figcaption></figure>",
        bmp_data_uri(view.pixels.data() + index * per_image, view.height, view.width,
                     view.channels),
        view.width * scale, view.height * scale, i, label_of(view, index));
  }
  return out + "</div>";
}

std::string header_row(const BatchView& view, const std::string& cells) {
  return fmt::format("<tr><th>#</th>{}{}</tr>", view.labels.empty() ? "" : "<th>label</th>", cells);
}

std::string row_start(const BatchView& view, std::size_t i) {
  return fmt::format("<tr><td class=\"num\">{}</td>{}", i,
                     view.labels.empty() ? "" : "<td>" + label_of(view, i) + "</td>");
}

std::string text_html(const BatchView& view) {
  std::string out = "<table class=\"batch-text\">" + header_row(view, "<th>text</th>");
  for (std::size_t i = 0; i < view.texts.size(); ++i) {
    out += row_start(view, i) + "<td><pre style=\"margin:0\">" + escape_markup(view.texts[i]) +
           "</pre></td></tr>";
  }
  return out + "</table>";
}

std::string table_html(const BatchView& view) {
  std::string columns;
  for (const std::string& c : view.columns) columns += "<th>" + escape_markup(c) + "</th>";
  std::string out = "<table class=\"batch-table\">" + header_row(view, columns);
  for (std::size_t i = 0; i < view.rows.size(); ++i) {
    out += row_start(view, i);
    for (double v : view.rows[i]) {
      out += "<td class=\"num\">" + escape_markup(format_value(v)) + "</td>";
    }
    out += "</tr>";
  }
  return out + "</table>";
}

std::string caption(const RecordedBatch& batch, const BatchView& view) {
  std::string text = fmt::format("{}: {} {} example{}", batch.name, batch_kind_name(view.kind),
                                 batch_examples(view), batch_examples(view) == 1 ? "" : "s");
  if (view.labels.empty()) text += ", no labels";
  if (view.kind == BatchView::Kind::kImages) {
    text +=
        fmt::format(" · {}x{}, {}", view.height, view.width, view.channels == 3 ? "RGB" : "grey");
    if (view.clamped_fraction > 0.0) {
      text +=
          fmt::format(" · {:.1f}% of values clamped to [0, 255]", 100.0 * view.clamped_fraction);
    }
  }
  if (!view.note.empty()) text += " · " + view.note;
  return escape_markup(text);
}

std::string batch_html(const RecordedBatch& batch) {
  if (!batch.data) {
    return fmt::format(
        "<p class=\"batch-missing\">{}</p>",
        escape_markup(fmt::format("{}: not shown ({})", batch.name,
                                  batch.problem.empty() ? batch.file : batch.problem)));
  }
  const BatchView& view = *batch.data;
  const std::string body = view.kind == BatchView::Kind::kImages ? images_html(view)
                           : view.kind == BatchView::Kind::kText ? text_html(view)
                                                                 : table_html(view);
  return fmt::format(
      "<figure class=\"batch\" data-batch=\"{}\" data-kind=\"{}\"><figcaption>{}</figcaption>{}"
      "</figure>",
      escape_markup(batch.name), batch_kind_name(view.kind), caption(batch, view), body);
}

}  // namespace

std::string batches_html(const TestResult& test) {
  if (test.batches.empty()) return "";
  std::string out = "<section class=\"batches\"><h3>Batches</h3>";
  for (const RecordedBatch& batch : test.batches) out += batch_html(batch);
  return out + "</section>";
}

}  // namespace mlregress::internal
