// The GPUs ctest gave a test. With RESOURCE_GROUPS set on a test (mlregress_discover_tests
// GPUS n) and `ctest --resource-spec-file`, ctest never runs two tests on one device at once and
// tells each test its share through CTEST_RESOURCE_GROUP_COUNT, CTEST_RESOURCE_GROUP_<i> (the
// resource type, "gpus") and CTEST_RESOURCE_GROUP_<i>_GPUS ("id:1,slots:1"). The runner turns
// the ids into CUDA_VISIBLE_DEVICES for its test processes, so a test uses cuda:0 and gets the
// device ctest chose.
#pragma once

#include <string>
#include <vector>

#include "support/environment_variables.h"

namespace mlregress::internal {

/// The ids of the "gpus" resources ctest allocated, in group order; empty when ctest allocated
/// none. Throws ConfigError naming the variable when one is malformed.
std::vector<std::string> ctest_gpu_ids(const EnvironmentLookup& environment);

}  // namespace mlregress::internal
