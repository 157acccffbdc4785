# Checks on data and training runs: the permuted-label leak test, the learning-rate sweep,
# curve comparison and diagnosis.
target_sources(mlregress_torch PRIVATE
  checks/curve_comparison.cc
  checks/curve_diagnosis.cc
  checks/learning_rate_sweep.cc
  checks/loss_progress.cc
  checks/permuted_label_leak.cc
)
