// Checkpoints of the language model through LibTorch's serialization: the model's tensors, the
// optimizer's state and the step count (which is the learning-rate schedule's state), so training
// resumed from a checkpoint is the uninterrupted training bit for bit.
#pragma once

#include <stdexcept>
#include <string>

#include "lm_trainer.h"

namespace mlregress::examples {

/// A checkpoint that cannot be read or does not fit the model: the message names the file and,
/// for a misfit, the tensor and both shapes.
class CheckpointError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

void save_checkpoint(LmTrainer& trainer, const std::string& path);

/// What a load restores. Leaving out the optimizer plants the classic resume bug: the model's
/// weights come back but AdamW's moments and the schedule's step start again from zero.
struct CheckpointParts {
  bool optimizer = true;  ///< AdamW's state and the step count
};

/// Loads into `trainer`'s existing tensors (the optimizer keeps pointing at them). Throws
/// CheckpointError, never crashes, for a missing or corrupt file, a missing tensor, or a tensor
/// of another shape.
void load_checkpoint(LmTrainer& trainer, const std::string& path,
                     const CheckpointParts& parts = {});

}  // namespace mlregress::examples
