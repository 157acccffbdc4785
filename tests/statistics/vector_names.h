// The names of vectors.h that the statistics tests use unqualified, brought into the namespace
// of the functions under test.
#pragma once

#include "vectors.h"

namespace mlregress::internal::stats {

using test_vectors::kRelativeTolerance;
using test_vectors::MaxError;
using test_vectors::number;
using test_vectors::numbers;
using test_vectors::relative_error;
using test_vectors::vectors;

}  // namespace mlregress::internal::stats
