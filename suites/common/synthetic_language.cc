#include "synthetic_language.h"

#include <cmath>
#include <string>

#include "mlregress/torch/dataset.h"

namespace mlregress::examples {

torch::Tensor sample_sequences(const SyntheticLanguage& language, std::int64_t count,
                               std::int64_t length) {
  torch::Tensor tokens = torch::randint(language.content_tokens, {count, length}, torch::kLong);
  const torch::Tensor repeats = torch::rand({count, length}) < language.repeat_probability;
  // Left to right, so a repeated token may itself be a repeat: the chain is the language's.
  for (std::int64_t t = language.distance; t < length; ++t) {
    tokens.select(1, t).copy_(torch::where(
        repeats.select(1, t), tokens.select(1, t - language.distance), tokens.select(1, t)));
  }
  return tokens;
}

double long_range_entropy(const SyntheticLanguage& language) {
  const double v = static_cast<double>(language.content_tokens);
  const double r = (1.0 - language.repeat_probability) / v;
  const double q = language.repeat_probability + r;
  double h = -q * std::log(q);
  if (r > 0) h -= (v - 1) * r * std::log(r);
  return h;
}

double entropy_bound(const SyntheticLanguage& language, std::int64_t length, std::int64_t context) {
  const double uniform = std::log(static_cast<double>(language.content_tokens));
  const std::int64_t targets = length - 1;
  if (targets <= 0) return uniform;
  if (context < language.distance) return uniform;
  const std::int64_t before_d = std::min(language.distance, length) - 1;
  const std::int64_t after_d = targets - before_d;
  return (static_cast<double>(before_d) * uniform +
          static_cast<double>(after_d) * long_range_entropy(language)) /
         static_cast<double>(targets);
}

DatasetFingerprint fingerprint(const SyntheticLanguage& language, const torch::Tensor& sample) {
  const torch::Tensor parameters =
      torch::tensor({static_cast<double>(language.content_tokens),
                     static_cast<double>(language.distance), language.repeat_probability},
                    torch::kDouble);
  return fingerprint_tensors({parameters, sample});
}

}  // namespace mlregress::examples
