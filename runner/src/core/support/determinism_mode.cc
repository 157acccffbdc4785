#include "mlregress/determinism_mode.h"

#include "support/enum_names.h"

namespace mlregress {

namespace {

constexpr auto kDeterminismModeNames =
    internal::enum_names<DeterminismMode>({{DeterminismMode::Off, "off"},
                                           {DeterminismMode::Warn, "warn"},
                                           {DeterminismMode::Strict, "strict"}});

}  // namespace

std::string_view determinism_mode_name(DeterminismMode mode) {
  return kDeterminismModeNames.name(mode, "unknown");
}

std::optional<DeterminismMode> parse_determinism_mode(std::string_view text) {
  return kDeterminismModeNames.parse(text);
}

}  // namespace mlregress
