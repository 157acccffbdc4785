// LibTorch's DataLoader with 0 and with N worker threads over a small in-memory dataset whose
// get() does per-example preprocessing (standardise, add a mirrored channel), as an image
// pipeline would. Records batches/s and examples/s for both, so a change in the input pipeline
// (or in how many workers it gets) shows up beside the training-step throughput.
#include "mlregress/mlregress.h"

namespace {

constexpr std::int64_t kExamples = 512;
constexpr std::int64_t kBatch = 32;
constexpr std::int64_t kSide = 32;

class PreprocessedImages : public torch::data::datasets::Dataset<PreprocessedImages> {
 public:
  PreprocessedImages()
      : images_(torch::randn({kExamples, 1, kSide, kSide})),
        labels_(torch::randint(0, 10, {kExamples})) {}

  torch::data::Example<> get(std::size_t index) override {
    const torch::Tensor image = images_[static_cast<std::int64_t>(index)];
    const torch::Tensor standardised = (image - image.mean()) / (image.std() + 1e-5);
    return {torch::cat({standardised, standardised.flip({-1})}, 0),
            labels_[static_cast<std::int64_t>(index)]};
  }
  torch::optional<std::size_t> size() const override { return static_cast<std::size_t>(kExamples); }

 private:
  torch::Tensor images_;
  torch::Tensor labels_;
};

// One step: the next batch, starting a new epoch when the last one is exhausted. Counts the
// examples it received so the test can check no batch went missing or came short.
mlregress::ThroughputResult measure_loader(const char* name, std::size_t workers,
                                           std::int64_t& examples) {
  auto loader = torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
      PreprocessedImages().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(kBatch).workers(workers));
  auto batch = loader->begin();
  std::int64_t steps = 0;
  const auto step = [&] {
    if (batch == loader->end()) batch = loader->begin();
    examples += batch->data.size(0);
    ++batch;
    ++steps;
  };
  const mlregress::ThroughputResult result =
      mlregress::measure_throughput(name, step,
                                    {.items_per_step = static_cast<double>(kBatch),
                                     .repetitions = 5,
                                     .min_time_s = 0.15,
                                     .warmup_s = 0.05});
  std::cout << result.describe() << std::endl;
  EXPECT_EQ(examples, steps * kBatch) << name << ": a batch came short";
  return result;
}

}  // namespace

ML_TIMING_TEST(Medium, DataLoaderThroughput, {"workers", 2}) {
  const auto workers = param<std::int64_t>("workers");
  ASSERT_GE(workers, 1) << "compared with 0 workers, so at least 1";
  std::int64_t examples_inline = 0, examples_workers = 0;
  const auto inline_result = measure_loader("workers_0", 0, examples_inline);
  const auto workers_result =
      measure_loader("workers_n", static_cast<std::size_t>(workers), examples_workers);
  record_throughput("workers_0", inline_result);
  record_throughput("workers_n", workers_result);
  EXPECT_GT(examples_inline, 0);
  EXPECT_GT(examples_workers, 0);
}
