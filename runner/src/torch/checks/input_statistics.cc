#include "mlregress/checks/input_statistics.h"

#include <fmt/format.h>

#include <stdexcept>

#include "mlregress/ml_test.h"

namespace mlregress::checks {

std::vector<ChannelStatistics> input_statistics(const torch::Tensor& batch) {
  if (!batch.defined() || batch.numel() == 0)
    throw std::invalid_argument("input_statistics: the batch is empty");
  if (!batch.is_floating_point()) {
    throw std::invalid_argument(fmt::format(
        "input_statistics: the batch is {}, not floating point (record the preprocessed inputs)",
        c10::toString(batch.scalar_type())));
  }
  // [N, C, ...] -> [C, N * ...]: one row per channel.
  const torch::Tensor values = batch.detach().to(torch::kCPU, torch::kDouble);
  const torch::Tensor rows = values.dim() <= 1
                                 ? values.reshape({1, -1})
                                 : values.transpose(0, 1).reshape({values.size(1), -1});
  const torch::Tensor mean = rows.mean(1);
  const torch::Tensor std = rows.std(1, /*unbiased=*/false);
  const torch::Tensor min = std::get<0>(rows.min(1));
  const torch::Tensor max = std::get<0>(rows.max(1));
  std::vector<ChannelStatistics> statistics(static_cast<std::size_t>(rows.size(0)));
  for (std::int64_t c = 0; c < rows.size(0); ++c) {
    statistics[static_cast<std::size_t>(c)] = {mean[c].item<double>(), std[c].item<double>(),
                                               min[c].item<double>(), max[c].item<double>()};
  }
  return statistics;
}

void record_input_statistics(std::string_view name, const torch::Tensor& batch,
                             const InputStatisticsOptions& options) {
  const std::vector<ChannelStatistics> statistics = input_statistics(batch);
  if (static_cast<std::int64_t>(statistics.size()) > options.max_channels) {
    throw std::invalid_argument(fmt::format(
        "record_input_statistics('{}'): {} channels, more than max_channels = {}; record a slice",
        name, statistics.size(), options.max_channels));
  }
  for (std::size_t c = 0; c < statistics.size(); ++c) {
    const ChannelStatistics& s = statistics[c];
    for (const auto& [statistic, value] : {std::pair{"mean", s.mean}, std::pair{"std", s.std},
                                           std::pair{"min", s.min}, std::pair{"max", s.max}}) {
      MlTest::record(fmt::format("{}.c{}.{}", name, c, statistic), value, Direction::MustEqual,
                     options.band);
    }
  }
}

}  // namespace mlregress::checks
