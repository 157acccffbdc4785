// The one way a gate reads its reference file (a baseline's curve CSV or predictions CSV, stored
// by promote beside the baseline files): a file that is not there yet makes the metric NEW, one
// that cannot be read makes it NOT_COMPARABLE, each with a note that says so.
#pragma once

#include <fmt/format.h>

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

#include "record/metric_comparison.h"
#include "support/errors.h"

namespace mlregress::internal {

/// `read(path)` when the file at `path` exists and reads; otherwise nothing, with `comparison`'s
/// verdict and note set. `what` names the content ("curve", "predictions"), `it` the pronoun
/// the note uses for it ("it", "them"). An empty path (no baselines) counts as absent.
template <typename Read>
auto read_reference_file(const std::string& path, std::string_view what, std::string_view it,
                         Read read, MetricComparison& comparison)
    -> std::optional<decltype(read(path))> {
  std::error_code error;
  if (path.empty() || !std::filesystem::exists(path, error)) {
    comparison.verdict = Verdict::kNew;
    comparison.note =
        fmt::format("no reference {} yet (promote stores {} beside the baseline)", what, it);
    return std::nullopt;
  }
  try {
    return read(path);
  } catch (const Error& damaged) {
    comparison.verdict = Verdict::kNotComparable;
    comparison.note = fmt::format("the reference {} cannot be read: {}", what, damaged.what());
    return std::nullopt;
  }
}

}  // namespace mlregress::internal
