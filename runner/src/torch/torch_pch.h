// The precompiled header of every torch-facing target: parsing torch/torch.h dominates their
// compile time, so it is parsed once per target instead of once per file.
#pragma once

#include <torch/torch.h>
