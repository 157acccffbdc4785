// The precompiled header of every torch-facing target (mlregress_target_precompile_torch):
// parsing torch/torch.h dominates their compile time, so it is parsed once per project instead
// of once per file. GoogleTest comes along, as every ML test includes it.
#pragma once

#include <gtest/gtest.h>
#include <torch/torch.h>
