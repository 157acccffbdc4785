#include "analysis/operator_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace mlregress::internal {

OperatorDiff diff_operators(const Breakdown& baseline, const Breakdown& observed,
                            std::size_t listed) {
  OperatorDiff diff;
  diff.unit = observed.unit;
  if (baseline.unit != observed.unit) {
    diff.missing =
        fmt::format("the baseline's breakdown counts {}, this run's {}: promote to store this one",
                    breakdown_unit_name(baseline.unit), breakdown_unit_name(observed.unit));
    return diff;
  }
  // Every operator either side ran; one the other side lacks counts as 0 there.
  std::vector<OperatorChange> changes;
  auto base = baseline.by_operator.begin();
  auto seen = observed.by_operator.begin();
  while (base != baseline.by_operator.end() || seen != observed.by_operator.end()) {
    OperatorChange change;
    if (seen == observed.by_operator.end() ||
        (base != baseline.by_operator.end() && base->first < seen->first)) {
      change = {base->first, base->second, 0};
      ++base;
    } else if (base == baseline.by_operator.end() || seen->first < base->first) {
      change = {seen->first, 0, seen->second};
      ++seen;
    } else {
      change = {seen->first, base->second, seen->second};
      ++base;
      ++seen;
    }
    if (change.delta() != 0) changes.push_back(std::move(change));
  }
  // Shares in doubles: a sum of byte counts may pass what an int64 holds only in theory, but
  // a share must never be computed from a wrapped sum.
  double total = 0.0;
  for (const OperatorChange& c : changes) total += std::fabs(static_cast<double>(c.delta()));
  for (OperatorChange& c : changes) c.share = std::fabs(static_cast<double>(c.delta())) / total;
  // The names are already in order, so a stable sort by share keeps ties by name.
  std::stable_sort(changes.begin(), changes.end(),
                   [](const OperatorChange& a, const OperatorChange& b) {
                     return std::llabs(a.delta()) > std::llabs(b.delta());
                   });
  if (changes.size() > listed) {
    diff.more = changes.size() - listed;
    changes.resize(listed);
  }
  diff.listed = std::move(changes);
  return diff;
}

OperatorDiff missing_operator_diff(BreakdownUnit unit, std::string why) {
  OperatorDiff diff;
  diff.unit = unit;
  diff.missing = std::move(why);
  return diff;
}

std::string format_operator_delta(std::int64_t delta, BreakdownUnit unit) {
  const char* sign = delta < 0 ? "-" : "+";
  const double magnitude = std::fabs(static_cast<double>(delta));
  switch (unit) {
    case BreakdownUnit::Calls:
      return fmt::format("{:+} calls", delta);
    case BreakdownUnit::Allocations:
      return fmt::format("{:+} allocations", delta);
    case BreakdownUnit::Bytes:
      if (magnitude >= 1024.0 * 1024.0)
        return fmt::format("{}{:.1f} MiB", sign, magnitude / (1024.0 * 1024.0));
      if (magnitude >= 1024.0) return fmt::format("{}{:.1f} KiB", sign, magnitude / 1024.0);
      return fmt::format("{:+} B", delta);
  }
  return fmt::format("{:+}", delta);
}

std::string describe_operator_diff(const OperatorDiff& diff) {
  if (!diff.missing.empty()) return diff.missing;
  if (diff.listed.empty())
    return fmt::format("no operator's {} changed", breakdown_unit_name(diff.unit));
  std::string text;
  for (const OperatorChange& c : diff.listed) {
    text += fmt::format("{}{} {} ({:.0f}%)", text.empty() ? "" : ", ", c.name,
                        format_operator_delta(c.delta(), diff.unit), c.share * 100.0);
  }
  if (diff.more > 0) text += fmt::format(", and {} more", diff.more);
  return text;
}

}  // namespace mlregress::internal
