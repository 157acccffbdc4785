#include "analysis/cause.h"

#include "support/enum_names.h"

namespace mlregress::internal {
namespace {

constexpr auto kCauseNames = enum_names<CauseClass>({{CauseClass::kData, "data"},
                                                     {CauseClass::kDataOrder, "data_order"},
                                                     {CauseClass::kPreprocessing, "preprocessing"},
                                                     {CauseClass::kOptimisation, "optimisation"},
                                                     {CauseClass::kNumerics, "numerics"},
                                                     {CauseClass::kCompile, "compile"},
                                                     {CauseClass::kOperatorCount, "operator_count"},
                                                     {CauseClass::kAllocation, "allocation"},
                                                     {CauseClass::kEnvironment, "environment"},
                                                     {CauseClass::kUnknown, "unknown"}});

}  // namespace

std::string_view cause_class_name(CauseClass cause) { return kCauseNames.name(cause); }

std::optional<CauseClass> parse_cause_class(std::string_view name) {
  return kCauseNames.parse(name);
}

std::string format_cause(const Cause& cause) {
  std::string out = std::string(cause_class_name(cause.cause)) + " — rule: " + cause.rule;
  for (std::size_t i = 0; i < cause.alternatives.size(); ++i) {
    const CauseRule& alternative = cause.alternatives[i];
    out += (i == 0 ? "; alternatives: " : ", ") + std::string(cause_class_name(alternative.cause)) +
           " (" + alternative.rule + ")";
  }
  return out;
}

bool admits_unknown(const Cause& cause) {
  if (cause.cause == CauseClass::kUnknown) return true;
  for (const CauseRule& alternative : cause.alternatives) {
    if (alternative.cause == CauseClass::kUnknown) return true;
  }
  return false;
}

}  // namespace mlregress::internal
