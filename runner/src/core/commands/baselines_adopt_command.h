// `baselines adopt RUN [--confirm RUN2]`: a new machine adds its own values where the baselines
// hold them for other machines only (see adoption.h). Reads run folders; never runs a test.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

/// Passed when every gap was filled (or there was none); promotion_refused when a value was left
/// ungated (the two runs disagree, or the test changed), after writing the others.
ExitCode baselines_adopt_command(const BaselinesAdoptOptions& options);

}  // namespace mlregress::internal
