// Umbrella header of the framework-free core: everything a test author needs to write ML_TESTs
// that record metrics and curves. Torch-facing tests include mlregress/mlregress.h instead.
#pragma once

#include "mlregress/confusion.h"
#include "mlregress/exit_code.h"
#include "mlregress/latency.h"
#include "mlregress/metric.h"
#include "mlregress/ml_test.h"
#include "mlregress/param.h"
#include "mlregress/runner_hooks.h"
#include "mlregress/throughput.h"
#include "mlregress/tier.h"
