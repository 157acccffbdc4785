#include "analysis/verdict.h"

#include "support/enum_names.h"

namespace mlregress::internal {
namespace {

constexpr auto kVerdictNames = enum_names<Verdict>({{Verdict::kPass, "PASS"},
                                                    {Verdict::kRegression, "REGRESSION"},
                                                    {Verdict::kImproved, "IMPROVED"},
                                                    {Verdict::kInconclusive, "INCONCLUSIVE"},
                                                    {Verdict::kNew, "NEW"},
                                                    {Verdict::kNotComparable, "NOT_COMPARABLE"},
                                                    {Verdict::kUngated, "UNGATED"}});

}  // namespace

std::string_view verdict_name(Verdict verdict) { return kVerdictNames.name(verdict); }

std::optional<Verdict> parse_verdict(std::string_view name) { return kVerdictNames.parse(name); }

}  // namespace mlregress::internal
