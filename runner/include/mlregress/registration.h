// Registration of ML tests: what ML_TEST and its variants expand to, called during static
// initialisation. Implemented by the registry (runner/src/core/registry/registration.cc).
#pragma once

#include "mlregress/attempts.h"
#include "mlregress/param.h"
#include "mlregress/seeds.h"
#include "mlregress/tier.h"

namespace mlregress {

class MlTest;

namespace internal {
using TestFactory = MlTest* (*)();
/// Called by ML_TEST during static initialisation. Never throws: problems (duplicate names,
/// invalid parameters) are collected and reported when the binary starts.
struct PlainTestTag {};
bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, PlainTestTag) noexcept;
/// The same for ML_SEED_TEST: the body runs once per seed (and variant).
bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, Seeds seeds) noexcept;
/// The same for ML_FLAKY_TEST: the body runs as attempts, its failure rate gated.
bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, Attempts attempts) noexcept;
/// The same for ML_TIMING_TEST.
struct TimingTestTag {};
bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, TimingTestTag) noexcept;
/// The same for ML_CAPABILITY_TEST.
struct CapabilityTestTag {};
bool register_ml_test(Tier tier, const char* name, const char* file, int line, ParamSpecs params,
                      TestFactory factory, CapabilityTestTag) noexcept;
}  // namespace internal

}  // namespace mlregress
