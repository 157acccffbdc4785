// RunnerHooks for LibTorch: before each test, seed torch's RNG and fix the intra-op thread
// count; describe the LibTorch build in environment.json.
#pragma once

#include "mlregress/runner_hooks.h"

namespace mlregress {

RunnerHooks torch_runner_hooks();

}  // namespace mlregress
