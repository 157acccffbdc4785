// The conditions a run was measured under, as recorded in environment.json: a number without
// its conditions is weak evidence. The framework's part (torch version, devices) comes from
// RunnerHooks::probe_framework.
#pragma once

#include <nlohmann/json.hpp>

#include "git_info.h"

namespace mlregress::internal {

/// CPU model and cores, OS, hostname, compiler and flags, git commit and dirty flag.
nlohmann::json probe_environment(const GitInfo& git);

}  // namespace mlregress::internal
