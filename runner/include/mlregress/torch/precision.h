// Mixed precision as an experiment: the precision a test computes in (fp32, bf16, fp16), named
// the way a test parameter spells it, and an RAII scope that turns on LibTorch's C++ autocast.
//
// What autocast does: while it is on for a device, the operators on autocast's lower-precision
// list (matrix products, linear layers, convolutions: mm, addmm, bmm, linear, conv*) cast
// their floating-point inputs of that device to the autocast dtype and return results in it;
// operators on its fp32 list (many losses, reductions and normalisations; the lists differ by
// device and LibTorch version) compute in fp32; every other operator runs in its inputs' dtype.
// Nothing is converted in place: the parameters stay fp32 (a test's `dtype` property, which reads
// the parameters, still says float32), their casts are cached for the scope, and the gradients that
// flow back to them are fp32. As in PyTorch's recipe, run the forward pass and the loss inside the
// scope and the backward pass and the optimizer's update outside it.
//
//   const Precision precision = parse_precision(param<std::string>("precision"));
//   record_property("precision", precision_name(precision));
//   torch::Tensor loss;
//   {
//     const AutocastScope autocast(precision);  // fp32: does nothing
//     loss = loss_function(model->forward(inputs), targets);
//   }
//   loss.backward();
//   optimizer.step();
//
// A test that records its precision as a property (record_property above) lets `compare` and the
// report say "properties changed: precision fp32 → bf16" next to the metrics that moved.
#pragma once

#include <c10/core/DeviceType.h>
#include <c10/core/ScalarType.h>

#include <string_view>

namespace mlregress {

enum class Precision {
  kFloat32,   ///< "fp32": no autocast, everything in float32
  kBFloat16,  ///< "bf16": autocast to bfloat16 (CPU and CUDA)
  kFloat16,   ///< "fp16": autocast to float16 (CUDA only)
};

/// "fp32", "bf16" or "fp16" to its Precision; anything else throws std::invalid_argument naming
/// the text and the accepted values.
Precision parse_precision(std::string_view text);

/// The name parse_precision() accepts: "fp32", "bf16", "fp16".
std::string_view precision_name(Precision precision);

/// RAII: LibTorch's autocast on for `device` at `precision` from construction to destruction,
/// then the device's previous autocast state (enabled flag and dtype) back. kFloat32 does
/// nothing (inside an outer bf16 scope, autocast stays on). Scopes nest; leaving the outermost one
/// clears autocast's cache of cast weights, as PyTorch's torch.autocast does. fp16 on the CPU
/// throws std::invalid_argument ("fp16 autocast needs CUDA"): Debian's LibTorch 1.13 has no float16
/// matrix products on the CPU, and the same experiment must mean the same on every build. A device
/// other than CPU or CUDA throws as well. Autocast's state is per thread: the scope covers the
/// operators of the thread that made it.
class AutocastScope {
 public:
  explicit AutocastScope(Precision precision, c10::DeviceType device = c10::DeviceType::CPU);
  ~AutocastScope();
  AutocastScope(const AutocastScope&) = delete;
  AutocastScope& operator=(const AutocastScope&) = delete;

 private:
  bool active_ = false;  ///< false for kFloat32: the destructor restores nothing
  c10::DeviceType device_;
  bool previous_enabled_ = false;
  c10::ScalarType previous_dtype_ = c10::ScalarType::Undefined;
};

}  // namespace mlregress
