// The consumer's model library: the data of its line fit. A library that links only LibTorch, as a
// team's model code does, compiled with mlregress's precompiled LibTorch header.
#pragma once

#include <torch/torch.h>

#include <utility>

// 64 points of y = 3x + 0.5 on [-1, 1].
std::pair<torch::Tensor, torch::Tensor> line_data();
