#include "comparison/criterion.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace mlregress::internal {
namespace {

bool is_metric_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '-' || c == '.' ||
         c == '[' || c == ']' || c == '/';
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// The operator at the start of `text`, and how many characters it takes.
std::optional<std::pair<CriterionOp, std::size_t>> read_op(std::string_view text) {
  if (text.starts_with("<=")) return std::pair{CriterionOp::kLessOrEqual, std::size_t{2}};
  if (text.starts_with(">=")) return std::pair{CriterionOp::kGreaterOrEqual, std::size_t{2}};
  if (text.starts_with("<")) return std::pair{CriterionOp::kLess, std::size_t{1}};
  if (text.starts_with(">")) return std::pair{CriterionOp::kGreater, std::size_t{1}};
  return std::nullopt;
}

// VALUE: a number, then `x` (ratio) or `%` (relative), then optionally the word `baseline`.
bool read_value(std::string_view text, Criterion& criterion) {
  const bool plus = text.starts_with("+");
  if (plus) text.remove_prefix(1);
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || !std::isfinite(value)) return false;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  criterion.value = value;
  criterion.kind = CriterionKind::kAbsolute;
  if (text.starts_with("x") || text.starts_with("%")) {
    criterion.kind = text.front() == 'x' ? CriterionKind::kRatio : CriterionKind::kRelative;
    text = trim(text.substr(1));
    if (text == "baseline") text = "";
  } else if (plus) {
    return false;  // `+0.5` without a unit: a change of what?
  }
  return trim(text).empty();
}

bool holds(CriterionOp op, double observed, double threshold) {
  switch (op) {
    case CriterionOp::kLess:
      return observed < threshold;
    case CriterionOp::kLessOrEqual:
      return observed <= threshold;
    case CriterionOp::kGreater:
      return observed > threshold;
    case CriterionOp::kGreaterOrEqual:
      return observed >= threshold;
  }
  return false;
}

std::string formatted(const char* format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

}  // namespace

std::string_view criterion_op_text(CriterionOp op) {
  switch (op) {
    case CriterionOp::kLess:
      return "<";
    case CriterionOp::kLessOrEqual:
      return "<=";
    case CriterionOp::kGreater:
      return ">";
    case CriterionOp::kGreaterOrEqual:
      return ">=";
  }
  return "?";
}

std::optional<Criterion> parse_criterion(std::string_view text) {
  Criterion criterion;
  text = trim(text);
  criterion.text = std::string(text);
  std::size_t name_end = 0;
  while (name_end < text.size() && is_metric_char(text[name_end])) ++name_end;
  if (name_end == 0 ||
      (std::isalpha(static_cast<unsigned char>(text.front())) == 0 && text.front() != '_')) {
    return std::nullopt;
  }
  criterion.metric = std::string(text.substr(0, name_end));
  text = trim(text.substr(name_end));
  const auto op = read_op(text);
  if (!op) return std::nullopt;
  criterion.op = op->first;
  text = trim(text.substr(op->second));
  if (!read_value(text, criterion)) return std::nullopt;
  return criterion;
}

bool looks_like_criterion(std::string_view text) {
  text = trim(text);
  std::size_t name_end = 0;
  while (name_end < text.size() && is_metric_char(text[name_end])) ++name_end;
  if (name_end == 0 ||
      (std::isalpha(static_cast<unsigned char>(text.front())) == 0 && text.front() != '_')) {
    return false;
  }
  text = trim(text.substr(name_end));
  return !text.empty() && std::string_view("<>=!").find(text.front()) != std::string_view::npos;
}

std::optional<CriterionCheck> evaluate_criterion(const Criterion& criterion,
                                                 std::optional<double> baseline, double observed) {
  if (criterion.kind != CriterionKind::kAbsolute && !baseline) return std::nullopt;
  if (criterion.kind == CriterionKind::kRatio && !(*baseline > 0.0)) return std::nullopt;
  CriterionCheck check;
  switch (criterion.kind) {
    case CriterionKind::kRatio:
      check.threshold = criterion.value * *baseline;
      break;
    case CriterionKind::kRelative:
      check.threshold = *baseline + std::fabs(*baseline) * criterion.value / 100.0;
      break;
    case CriterionKind::kAbsolute:
      check.threshold = criterion.value;
      break;
  }
  check.held = !std::isnan(observed) && holds(criterion.op, observed, check.threshold);
  if (baseline && *baseline != 0.0 && std::isfinite(*baseline)) {
    check.change =
        criterion.kind == CriterionKind::kRatio
            ? formatted("%.4gx", observed / *baseline)
            : formatted("%+.3g%%", 100.0 * (observed - *baseline) / std::fabs(*baseline));
  } else if (baseline && criterion.kind != CriterionKind::kAbsolute) {
    check.change = "baseline 0: no ratio";
  }
  return check;
}

}  // namespace mlregress::internal
