// measure_compilation's counts are exact: one specialisation per argument signature under the
// legacy executor (batch length never counts; rank, dtype and requires_grad do), the call that
// compiled each, the same figures for a fresh copy measured again, and the profiling executor's
// optimised graphs. Each planted signature change is seen; the executor setting is restored.
#include "mlregress/torch/compilation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>

namespace mlregress {
namespace {

using ::testing::HasSubstr;

constexpr const char* kSource = R"(
def forward(x):
    return torch.relu(x * 2.0).sum(-1)
)";

ScriptedFunction fresh() { return script_function(kSource, "forward"); }

// Batches of 4, 5, 6, ... rows of 3 features: one argument signature.
std::vector<std::vector<c10::IValue>> batches(int n) {
  std::vector<std::vector<c10::IValue>> inputs;
  for (int i = 0; i < n; ++i) inputs.push_back({torch::ones({4 + i, 3})});
  return inputs;
}

std::vector<std::size_t> compiled_calls(const CompilationProfile& p) {
  std::vector<std::size_t> at;
  for (std::size_t i = 0; i < p.calls.size(); ++i) {
    if (p.calls[i].compiled) at.push_back(i + 1);
  }
  return at;
}

CompilationOptions quick(ScriptExecutor executor = ScriptExecutor::Legacy) {
  return CompilationOptions{.executor = executor, .first_call_repeats = 2};
}

TEST(MeasureCompilation, VaryingBatchLengthIsOneSpecialisation) {
  const CompilationProfile p = measure_compilation(fresh, batches(10), quick());
  EXPECT_EQ(p.specialisations, 1u);
  EXPECT_EQ(p.compiling_calls, 1u);
  EXPECT_EQ(p.argument_signatures, 1u);
  EXPECT_EQ(compiled_calls(p), (std::vector<std::size_t>{1}));
  EXPECT_EQ(p.calls[0].signature, "Float[2]");
  EXPECT_EQ(p.outputs.size(), 10u);
  EXPECT_TRUE(torch::equal(p.outputs[3].toTensor(), torch::full({7}, 6.0f)));
  EXPECT_EQ(p.first_call_ms.size(), 2u);  // first_call_repeats fresh copies
  EXPECT_GT(p.first_call_median_ms, 0.0);
  EXPECT_GT(p.steady_state_ms, 0.0);
}

TEST(MeasureCompilation, EachNewRankDtypeOrRequiresGradIsASpecialisationAtItsCall) {
  std::vector<std::vector<c10::IValue>> inputs = batches(4);
  inputs.push_back({torch::ones({3})});                          // call 5: unbatched
  inputs.push_back({torch::ones({4, 3})});                       // back to a batch
  inputs.push_back({torch::ones({4, 3}).requires_grad_(true)});  // call 7: requires_grad
  inputs.push_back({torch::ones({4, 3}, torch::kDouble)});       // call 8: double
  inputs.push_back({torch::ones({3})});                          // seen before
  inputs.push_back({torch::ones({2, 4, 3})});                    // call 10: rank 3
  const CompilationProfile p = measure_compilation(fresh, inputs, quick());
  EXPECT_EQ(compiled_calls(p), (std::vector<std::size_t>{1, 5, 7, 8, 10}));
  EXPECT_EQ(p.specialisations, 5u);
  EXPECT_EQ(p.compiling_calls, 5u);
  EXPECT_EQ(p.argument_signatures, 5u);
  EXPECT_EQ(p.calls[6].signature, "Float[2]+grad");
  EXPECT_EQ(p.calls[7].signature, "Double[2]");
  EXPECT_THAT(p.describe(), HasSubstr("5 specialisations (legacy executor) over 10 calls"));
  EXPECT_THAT(p.describe(), HasSubstr("compiled at call 1 (Float[2]), 5 (Float[1]),"));
}

TEST(MeasureCompilation, CountsAndOperatorsRepeatExactlyOnAFreshCopy) {
  std::vector<std::vector<c10::IValue>> inputs = batches(6);
  inputs.push_back({torch::ones({3})});
  const CompilationProfile a = measure_compilation(fresh, inputs, quick());
  const CompilationProfile b = measure_compilation(fresh, inputs, quick());
  EXPECT_EQ(a.specialisations, b.specialisations);
  EXPECT_EQ(compiled_calls(a), compiled_calls(b));
  EXPECT_GT(a.operators, 0);
  EXPECT_EQ(a.operators, b.operators);
  for (std::size_t i = 0; i < a.calls.size(); ++i) {
    EXPECT_EQ(a.calls[i].operators, b.calls[i].operators) << "call " << i + 1;
  }
}

// Without a fuser (Debian's CPU LibTorch has none) the profiling executor profiles, then runs one
// optimised graph whatever the signatures: two graphs, while the legacy executor counts three.
TEST(MeasureCompilation, TheProfilingExecutorCountsItsOptimisedGraphs) {
  std::vector<std::vector<c10::IValue>> inputs = batches(6);
  inputs.push_back({torch::ones({3})});
  inputs.push_back({torch::ones({4, 3}).requires_grad_(true)});
  const CompilationProfile p = measure_compilation(fresh, inputs, quick(ScriptExecutor::Profiling));
  EXPECT_EQ(p.executor, ScriptExecutor::Profiling);
  EXPECT_EQ(p.specialisations, 2u);
  EXPECT_EQ(compiled_calls(p), (std::vector<std::size_t>{1, 2}));
  EXPECT_EQ(p.argument_signatures, 3u);
  EXPECT_EQ(measure_compilation(fresh, inputs, quick()).specialisations, 3u);
}

TEST(MeasureCompilation, TheProcessExecutorSettingIsRestored) {
  const bool executor = torch::jit::getExecutorMode();
  const bool profiling = torch::jit::getProfilingMode();
  measure_compilation(fresh, batches(2), quick(ScriptExecutor::Legacy));
  EXPECT_EQ(torch::jit::getExecutorMode(), executor);
  EXPECT_EQ(torch::jit::getProfilingMode(), profiling);
  EXPECT_THROW(measure_compilation([]() -> ScriptedFunction { throw std::runtime_error("x"); },
                                   batches(2), quick(ScriptExecutor::Legacy)),
               std::runtime_error);
  EXPECT_EQ(torch::jit::getExecutorMode(), executor);
  EXPECT_EQ(torch::jit::getProfilingMode(), profiling);
}

TEST(MeasureCompilation, AModulesMethodGetsItsSelf) {
  const auto make = [] {
    torch::jit::Module module("Scale");
    module.register_parameter("weight", torch::full({3}, 3.0f), /*is_buffer=*/false);
    module.define(R"(
def forward(self, x):
    return (x * self.weight).sum(-1)
)");
    return script_method(module);
  };
  std::vector<std::vector<c10::IValue>> inputs = batches(3);
  inputs.push_back({torch::ones({3})});
  const CompilationProfile p = measure_compilation(make, inputs, quick());
  EXPECT_EQ(p.specialisations, 2u);
  EXPECT_TRUE(torch::equal(p.outputs[0].toTensor().detach(), torch::full({4}, 9.0f)));
}

// A factory handing out the same function twice: its executor already holds a plan.
TEST(MeasureCompilation, AFunctionThatRanBeforeIsRefused) {
  const ScriptedFunction once = fresh();
  const auto same = [&] { return once; };
  try {
    measure_compilation(same, batches(2), quick());
    ADD_FAILURE() << "a function that had run was measured";
  } catch (const std::invalid_argument& error) {
    EXPECT_THAT(error.what(), HasSubstr("has run before"));
  }
}

// Under NoGradGuard the executor does not tell requires_grad apart: neither do the signatures.
TEST(MeasureCompilation, RequiresGradCountsOnlyWithGradModeOn) {
  std::vector<std::vector<c10::IValue>> inputs = batches(3);
  inputs.push_back({torch::ones({4, 3}).requires_grad_(true)});
  const torch::NoGradGuard no_grad;
  const CompilationProfile p = measure_compilation(fresh, inputs, quick());
  EXPECT_EQ(p.argument_signatures, 1u);
  EXPECT_EQ(p.specialisations, 1u);
}

TEST(MeasureCompilation, BadInputIsRefused) {
  EXPECT_THROW(measure_compilation(fresh, {}, quick()), std::invalid_argument);
  EXPECT_THROW(measure_compilation([] { return ScriptedFunction{}; }, batches(1), quick()),
               std::invalid_argument);
  EXPECT_THROW(measure_compilation(fresh, batches(1), {.first_call_repeats = 0}),
               std::invalid_argument);
  EXPECT_EQ(argument_signature({torch::ones({2}, torch::kLong), c10::IValue(3)}), "Long[1], Int");
}

}  // namespace
}  // namespace mlregress
