#include "mlregress/metric.h"

#include "support/enum_names.h"

namespace mlregress {

namespace {

constexpr auto kDirectionNames =
    internal::enum_names<Direction>({{Direction::LowerIsBetter, "lower_is_better"},
                                     {Direction::HigherIsBetter, "higher_is_better"},
                                     {Direction::MustEqual, "must_equal"}});

constexpr auto kScopeNames = internal::enum_names<Scope>({{Scope::Auto, "auto"},
                                                          {Scope::Portable, "portable"},
                                                          {Scope::Numerics, "numerics"},
                                                          {Scope::Machine, "machine"}});

constexpr auto kBreakdownUnitNames =
    internal::enum_names<BreakdownUnit>({{BreakdownUnit::Calls, "calls"},
                                         {BreakdownUnit::Allocations, "allocations"},
                                         {BreakdownUnit::Bytes, "bytes"}});

}  // namespace

std::string_view breakdown_unit_name(BreakdownUnit unit) {
  return kBreakdownUnitNames.name(unit, "unknown");
}

std::optional<BreakdownUnit> parse_breakdown_unit(std::string_view text) {
  return kBreakdownUnitNames.parse(text);
}

std::string_view direction_name(Direction direction) {
  return kDirectionNames.name(direction, "unknown");
}

std::optional<Direction> parse_direction(std::string_view text) {
  return kDirectionNames.parse(text);
}

std::string_view scope_name(Scope scope) { return kScopeNames.name(scope, "auto"); }

std::optional<Scope> parse_scope(std::string_view text) { return kScopeNames.parse(text); }

}  // namespace mlregress
