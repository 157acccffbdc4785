// The GPUs ctest hands a test through CTEST_RESOURCE_GROUP_* variables, read as ctest writes
// them, and a malformed allocation named instead of ignored.
#include "environment/ctest_resources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "support/errors.h"

namespace mlregress::internal {
namespace {

EnvironmentLookup environment(std::map<std::string, std::string> values) {
  return [values](const std::string& name) -> std::optional<std::string> {
    const auto it = values.find(name);
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

TEST(CtestResourcesTest, ReadsTheGpuIdsOfEveryGroup) {
  EXPECT_TRUE(ctest_gpu_ids(environment({})).empty());
  EXPECT_EQ(ctest_gpu_ids(environment({{"CTEST_RESOURCE_GROUP_COUNT", "2"},
                                       {"CTEST_RESOURCE_GROUP_0", "gpus"},
                                       {"CTEST_RESOURCE_GROUP_0_GPUS", "id:1,slots:1"},
                                       {"CTEST_RESOURCE_GROUP_1", "memory,gpus"},
                                       {"CTEST_RESOURCE_GROUP_1_GPUS", "id:3,slots:1"},
                                       {"CTEST_RESOURCE_GROUP_1_MEMORY", "id:m,slots:4"}})),
            (std::vector<std::string>{"1", "3"}));
  // A group of another type only: no device.
  EXPECT_TRUE(ctest_gpu_ids(environment({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                                         {"CTEST_RESOURCE_GROUP_0", "memory"},
                                         {"CTEST_RESOURCE_GROUP_0_MEMORY", "id:m,slots:1"}}))
                  .empty());
}

TEST(CtestResourcesTest, AMalformedAllocationIsNamed) {
  EXPECT_THROW(ctest_gpu_ids(environment({{"CTEST_RESOURCE_GROUP_COUNT", "x"}})), ConfigError);
  EXPECT_THROW(ctest_gpu_ids(environment(
                   {{"CTEST_RESOURCE_GROUP_COUNT", "1"}, {"CTEST_RESOURCE_GROUP_0", "gpus"}})),
               ConfigError);
  try {
    ctest_gpu_ids(environment({{"CTEST_RESOURCE_GROUP_COUNT", "1"},
                               {"CTEST_RESOURCE_GROUP_0", "gpus"},
                               {"CTEST_RESOURCE_GROUP_0_GPUS", "1"}}));
    FAIL() << "a malformed allocation was read";
  } catch (const ConfigError& error) {
    EXPECT_THAT(error.what(), ::testing::HasSubstr("CTEST_RESOURCE_GROUP_0_GPUS: expected"));
  }
}

}  // namespace
}  // namespace mlregress::internal
