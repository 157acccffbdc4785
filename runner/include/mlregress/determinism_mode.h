// How strictly a test's kernels must be deterministic: `run --determinism off|warn|strict` for the
// whole run, a test's own parameter {"determinism", "strict"} for one test.
//
//   off     nothing is asked of the kernels (fastest; the same seed may give other numbers)
//   warn    deterministic algorithms where the framework has them; a kernel without one warns
//           and runs anyway (the default, and what every run did before the switch existed)
//   strict  a kernel without a deterministic implementation throws: the test fails, naming it
#pragma once

#include <optional>
#include <string_view>

namespace mlregress {

enum class DeterminismMode { Off, Warn, Strict };

/// "off", "warn" or "strict": as on the command line, in results.json and in the property.
std::string_view determinism_mode_name(DeterminismMode mode);

/// Parses one of the names above; nullopt for anything else.
std::optional<DeterminismMode> parse_determinism_mode(std::string_view text);

/// The name of the test parameter that chooses the mode for one test: ML_TEST(Fast, T,
/// {"determinism", "strict"}); `--set T.determinism=off` changes it like any parameter.
inline constexpr std::string_view kDeterminismParam = "determinism";

}  // namespace mlregress
