// What a language-model test ran on, recorded as properties (record_property): the run record,
// the report and a later run's note ("properties changed: sequence_length 16 → 32") answer the
// seeds' questions "same sequence length? same vocabulary? same masking? same dtype?".
#pragma once

#include <cstdint>

#include "tiny_gpt.h"

namespace mlregress::examples {

/// Records sequence_length, vocabulary_size, dtype (of the model's parameters), masking
/// ("causal", "causal, window 3" or "none") and parameters (how many weights).
void record_language_model(TinyGpt& model, std::int64_t sequence_length);

}  // namespace mlregress::examples
