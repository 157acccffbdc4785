#include "mlregress/torch/compilation.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <set>
#include <stdexcept>

#include "mlregress/ml_test.h"
#include "mlregress/torch/op_counter.h"

namespace mlregress {
namespace {

// LibTorch's executor choice is global and read when a function first runs; this sets it for the
// measurement and puts back what the process had.
class ExecutorModeScope {
 public:
  explicit ExecutorModeScope(ScriptExecutor executor)
      : executor_mode_(torch::jit::getExecutorMode().load()),
        profiling_mode_(torch::jit::getProfilingMode().load()),
        optimize_(torch::jit::getGraphExecutorOptimize()) {
    const bool profiling = executor == ScriptExecutor::Profiling;
    torch::jit::getExecutorMode() = profiling;
    torch::jit::getProfilingMode() = profiling;
    // Without optimisation the legacy executor runs one fallback plan and counts nothing.
    torch::jit::setGraphExecutorOptimize(true);
  }
  ~ExecutorModeScope() {
    torch::jit::getExecutorMode() = executor_mode_;
    torch::jit::getProfilingMode() = profiling_mode_;
    torch::jit::setGraphExecutorOptimize(optimize_);
  }
  ExecutorModeScope(const ExecutorModeScope&) = delete;
  ExecutorModeScope& operator=(const ExecutorModeScope&) = delete;

 private:
  bool executor_mode_;
  bool profiling_mode_;
  bool optimize_;
};

// Counts the executor's compiled variants of one function as calls go.
class SpecialisationCounter {
 public:
  SpecialisationCounter(torch::jit::Function& function, ScriptExecutor executor)
      : function_(torch::jit::toGraphFunction(function)), executor_(executor) {}

  std::size_t count() {
    if (executor_ == ScriptExecutor::Legacy) {
      return function_.getDebugState().execution_plans.size();
    }
    // The profiling executor's debug state holds one plan at most (and asserts before it has
    // one). What can be seen is the graph its top-level run executed: the profiling graph, then
    // the optimised one. Fallback graphs and re-specialisations run through nested calls that
    // do not update it, so under this executor the count marks profiling → optimised only.
    if (const std::shared_ptr<torch::jit::Graph> graph = torch::jit::lastExecutedOptimizedGraph()) {
      if (seen_.insert(graph.get()).second) graphs_.push_back(graph);  // keep it alive: no reuse
    }
    return graphs_.size();
  }

 private:
  torch::jit::GraphFunction& function_;
  ScriptExecutor executor_;
  std::set<const torch::jit::Graph*> seen_;
  std::vector<std::shared_ptr<torch::jit::Graph>> graphs_;
};

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since)
      .count();
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// The spread the Timing policy expects, relative to the median: 1.4826 x the median absolute
// deviation (the sd for normal data), since a few calls of microseconds hit by a context switch
// would make the sd say nothing about the rest.
double relative_spread(const std::vector<double>& values) {
  if (values.size() < 2) return 0.0;
  const double m = median(values);
  std::vector<double> deviations;
  deviations.reserve(values.size());
  for (double v : values) deviations.push_back(std::fabs(v - m));
  return m > 0.0 ? 1.4826 * median(deviations) / m : 0.0;
}

std::string value_signature(const c10::IValue& value) {
  if (value.isTensor()) {
    const at::Tensor& t = value.toTensor();
    if (!t.defined()) return "undefined";
    return fmt::format("{}[{}]{}{}", c10::toString(t.scalar_type()), t.dim(),
                       t.is_cpu() ? std::string() : fmt::format("@{}", t.device().str()),
                       // The executor only tells requires_grad apart while grad mode is on.
                       t.requires_grad() && at::GradMode::is_enabled() ? "+grad" : "");
  }
  return value.tagKind();
}

ScriptedFunction checked(ScriptedFunction fresh) {
  if (fresh.function == nullptr) {
    throw std::invalid_argument("measure_compilation: the factory gave no function");
  }
  return fresh;
}

}  // namespace

ScriptedFunction script_function(const std::string& source, const std::string& name) {
  ScriptedFunction out;
  out.unit = torch::jit::compile(source);
  out.function = &out.unit->get_function(name);
  return out;
}

ScriptedFunction script_method(const torch::jit::Module& module, const std::string& method) {
  ScriptedFunction out;
  out.module = module;
  out.function = &module.get_method(method).function();
  return out;
}

std::string argument_signature(const std::vector<c10::IValue>& arguments) {
  std::vector<std::string> parts;
  parts.reserve(arguments.size());
  for (const c10::IValue& value : arguments) parts.push_back(value_signature(value));
  return fmt::format("{}", fmt::join(parts, ", "));
}

CompilationProfile measure_compilation(const std::function<ScriptedFunction()>& make,
                                       const std::vector<std::vector<c10::IValue>>& inputs,
                                       const CompilationOptions& options) {
  if (inputs.empty()) throw std::invalid_argument("measure_compilation: no inputs to call with");
  if (options.first_call_repeats < 1) {
    throw std::invalid_argument("measure_compilation: first_call_repeats must be >= 1");
  }
  const ExecutorModeScope mode(options.executor);
  CompilationProfile profile;
  profile.executor = options.executor;
  // A module's method takes the module itself first.
  const auto arguments = [](const ScriptedFunction& f, const std::vector<c10::IValue>& args) {
    std::vector<c10::IValue> stack;
    if (f.unit == nullptr) stack.emplace_back(f.module._ivalue());
    stack.insert(stack.end(), args.begin(), args.end());
    return stack;
  };
  // The process's first TorchScript call also pays one-off initialisation (operator tables,
  // optimisation passes' statics): a copy called once, untimed, keeps that out of first_call_ms.
  {
    const ScriptedFunction warm_up = checked(make());
    (*warm_up.function)(arguments(warm_up, inputs.front()));
  }

  // Pass 1, the sequence on a fresh copy: what compiled, and the operators each call ran
  // (compilation's own operator calls included: re-work shows without a timing).
  const ScriptedFunction fresh = checked(make());
  SpecialisationCounter specialisations(*fresh.function, options.executor);
  std::size_t before = specialisations.count();
  if (before != 0) {
    throw std::invalid_argument(
        "measure_compilation: the factory gave a function that has run before; it must give a "
        "fresh copy each time (compile or load it inside)");
  }
  std::set<std::string> signatures;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    CompilationCall call;
    call.signature = argument_signature(inputs[i]);
    signatures.insert(call.signature);
    std::vector<c10::IValue> stack = arguments(fresh, inputs[i]);
    OpCounter operators;
    const auto start = std::chrono::steady_clock::now();
    c10::IValue output = (*fresh.function)(std::move(stack));
    call.ms = elapsed_ms(start);
    operators.stop();
    call.operators = operators.total();
    const std::size_t after = specialisations.count();
    call.compiled = after > before;
    before = after;
    profile.compiling_calls += call.compiled ? 1 : 0;
    profile.operators += call.operators;
    profile.outputs.push_back(std::move(output));
    profile.calls.push_back(std::move(call));
  }
  profile.specialisations = before;
  profile.argument_signatures = signatures.size();

  // Pass 2, the same sequence again with everything compiled and nothing counting: the steady
  // state over the same inputs for any candidate, whatever compiled in pass 1.
  std::vector<double> steady;
  for (const std::vector<c10::IValue>& args : inputs) {
    std::vector<c10::IValue> stack = arguments(fresh, args);
    const auto start = std::chrono::steady_clock::now();
    (*fresh.function)(std::move(stack));
    steady.push_back(elapsed_ms(start));
  }

  // First calls of more fresh copies, nothing counting.
  for (std::size_t r = 0; r < options.first_call_repeats; ++r) {
    const ScriptedFunction copy = checked(make());
    std::vector<c10::IValue> stack = arguments(copy, inputs.front());
    const auto start = std::chrono::steady_clock::now();
    (*copy.function)(std::move(stack));
    profile.first_call_ms.push_back(elapsed_ms(start));
  }
  profile.first_call_median_ms = median(profile.first_call_ms);
  profile.first_call_cv = relative_spread(profile.first_call_ms);
  profile.steady_state_ms = median(steady);
  profile.steady_state_cv = relative_spread(steady);
  return profile;
}

std::string CompilationProfile::describe() const {
  std::vector<std::string> at;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (calls[i].compiled) at.push_back(fmt::format("{} ({})", i + 1, calls[i].signature));
  }
  return fmt::format(
      "{} specialisation{} ({} executor) over {} calls, compiled at call {}; {} argument "
      "signature{}; {} operator calls; first call {:.3g} ms (median of {}), then {:.3g} ms",
      specialisations, specialisations == 1 ? "" : "s",
      executor == ScriptExecutor::Legacy ? "legacy" : "profiling", calls.size(),
      at.empty() ? "none" : fmt::format("{}", fmt::join(at, ", ")), argument_signatures,
      argument_signatures == 1 ? "" : "s", operators, first_call_median_ms, first_call_ms.size(),
      steady_state_ms);
}

void record_compilation(std::string_view name, const CompilationProfile& profile,
                        CompilationMetrics metrics) {
  const auto count = [&](std::string_view what, double value) {
    MlTest::record(fmt::format("{}.{}", name, what), value, Direction::LowerIsBetter, Exact{});
  };
  count("specialisations", static_cast<double>(profile.specialisations));
  count("compiling_calls", static_cast<double>(profile.compiling_calls));
  count("argument_signatures", static_cast<double>(profile.argument_signatures));
  count("operators", static_cast<double>(profile.operators));
  if (metrics == CompilationMetrics::CountsOnly) return;
  MlTest::record(fmt::format("{}.first_call_ms", name), profile.first_call_median_ms,
                 Direction::LowerIsBetter, Timing{.cv = profile.first_call_cv});
  MlTest::record(fmt::format("{}.steady_state_ms", name), profile.steady_state_ms,
                 Direction::LowerIsBetter, Timing{.cv = profile.steady_state_cv});
}

}  // namespace mlregress
