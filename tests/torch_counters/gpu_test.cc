// The torch layer's GPU helpers on a machine without a CUDA device (as every CI machine of
// mlregress is): a GPU test skips with the reason, the probe records the determinism settings,
// and a user's own CUBLAS_WORKSPACE_CONFIG is kept. On a CUDA machine ci/gpu-check.sh runs the
// GPU suite instead.
#include "mlregress/torch/gpu.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdlib>

namespace mlregress {
namespace {

TEST(GpuHelpersTest, WithoutACudaDeviceTheReasonSaysWhy) {
  if (torch::cuda::is_available()) GTEST_SKIP() << "a CUDA device is visible here";
  const std::optional<std::string> reason = cuda_unavailable_reason();
  ASSERT_TRUE(reason.has_value());
  EXPECT_THAT(*reason, ::testing::AnyOf(::testing::HasSubstr("is a CPU build (no CUDA)"),
                                        ::testing::HasSubstr("no CUDA device is visible")));
}

TEST(GpuHelpersTest, DeterminismIsAppliedAndRecordedAndAUsersWorkspaceIsKept) {
  ::setenv("CUBLAS_WORKSPACE_CONFIG", ":16:8", 1);
  make_cuda_deterministic();
  EXPECT_STREQ(std::getenv("CUBLAS_WORKSPACE_CONFIG"), ":16:8");
  ::unsetenv("CUBLAS_WORKSPACE_CONFIG");
  make_cuda_deterministic();
  EXPECT_STREQ(std::getenv("CUBLAS_WORKSPACE_CONFIG"), ":4096:8");
  const nlohmann::json cuda = probe_cuda();
  EXPECT_EQ(cuda.at("determinism").at("cublas_workspace_config"), ":4096:8");
  EXPECT_EQ(cuda.at("determinism").at("cudnn_benchmark"), false);
  EXPECT_EQ(cuda.at("determinism").at("cudnn_deterministic"), true);
  EXPECT_EQ(cuda.at("available"), torch::cuda::is_available());
}

TEST(GpuHelpersTest, CudaThroughputOptionsWaitForTheDeviceAfterEachStep) {
  const ThroughputOptions options = cuda_throughput_options({.items_per_step = 32.0});
  EXPECT_TRUE(static_cast<bool>(options.synchronize));
  EXPECT_EQ(options.items_per_step, 32.0);
}

}  // namespace
}  // namespace mlregress
