#include "mlregress/checks/train_eval_mode.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <string_view>

#include "bitwise.h"
#include "tensor_text.h"

namespace mlregress::checks {
namespace {

// torch::nn layers whose forward() reads is_training(). Matched on the module's type name, so
// the functional forms (F::dropout(x, training)) and custom modules are not counted: a custom
// module that branches on the mode is exactly what the train/eval comparison should expose.
constexpr std::array<std::string_view, 11> kModeDependentTypes = {
    "Dropout",       "Dropout2d",   "Dropout3d",   "AlphaDropout",   "FeatureAlphaDropout",
    "BatchNorm1d",   "BatchNorm2d", "BatchNorm3d", "InstanceNorm1d", "InstanceNorm2d",
    "InstanceNorm3d"};

// "torch::nn::DropoutImpl" -> "Dropout"; empty for anything outside torch::nn.
std::string torch_layer_type(const std::string& name) {
  constexpr std::string_view kNamespace = "torch::nn::";
  constexpr std::string_view kImpl = "Impl";
  if (!name.starts_with(kNamespace) || !name.ends_with(kImpl)) return {};
  return name.substr(kNamespace.size(), name.size() - kNamespace.size() - kImpl.size());
}

bool is_mode_dependent(const torch::nn::Module& module) {
  const std::string type = torch_layer_type(module.name());
  return std::find(kModeDependentTypes.begin(), kModeDependentTypes.end(), type) !=
         kModeDependentTypes.end();
}

// The root is looked at apart from its submodules: named_modules(include_self = true) needs the
// root owned by a shared_ptr (shared_from_this), and a model held by value, as much code holds
// it, is not.
std::vector<std::string> mode_dependent_layers(const torch::nn::Module& module) {
  std::vector<std::string> found;
  if (is_mode_dependent(module)) {
    found.push_back(fmt::format("(root) ({})", torch_layer_type(module.name())));
  }
  for (const auto& item : module.named_modules("", /*include_self=*/false)) {
    if (is_mode_dependent(*item.value())) {
      found.push_back(fmt::format("{} ({})", item.key(), torch_layer_type(item.value()->name())));
    }
  }
  return found;
}

// Puts back what a forward pass in train mode changes: the training flag, buffers (batch-norm
// running statistics, num_batches_tracked) and the CPU generator (dropout masks).
class ModuleStateGuard {
 public:
  explicit ModuleStateGuard(torch::nn::Module& module)
      : module_(module), was_training_(module.is_training()) {
    for (const auto& buffer : module.buffers()) {
      buffers_.push_back(buffer);
      saved_buffers_.push_back(buffer.detach().clone());
    }
    at::Generator generator = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator_state_ = generator.get_state();
  }
  ModuleStateGuard(const ModuleStateGuard&) = delete;
  ModuleStateGuard& operator=(const ModuleStateGuard&) = delete;
  ~ModuleStateGuard() {
    torch::NoGradGuard no_grad;
    for (std::size_t i = 0; i < buffers_.size(); ++i) buffers_[i].copy_(saved_buffers_[i]);
    module_.train(was_training_);
    at::Generator generator = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(generator.mutex());
    generator.set_state(generator_state_);
  }

 private:
  torch::nn::Module& module_;
  bool was_training_;
  std::vector<torch::Tensor> buffers_;
  std::vector<torch::Tensor> saved_buffers_;
  torch::Tensor generator_state_;
};

bool same_bits(const torch::Tensor& a, const torch::Tensor& b) {
  return a.sizes().equals(b.sizes()) && a.scalar_type() == b.scalar_type() &&
         !detail::first_bitwise_difference(a, b);
}

double difference(const torch::Tensor& a, const torch::Tensor& b) {
  if (!a.sizes().equals(b.sizes())) return std::numeric_limits<double>::infinity();
  return detail::max_abs_difference(a, b);
}

}  // namespace

TrainEvalResult check_train_eval_modes(torch::nn::Module& module, const ForwardFunction& forward,
                                       const torch::Tensor& input) {
  TrainEvalResult result;
  result.mode_dependent_layers = mode_dependent_layers(module);
  torch::Tensor first_eval;
  torch::Tensor second_eval;
  torch::Tensor train_output;
  {
    ModuleStateGuard restore(module);
    torch::NoGradGuard no_grad;
    module.eval();
    first_eval = forward(input).detach().clone();
    second_eval = forward(input).detach().clone();
    module.train();
    train_output = forward(input).detach().clone();
  }
  result.eval_deterministic = same_bits(first_eval, second_eval);
  result.eval_max_abs_difference = difference(first_eval, second_eval);
  result.train_differs_from_eval = !same_bits(first_eval, train_output);
  result.train_eval_max_abs_difference = difference(first_eval, train_output);
  result.passed = result.eval_deterministic &&
                  (!result.train_differs_from_eval || !result.mode_dependent_layers.empty());
  return result;
}

::testing::AssertionResult TrainEvalResult::assertion() const {
  const std::string layers =
      fmt::format("mode-dependent layers: {}", detail::name_list(mode_dependent_layers));
  if (!eval_deterministic) {
    return ::testing::AssertionFailure() << fmt::format(
               "eval-mode forward is not deterministic: two calls on the same input differ by up "
               "to {:.3g}. Something still samples in eval mode (a functional dropout with "
               "training=true, a custom module ignoring is_training(), noise injection); {}",
               eval_max_abs_difference, layers);
  }
  if (train_differs_from_eval && mode_dependent_layers.empty()) {
    return ::testing::AssertionFailure() << fmt::format(
               "train-mode output differs from eval-mode output by up to {:.3g}, but the model "
               "has no dropout or batch-norm layer to explain it: some module branches on "
               "is_training()",
               train_eval_max_abs_difference);
  }
  return ::testing::AssertionSuccess()
         << fmt::format("eval-mode forward deterministic; train vs eval max difference {:.3g}; {}",
                        train_eval_max_abs_difference, layers);
}

ValidationRepeatabilityResult check_validation_repeatable(const std::function<double()>& validate) {
  // The generator is deliberately not reset between the calls: dropout left on must draw new
  // masks the second time, or the bug this check exists for would pass.
  ValidationRepeatabilityResult result;
  result.first = validate();
  result.second = validate();
  result.passed = std::isfinite(result.first) && std::bit_cast<std::uint64_t>(result.first) ==
                                                     std::bit_cast<std::uint64_t>(result.second);
  return result;
}

::testing::AssertionResult ValidationRepeatabilityResult::assertion() const {
  if (passed) {
    return ::testing::AssertionSuccess() << fmt::format("validation gave {} on both calls", first);
  }
  if (!std::isfinite(first) || !std::isfinite(second)) {
    return ::testing::AssertionFailure()
           << fmt::format("validation is not finite: {} then {}", first, second);
  }
  return ::testing::AssertionFailure() << fmt::format(
             "validation is not repeatable: {} then {} (difference {:.3g}). Is the model in "
             "eval() mode during validation (dropout left on)? Does validation update batch-norm "
             "statistics, or resample the evaluation set?",
             first, second, second - first);
}

}  // namespace mlregress::checks
