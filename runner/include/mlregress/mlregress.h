// The one header a LibTorch test author includes: the test API (ML_TEST, record, param) and
// the checks on models, tensors and curves.
#pragma once

#include "mlregress/checks/curve_comparison.h"
#include "mlregress/checks/curve_diagnosis.h"
#include "mlregress/checks/determinism.h"
#include "mlregress/checks/finite.h"
#include "mlregress/checks/finite_monitor.h"
#include "mlregress/checks/gradient_norm_monitor.h"
#include "mlregress/checks/initial_loss.h"
#include "mlregress/checks/input_statistics.h"
#include "mlregress/checks/learning_rate_sweep.h"
#include "mlregress/checks/loss_progress.h"
#include "mlregress/checks/overfit_criterion.h"
#include "mlregress/checks/parameter_updates.h"
#include "mlregress/checks/permuted_label_leak.h"
#include "mlregress/checks/train_eval_mode.h"
#include "mlregress/core.h"
#include "mlregress/torch/dataset.h"
#include "mlregress/torch/memory_tracker.h"
#include "mlregress/torch/op_counter.h"
#include "mlregress/torch/predictions.h"
#include "mlregress/torch/torch_hooks.h"
