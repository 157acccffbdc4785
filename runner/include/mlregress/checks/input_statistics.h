// Preprocessing drift: the statistics of the inputs the model actually sees, recorded as metrics
// so that the baseline gate bands them. Normalisation applied twice, channels swapped (RGB read
// as BGR), a resize that changed the value range: each moves the preprocessed inputs' per-channel
// mean, standard deviation, minimum or maximum long before it moves an accuracy, and the
// regression report then names the channel and the statistic.
#pragma once

#include <torch/torch.h>

#include <cstdint>
#include <string_view>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress::checks {

/// One channel's (or feature's) statistics over a batch.
struct ChannelStatistics {
  double mean = 0.0;
  double std = 0.0;  ///< population standard deviation
  double min = 0.0;
  double max = 0.0;
};

/// Per channel of an [N, C, ...] batch (dim 1), or per feature of an [N, F] batch; a 1-D batch
/// is one channel. Throws std::invalid_argument for an empty or non-floating batch.
std::vector<ChannelStatistics> input_statistics(const torch::Tensor& batch);

struct InputStatisticsOptions {
  /// Each statistic must stay within this band of the baseline, in both directions.
  Band band{.rtol = 0.02, .atol = 0.02};
  /// More channels than this is an error: per-feature metrics of a wide input would drown the
  /// report (record the statistics of a slice or of a projection instead).
  std::int64_t max_channels = 64;
};

/// Records input_statistics(batch) from inside a test as metrics "<name>.c<k>.mean", ".std",
/// ".min", ".max" (MustEqual with options.band: drift either way is a regression).
void record_input_statistics(std::string_view name, const torch::Tensor& batch,
                             const InputStatisticsOptions& options = {});

}  // namespace mlregress::checks
