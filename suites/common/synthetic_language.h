// The language model's data: a synthetic language whose best possible loss is known. Each token is
// uniform over V content tokens, except that from position d on it repeats the token d positions
// back with probability p. Its entropy rate is therefore exact, and so is the lesson the seeds
// teach with a real corpus ("a larger context helps"): a model that sees d tokens back can reach
// the long-range rate; one whose context is shorter than d cannot beat ln V.
#pragma once

#include <torch/torch.h>

#include <cstdint>

#include "mlregress/dataset.h"

namespace mlregress::examples {

struct SyntheticLanguage {
  std::int64_t content_tokens = 16;  ///< V: tokens 0..V-1 carry the language
  std::int64_t distance = 6;         ///< d: how far back a repeated token comes from
  double repeat_probability = 0.8;   ///< p
  std::int64_t pad_token() const { return content_tokens; }       ///< V: never predicted
  std::int64_t end_token() const { return content_tokens + 1; }   ///< V + 1: ends a generation
  std::int64_t vocabulary() const { return content_tokens + 2; }  ///< the model's output size
};

/// `count` sequences of `length` tokens [count, length] int64, drawn from torch's global RNG.
torch::Tensor sample_sequences(const SyntheticLanguage& language, std::int64_t count,
                               std::int64_t length);

/// Nats per token where the token d back is visible: the entropy of "p · that token + (1 − p) ·
/// uniform", −q ln q − (V − 1) r ln r with r = (1 − p) / V and q = p + r.
double long_range_entropy(const SyntheticLanguage& language);

/// The lowest mean next-token loss any model can reach on sequences of `length` (targets are
/// positions 1..length−1) when it sees `context` tokens back: positions under d, and every position
/// when context < d, cost ln V; the rest cost long_range_entropy.
double entropy_bound(const SyntheticLanguage& language, std::int64_t length, std::int64_t context);

/// The generator's parameters and a sample's tokens, for record_dataset: a change to either makes
/// the test's values NOT_COMPARABLE instead of a silent regression.
DatasetFingerprint fingerprint(const SyntheticLanguage& language, const torch::Tensor& sample);

}  // namespace mlregress::examples
