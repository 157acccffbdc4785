#include "storage/batch_view_file.h"

#include <fmt/format.h>

#include <optional>

#include "record/json_fields.h"
#include "record/json_number.h"
#include "record/json_text.h"
#include "support/atomic_file.h"
#include "support/base64.h"
#include "support/errors.h"

namespace mlregress::internal {
namespace {

nlohmann::json rows_json(const std::vector<std::vector<double>>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const std::vector<double>& row : rows) {
    nlohmann::json values = nlohmann::json::array();
    for (double v : row) values.push_back(json_number(v));
    out.push_back(std::move(values));
  }
  return out;
}

std::vector<std::vector<double>> rows_from(const nlohmann::json& json) {
  std::vector<std::vector<double>> rows;
  with_field_context("rows", [&] {
    if (!json.is_array()) throw std::invalid_argument("expected an array of rows");
    for (const nlohmann::json& row : json) {
      if (!row.is_array())
        throw std::invalid_argument("expected a row (an array), got " + row.dump());
      std::vector<double> values;
      for (const nlohmann::json& v : row) {
        const std::optional<double> value = read_json_number(v);
        if (!value) throw std::invalid_argument("expected a number, got " + v.dump());
        values.push_back(*value);
      }
      rows.push_back(std::move(values));
    }
  });
  return rows;
}

void read_images(const nlohmann::json& json, BatchView& view) {
  view.height = field<std::int64_t>(json, "height");
  view.width = field<std::int64_t>(json, "width");
  view.channels = field<std::int64_t>(json, "channels");
  const std::string encoded = field<std::string>(json, "pixels_base64");
  std::optional<std::vector<std::uint8_t>> pixels = base64_decode(encoded);
  if (!pixels) throw JsonFieldError("pixels_base64", "not base64");
  view.pixels = std::move(*pixels);
  view.clamped_fraction = optional_number_field(json, "clamped_fraction").value_or(0.0);
}

}  // namespace

std::string batch_file_name(const std::string& test, const std::string& name) {
  return "batches/" + test + "." + name + ".json";
}

nlohmann::json batch_view_to_json(const BatchView& view) {
  nlohmann::json json = {{"kind", batch_kind_name(view.kind)},
                         {"examples", batch_examples(view)},
                         {"labels", view.labels}};
  switch (view.kind) {
    case BatchView::Kind::kImages:
      json["height"] = view.height;
      json["width"] = view.width;
      json["channels"] = view.channels;
      json["clamped_fraction"] = json_number(view.clamped_fraction);
      json["pixels_base64"] = base64_encode(view.pixels.data(), view.pixels.size());
      break;
    case BatchView::Kind::kText:
      json["texts"] = view.texts;
      break;
    case BatchView::Kind::kTable:
      json["columns"] = view.columns;
      json["rows"] = rows_json(view.rows);
      break;
  }
  if (!view.note.empty()) json["note"] = view.note;
  return json;
}

BatchView batch_view_from_json(const nlohmann::json& json) {
  BatchView view;
  view.kind = enum_field<BatchView::Kind>(json, "kind", parse_batch_kind);
  view.labels = field_or<std::vector<std::string>>(json, "labels", {});
  switch (view.kind) {
    case BatchView::Kind::kImages:
      read_images(json, view);
      break;
    case BatchView::Kind::kText:
      view.texts = field<std::vector<std::string>>(json, "texts");
      break;
    case BatchView::Kind::kTable:
      view.columns = field<std::vector<std::string>>(json, "columns");
      view.rows = rows_from(field<nlohmann::json>(json, "rows"));
      break;
  }
  view.note = field_or<std::string>(json, "note", "");
  if (const std::string problem = batch_view_problem(view); !problem.empty()) {
    throw JsonFieldError("kind", fmt::format("{} batch: {}", batch_kind_name(view.kind), problem));
  }
  return view;
}

void write_batch_file(const std::string& path, const BatchView& view) {
  write_file_atomically(path, json_text(batch_view_to_json(view), 1) + "\n");
}

BatchView read_batch_file(const std::string& path) {
  const nlohmann::json json = read_json_file(path);
  try {
    return batch_view_from_json(json);
  } catch (const JsonFieldError& error) {
    throw RunFolderError(
        fmt::format("{}: {} (see runner/docs/results-schema.md)", path, error.what()));
  }
}

}  // namespace mlregress::internal
