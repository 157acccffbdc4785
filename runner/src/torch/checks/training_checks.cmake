# Checks on data and training runs: the permuted-label leak test, the learning-rate sweep,
# curve comparison and diagnosis.
target_sources(mlregress_torch PRIVATE
)
