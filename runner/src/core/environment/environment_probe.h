// The conditions a run was measured under, as recorded in environment.json: a number without
// its conditions is weak evidence. One probe for every command that records an environment.
#pragma once

#include <nlohmann/json.hpp>

#include "environment/git_info.h"
#include "mlregress/runner_hooks.h"

namespace mlregress::internal {

/// CPU model and cores, OS, hostname, compiler and flags, git commit and dirty flag; the
/// framework's own description under "framework" (RunnerHooks::probe_framework, called in a
/// child process so that this process never initialises a device); `run_section` (the seed and
/// threads a run starts from) under "run" unless it is null. MLREGRESS_ENVIRONMENT_OVERRIDE, a
/// JSON object, is merged over the result (ConfigError when it is not one).
nlohmann::json probe_environment(const GitInfo& git, const RunnerHooks& hooks,
                                 const nlohmann::json& run_section);

}  // namespace mlregress::internal
