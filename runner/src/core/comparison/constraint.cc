#include "comparison/constraint.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>

#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

constexpr std::string_view kExpected =
    "expected METRIC OP VALUE, OP one of <= >= < >, VALUE a ratio to A (1.10x), a change "
    "relative to A (+0.5%, -2%) or a number (2.5)";

std::string_view trim(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

// A finite number written in full ("1.10", "-2", "+0.5"), as from_chars reads it (no locale).
std::optional<double> parse_number(std::string_view text) {
  if (text.starts_with('+')) text.remove_prefix(1);
  if (text.empty() || text.front() == '+') return std::nullopt;
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value))
    return std::nullopt;
  return value;
}

bool is_blank(char c) { return c == ' ' || c == '\t'; }

std::string_view op_text(ConstraintOp op) {
  switch (op) {
    case ConstraintOp::kLess:
      return "<";
    case ConstraintOp::kLessEqual:
      return "<=";
    case ConstraintOp::kGreater:
      return ">";
    case ConstraintOp::kGreaterEqual:
      return ">=";
  }
  return "?";
}

// The operator that fails where `op` holds: what a violation prints between B and the limit.
std::string_view negated_op_text(ConstraintOp op) {
  switch (op) {
    case ConstraintOp::kLess:
      return ">=";
    case ConstraintOp::kLessEqual:
      return ">";
    case ConstraintOp::kGreater:
      return "<=";
    case ConstraintOp::kGreaterEqual:
      return "<";
  }
  return "?";
}

bool holds(ConstraintOp op, double b, double limit) {
  switch (op) {
    case ConstraintOp::kLess:
      return b < limit;
    case ConstraintOp::kLessEqual:
      return b <= limit;
    case ConstraintOp::kGreater:
      return b > limit;
    case ConstraintOp::kGreaterEqual:
      return b >= limit;
  }
  return false;
}

ParsedConstraint syntax_error(std::string_view text, std::string_view problem) {
  return {std::nullopt, fmt::format("constraint '{}': {}; {}", text, problem, kExpected)};
}

// The right-hand side: "1.10x", "+0.5%", "2.5".
bool parse_bound(std::string_view value, Constraint& c) {
  c.bound = value.ends_with('x')   ? ConstraintBound::kRatio
            : value.ends_with('%') ? ConstraintBound::kRelative
                                   : ConstraintBound::kAbsolute;
  if (c.bound != ConstraintBound::kAbsolute) value.remove_suffix(1);
  const std::optional<double> number = parse_number(value);
  if (!number) return false;
  c.value = c.bound == ConstraintBound::kRelative ? *number / 100.0 : *number;
  return true;
}

}  // namespace

ParsedConstraint parse_constraint(std::string_view text) {
  const std::string_view whole = trim(text);
  const std::size_t at = whole.find_first_of("<>=!");
  if (at == std::string_view::npos) return syntax_error(whole, "no operator");
  Constraint c;
  c.text = std::string(whole);
  c.metric = std::string(trim(whole.substr(0, at)));
  if (c.metric.empty()) return syntax_error(whole, "no metric before the operator");
  for (char ch : c.metric) {
    if (is_blank(ch))
      return syntax_error(whole, fmt::format("'{}' is not one metric name", c.metric));
  }
  const bool or_equal = at + 1 < whole.size() && whole[at + 1] == '=';
  if (whole[at] == '<') {
    c.op = or_equal ? ConstraintOp::kLessEqual : ConstraintOp::kLess;
  } else if (whole[at] == '>') {
    c.op = or_equal ? ConstraintOp::kGreaterEqual : ConstraintOp::kGreater;
  } else {
    return syntax_error(whole, fmt::format("'{}' is not an operator", whole.substr(at, 2)));
  }
  const std::string_view value = trim(whole.substr(at + (or_equal ? 2 : 1)));
  if (value.empty()) return syntax_error(whole, "no value after the operator");
  if (value.find_first_of("<>=") != std::string_view::npos)
    return syntax_error(whole, "more than one operator");
  if (!parse_bound(value, c)) return syntax_error(whole, fmt::format("'{}' is no value", value));
  return {std::move(c), ""};
}

std::vector<Constraint> parse_constraints(const std::vector<std::string>& texts) {
  std::vector<Constraint> out;
  for (const std::string& text : texts) {
    ParsedConstraint parsed = parse_constraint(text);
    if (!parsed.constraint) throw ConfigError("--constraint: " + parsed.error);
    out.push_back(std::move(*parsed.constraint));
  }
  return out;
}

std::string_view constraint_status_name(ConstraintStatus status) {
  switch (status) {
    case ConstraintStatus::kHeld:
      return "held";
    case ConstraintStatus::kViolated:
      return "VIOLATED";
    case ConstraintStatus::kNotRecorded:
      return "NOT RECORDED";
    case ConstraintStatus::kNoBaseline:
      return "not evaluated";
  }
  return "?";
}

bool is_violation(const ConstraintCheck& check) {
  return check.status == ConstraintStatus::kViolated ||
         check.status == ConstraintStatus::kNotRecorded;
}

ConstraintCheck check_constraint(const Constraint& constraint, std::optional<double> a,
                                 std::optional<double> b) {
  ConstraintCheck check{constraint, ConstraintStatus::kHeld, a, b, std::nullopt};
  if (!b) {
    check.status = ConstraintStatus::kNotRecorded;
    return check;
  }
  switch (constraint.bound) {
    case ConstraintBound::kAbsolute:
      check.limit = constraint.value;
      break;
    case ConstraintBound::kRatio:
      // 1.10x of a negative A would be below it, of 0 would be 0: a ratio needs A > 0.
      if (a && *a > 0.0) check.limit = constraint.value * *a;
      break;
    case ConstraintBound::kRelative:
      if (a) check.limit = *a + constraint.value * std::fabs(*a);
      break;
  }
  if (!check.limit) {
    check.status = ConstraintStatus::kNoBaseline;
    return check;
  }
  // NaN on either side holds no bound: the comparison is false, the constraint violated.
  check.status = holds(constraint.op, *b, *check.limit) ? ConstraintStatus::kHeld
                                                        : ConstraintStatus::kViolated;
  return check;
}

std::string describe_check(const ConstraintCheck& check) {
  const Constraint& c = check.constraint;
  const std::string name(constraint_status_name(check.status));
  if (check.status == ConstraintStatus::kNotRecorded)
    return fmt::format("{}: {} (B did not record {})", c.text, name, c.metric);
  if (check.status == ConstraintStatus::kNoBaseline) {
    return check.a ? fmt::format("{}: not evaluated, a ratio to A needs A > 0 (A {})", c.text,
                                 format_value(*check.a))
                   : fmt::format("{}: not evaluated, A holds no value of {}", c.text, c.metric);
  }
  std::string how;
  if (c.bound == ConstraintBound::kRatio) {
    how = fmt::format(" ({} × A {})", format_value(c.value), format_value(*check.a));
  } else if (c.bound == ConstraintBound::kRelative) {
    how = fmt::format(" (A {} {}{}%)", format_value(*check.a), c.value >= 0 ? "+" : "",
                      format_value(100.0 * c.value));
  }
  const std::string_view op =
      check.status == ConstraintStatus::kHeld ? op_text(c.op) : negated_op_text(c.op);
  return fmt::format("{}: B {} {} limit {}{} {}", c.text, format_value(*check.b), op,
                     format_value(*check.limit), how, name);
}

std::vector<Constraint> declared_constraints(const TestResult& test) {
  std::vector<Constraint> out;
  for (const std::string& text : test.constraints) {
    ParsedConstraint parsed = parse_constraint(text);
    if (!parsed.constraint)
      throw ConfigError(fmt::format("test {}: {}", test.full_name, parsed.error));
    parsed.constraint->declared = true;
    out.push_back(std::move(*parsed.constraint));
  }
  return out;
}

std::optional<double> value_in_b(const TestResult& test, const std::string& metric) {
  for (const MetricComparison& c : test.comparisons) {
    if (c.metric == metric) return c.observed;
  }
  for (const MetricRecord& m : test.metrics) {
    if (m.name == metric) return m.value;
  }
  return std::nullopt;
}

std::optional<double> value_in_a(const TestResult& test, const TestResult* a_test,
                                 const std::string& metric) {
  for (const MetricComparison& c : test.comparisons) {
    if (c.metric == metric && c.baseline) return c.baseline;
  }
  if (a_test == nullptr) return std::nullopt;
  for (const MetricRecord& m : a_test->metrics) {
    if (m.name == metric) return m.value;
  }
  return std::nullopt;
}

std::vector<ConstraintCheck> check_test_constraints(const TestResult& test,
                                                    const TestResult* a_test,
                                                    std::span<const Constraint> command_line) {
  std::vector<ConstraintCheck> checks;
  const auto check = [&](const Constraint& c) {
    checks.push_back(
        check_constraint(c, value_in_a(test, a_test, c.metric), value_in_b(test, c.metric)));
  };
  for (const Constraint& c : declared_constraints(test)) check(c);
  for (const Constraint& c : command_line) {
    if (value_in_b(test, c.metric) || value_in_a(test, a_test, c.metric)) check(c);
  }
  return checks;
}

std::vector<std::string> violated_declared_constraints(const TestResult& test) {
  std::vector<std::string> out;
  for (const ConstraintCheck& check : check_test_constraints(test, nullptr, {})) {
    if (is_violation(check)) out.push_back(describe_check(check));
  }
  return out;
}

}  // namespace mlregress::internal
