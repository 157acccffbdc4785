#include "lm_properties.h"

#include <string>

#include "mlregress/mlregress.h"

namespace mlregress::examples {
namespace {

// The names a reader knows them by, not ATen's ("Float").
std::string dtype_name(torch::ScalarType type) {
  switch (type) {
    case torch::kFloat:
      return "float32";
    case torch::kDouble:
      return "float64";
    case torch::kHalf:
      return "float16";
    case torch::kBFloat16:
      return "bfloat16";
    default:
      return c10::toString(type);
  }
}

std::string masking_name(const TinyGptOptions& options) {
  if (!options.causal) return "none";
  if (options.attention_window == 0) return "causal";
  return "causal, window " + std::to_string(options.attention_window);
}

}  // namespace

void record_language_model(TinyGpt& model, std::int64_t sequence_length) {
  std::int64_t weights = 0;
  for (const torch::Tensor& parameter : model->parameters()) weights += parameter.numel();
  MlTest::record_property("sequence_length", sequence_length);
  MlTest::record_property("vocabulary_size", model->options().vocabulary);
  MlTest::record_property("dtype", dtype_name(model->parameters().front().scalar_type()));
  MlTest::record_property("masking", masking_name(model->options()));
  MlTest::record_property("parameters", weights);
}

}  // namespace mlregress::examples
