# Checks on a model and its training step: initial loss, parameter updates, finiteness,
# gradient norms, determinism, train/eval mode.
target_sources(mlregress_torch PRIVATE
)
