// Preprocessing drift, caught before the accuracy moves: the per-channel statistics of a
// preprocessed image batch (scaled to [0, 1], then normalised with per-channel mean and std, as
// torchvision's Normalize does) are recorded and banded against the baseline. Two planted bugs
// from the seed's data checks, each a parameter: normalisation applied twice, and the colour
// channels swapped (an image read as BGR, normalised as RGB). Neither fails anything inside the
// test; both are REGRESSIONs against the committed baseline, the report naming the channel
// (tests/e2e/preprocessing_drift_is_caught.sh). The batch itself is recorded for the report
// (record_batch): the seeds' "look at the batch right before it enters the model".
#include <ATen/CPUGeneratorImpl.h>

#include <vector>

#include "mlregress/mlregress.h"

namespace {

// A fixed batch of 64 RGB 16x16 images with 8-bit values whose channels differ as photos' do.
torch::Tensor raw_images() {
  at::Generator generator = at::detail::createCPUGenerator(20261203);
  const torch::Tensor channel_means = torch::tensor({124.0, 116.0, 104.0}).view({1, 3, 1, 1});
  const torch::Tensor channel_sds = torch::tensor({58.0, 57.0, 57.0}).view({1, 3, 1, 1});
  return (channel_means + channel_sds * torch::randn({64, 3, 16, 16}, generator))
      .clamp(0, 255)
      .round();
}

// torchvision's Normalize constants (ImageNet's), which the pipeline declares.
const std::vector<double> kMean = {0.485, 0.456, 0.406};
const std::vector<double> kStd = {0.229, 0.224, 0.225};

torch::Tensor normalise(const torch::Tensor& images) {
  const torch::Tensor mean = torch::tensor(kMean, torch::kFloat).view({1, 3, 1, 1});
  const torch::Tensor sd = torch::tensor(kStd, torch::kFloat).view({1, 3, 1, 1});
  return (images - mean) / sd;
}

}  // namespace

ML_TEST(Fast, PreprocessedInputStatistics, {"normalise_twice", false}, {"swap_channels", false}) {
  torch::Tensor images = raw_images();
  if (param<bool>("swap_channels")) images = images.flip(1);  // BGR read, RGB assumed
  torch::Tensor batch = normalise(images.to(torch::kFloat) / 255.0);
  if (param<bool>("normalise_twice")) batch = normalise(batch);
  mlregress::checks::record_input_statistics("input", batch);
  // The batch as the model receives it, un-normalised with the declared constants, for a person
  // to look at in report.html: swapped channels show as swapped colours, a second
  // normalisation as saturated pixels and a clamped_fraction far above 0.
  record_batch("input",
               mlregress::image_batch(batch, torch::Tensor(), {.mean = kMean, .std = kStd}));
  // What the pipeline promises, whatever the baseline says: finite, and not constant.
  EXPECT_TRUE(torch::isfinite(batch).all().item<bool>());
  EXPECT_GT(batch.std().item<double>(), 0.1);
}
