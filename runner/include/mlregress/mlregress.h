// The one header a LibTorch test author includes: the test API (ML_TEST, record, param) and
// the checks on models, tensors and curves.
#pragma once

#include "mlregress/checks/finite.h"
#include "mlregress/checks/overfit_criterion.h"
#include "mlregress/core.h"
#include "mlregress/torch/torch_hooks.h"
