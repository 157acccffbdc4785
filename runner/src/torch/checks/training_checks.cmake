# Checks on data and training runs: the permuted-label leak test, the learning-rate sweep,
# curve diagnosis, curve smells (curve comparison is torch-free and lives in the core,
# comparison/).
target_sources(mlregress_torch PRIVATE
  checks/binomial.cc
  checks/class_prior.cc
  checks/curve_diagnosis.cc
  checks/dumb_baselines.cc
  checks/curve_smells.cc
  checks/learning_rate_scaling.cc
  checks/learning_rate_schedule.cc
  checks/learning_rate_range_test.cc
  checks/learning_rate_sweep.cc
  checks/loss_progress.cc
  checks/permuted_label_leak.cc
)
