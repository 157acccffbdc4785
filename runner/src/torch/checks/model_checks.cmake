# Checks on a model and its training step: initial loss, parameter updates, finiteness,
# gradient norms, determinism, train/eval mode, memory budgets.
target_sources(mlregress_torch PRIVATE
  checks/bitwise.cc
  checks/clip_threshold.cc
  checks/determinism.cc
  checks/finite_monitor.cc
  checks/gradient_norm_monitor.cc
  checks/initial_loss.cc
  checks/input_statistics.cc
  checks/memory_budget.cc
  checks/parameter_updates.cc
  checks/tensor_text.cc
  checks/train_eval_mode.cc
)
