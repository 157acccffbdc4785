// Parsing of parameter values given on the command line, typed by the declared default.
#pragma once

#include <optional>
#include <string_view>

#include "mlregress/param.h"

namespace mlregress::internal {

/// Parses `text` as a value of the same type as `like`. Strict: "3.5" is no int, "yes" no bool,
/// trailing characters are rejected. nullopt when the text does not parse.
std::optional<ParamValue> parse_param_value(std::string_view text, const ParamValue& like);

}  // namespace mlregress::internal
