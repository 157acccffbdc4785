// Compiler regressions in TorchScript: "baseline recompiles = 1, candidate recompiles = 37: the
// model may still produce identical outputs, but a change in shape behaviour has altered the
// execution system". measure_compilation() runs a scripted function (or a module's method) over
// a fixed sequence of inputs and reports what its graph executor did:
//
//   ML_TEST(Medium, ScriptedModelCompiles) {
//     const auto profile = measure_compilation(
//         [] { return script_function(kSource, "forward"); }, inputs);
//     record_compilation("forward", profile);  // forward.specialisations, ... (Exact / Timing)
//   }
//
// Counts, exact and repeatable run to run (they depend only on the inputs' signatures):
//   specialisations     the executor's compiled variants at the end of the sequence. Under the
//                       legacy executor (the default here): its execution plans, one per argument
//                       signature (each tensor's dtype, rank, device and requires_grad; not its
//                       sizes), compiled on the first call that has a new one. Under LibTorch's
//                       profiling executor: the distinct graphs its top-level run executed, in
//                       practice 2 (profiling, then optimised): its fallbacks and
//                       re-specialisations run through nested calls this cannot see.
//   compiling_calls     the calls after which there was one more specialisation.
//   argument_signatures the distinct input signatures in the sequence, whatever the executor.
//   operators           ATen operator calls over the sequence, compilation's own included
//                       (OpCounter): re-work without timing.
// Timings (gated with the Timing policy, on the same environment profile only):
//   first_call_ms       the first call of a fresh copy (optimisation and compilation included),
//                       median over CompilationOptions::first_call_repeats fresh copies, after
//                       one untimed copy has paid the process's one-off initialisation.
//   steady_state_ms     the median call of a second pass over the whole sequence, everything
//                       compiled: the same inputs for baseline and candidate.
// Nothing is timed while operators are counted.
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress {

/// Which graph executor runs the function while it is measured (LibTorch's global setting,
/// restored afterwards; the executor of a function is chosen on its first call).
enum class ScriptExecutor {
  /// getExecutorMode() = false: one execution plan per argument signature, an exact count.
  Legacy,
  /// getExecutorMode() = getProfilingMode() = true, LibTorch's default: profiles the first
  /// getNumProfiledRuns() calls, then runs a graph optimised for what it saw; only a fuser adds
  /// shape guards (NNC's CPU fusion is off by default, Debian's CPU LibTorch 1.13 has no LLVM),
  /// so on CPU it does not re-specialise, and its count is 2 whatever the inputs.
  Profiling,
};

/// A TorchScript function never called yet, with what keeps it alive.
struct ScriptedFunction {
  std::shared_ptr<torch::jit::CompilationUnit> unit;  ///< script_function's
  torch::jit::Module module;  ///< script_method's (used when `unit` is null: `self`)
  torch::jit::Function* function = nullptr;
};

/// Compiles `source` (TorchScript, no Python needed) and takes its function `name`.
ScriptedFunction script_function(const std::string& source, const std::string& name);
/// A module's method, e.g. of torch::jit::load("model.pt"): load it again for a fresh copy.
ScriptedFunction script_method(const torch::jit::Module& module,
                               const std::string& method = "forward");

struct CompilationOptions {
  ScriptExecutor executor = ScriptExecutor::Legacy;
  /// Fresh copies whose first call is timed (the first of them also runs the whole sequence).
  std::size_t first_call_repeats = 5;
};

/// One call of the sequence.
struct CompilationCall {
  std::string signature;       ///< "Float[2], Float[1]+grad": dtype, rank, requires_grad per tensor
  double ms = 0.0;             ///< wall time in the counting pass: compiling calls stand out
  bool compiled = false;       ///< the executor had one more specialisation after it
  std::int64_t operators = 0;  ///< ATen operator calls during it
};

struct CompilationProfile {
  ScriptExecutor executor = ScriptExecutor::Legacy;
  std::vector<CompilationCall> calls;
  std::vector<c10::IValue> outputs;  ///< each call's result: "identical outputs" is checkable
  std::size_t specialisations = 0;
  std::size_t compiling_calls = 0;
  std::size_t argument_signatures = 0;
  std::int64_t operators = 0;
  std::vector<double> first_call_ms;  ///< one per fresh copy
  double first_call_median_ms = 0.0;
  double first_call_cv = 0.0;  ///< 1.4826 x median absolute deviation / median
  double steady_state_ms = 0.0;
  double steady_state_cv = 0.0;  ///< the same robust spread, of the steady calls

  /// "2 specialisations (legacy executor) over 24 calls, compiled at call 1 (Float[2]), 4
  /// (Float[1]); 2 argument signatures; 384 operator calls; first call 0.33 ms (median of 5),
  /// then 0.0204 ms"
  std::string describe() const;
};

/// Calls one fresh function from `make` once (untimed warm-up), runs another over `inputs` (one
/// argument list per call) with the chosen executor, twice (counting, then timing), then the
/// first call of `first_call_repeats` more fresh copies. `make` must give
/// a copy never called before (compile or load it inside). Throws std::invalid_argument for an
/// empty sequence, a null function or one that has run before; what the function throws
/// propagates.
CompilationProfile measure_compilation(const std::function<ScriptedFunction()>& make,
                                       const std::vector<std::vector<c10::IValue>>& inputs,
                                       const CompilationOptions& options = {});

/// The signature measure_compilation groups calls by: "Float[2], Long[1], Double[0]+grad, Int"
/// (a tensor off the CPU adds "@cuda:0"; other values give their kind).
std::string argument_signature(const std::vector<c10::IValue>& arguments);

/// What record_compilation records.
enum class CompilationMetrics {
  CountsAndLatencies,  ///< the counts and the two timings
  /// The counts only: for a baseline gated on shared CI machines, where a latency band of a few
  /// percent would cry wolf (time it on a quiet machine, or with `run --ab`).
  CountsOnly,
};

/// Records the profile in the running test: <name>.specialisations, <name>.compiling_calls,
/// <name>.argument_signatures and <name>.operators as Exact values (lower is better), and,
/// unless CountsOnly, <name>.first_call_ms and <name>.steady_state_ms as timings.
void record_compilation(std::string_view name, const CompilationProfile& profile,
                        CompilationMetrics metrics = CompilationMetrics::CountsAndLatencies);

}  // namespace mlregress
