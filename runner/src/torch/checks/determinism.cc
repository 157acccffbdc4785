#include "mlregress/checks/determinism.h"

#include <fmt/format.h>

#include <bit>

#include "bitwise.h"
#include "tensor_text.h"

namespace mlregress::checks {
namespace {

struct NamedTensor {
  std::string name;
  torch::Tensor value;
};

std::vector<NamedTensor> state_of(const torch::nn::Module& module) {
  std::vector<NamedTensor> state;
  for (const auto& item : module.named_parameters()) {
    state.push_back({"parameter " + item.key(), item.value()});
  }
  for (const auto& item : module.named_buffers()) {
    state.push_back({"buffer " + item.key(), item.value()});
  }
  return state;
}

std::string describe_tensor(const NamedTensor& t) {
  return fmt::format("{} {} {}", t.name, detail::shape_text(t.value.sizes()),
                     std::string(c10::toString(t.value.scalar_type())));
}

void compare_states(const torch::nn::Module& first, const torch::nn::Module& second,
                    DeterminismResult& result) {
  const std::vector<NamedTensor> a = state_of(first);
  const std::vector<NamedTensor> b = state_of(second);
  if (a.size() != b.size()) {
    result.structure_mismatch =
        fmt::format("the runs' modules have {} and {} parameters and buffers", a.size(), b.size());
    return;
  }
  for (std::size_t i = 0; i < a.size(); ++i) {
    const torch::Tensor& x = a[i].value;
    const torch::Tensor& y = b[i].value;
    if (a[i].name != b[i].name || !x.sizes().equals(y.sizes()) ||
        x.scalar_type() != y.scalar_type()) {
      result.structure_mismatch =
          fmt::format("{} vs {}", describe_tensor(a[i]), describe_tensor(b[i]));
      return;
    }
    const std::optional<std::int64_t> flat = detail::first_bitwise_difference(x, y);
    if (!flat) continue;
    TensorDifference difference;
    difference.name = a[i].name;
    difference.shape = x.sizes().vec();
    difference.first_index = detail::unravel_index(x.sizes(), *flat);
    difference.first_value = x.detach().reshape(-1)[*flat].to(torch::kFloat64).item<double>();
    difference.second_value = y.detach().reshape(-1)[*flat].to(torch::kFloat64).item<double>();
    difference.max_abs_difference = detail::max_abs_difference(x, y);
    result.first_differing_tensor = std::move(difference);
    return;
  }
}

TrainingRun run_once(const std::function<TrainingRun()>& train, const DeterminismOptions& options) {
  if (options.seed) torch::manual_seed(*options.seed);
  TrainingRun run = train();
  TORCH_CHECK(run.module != nullptr, "check_determinism: the training function returned no module");
  return run;
}

}  // namespace

DeterminismSettings DeterminismSettings::current() {
  DeterminismSettings settings;
  settings.intra_op_threads = at::get_num_threads();
  settings.deterministic_algorithms = at::globalContext().deterministicAlgorithms();
  settings.deterministic_warn_only = at::globalContext().deterministicAlgorithmsWarnOnly();
  return settings;
}

std::string DeterminismSettings::describe() const {
  return fmt::format(
      "intra-op threads {}, deterministic algorithms {}", intra_op_threads,
      deterministic_algorithms ? (deterministic_warn_only ? "on (warn only)" : "on") : "off");
}

DeterminismResult check_determinism(const std::function<TrainingRun()>& train,
                                    const DeterminismOptions& options) {
  DeterminismResult result;
  result.settings = DeterminismSettings::current();
  const TrainingRun first = run_once(train, options);
  const TrainingRun second = run_once(train, options);
  result.settings_after = DeterminismSettings::current();
  result.settings_changed_by_run =
      result.settings_after.intra_op_threads != result.settings.intra_op_threads ||
      result.settings_after.deterministic_algorithms != result.settings.deterministic_algorithms ||
      result.settings_after.deterministic_warn_only != result.settings.deterministic_warn_only;
  result.first_losses = first.losses;
  result.second_losses = second.losses;

  const std::size_t common = std::min(first.losses.size(), second.losses.size());
  for (std::size_t step = 0; step < common; ++step) {
    if (std::bit_cast<std::uint64_t>(first.losses[step]) !=
        std::bit_cast<std::uint64_t>(second.losses[step])) {
      result.first_differing_step = static_cast<std::int64_t>(step);
      break;
    }
  }
  if (!result.first_differing_step && first.losses.size() != second.losses.size()) {
    result.first_differing_step = static_cast<std::int64_t>(common);
  }
  compare_states(*first.module, *second.module, result);
  result.passed =
      !result.first_differing_step && !result.first_differing_tensor && !result.structure_mismatch;
  return result;
}

::testing::AssertionResult DeterminismResult::assertion() const {
  std::string settings_text = settings.describe();
  if (settings_changed_by_run) {
    settings_text +=
        fmt::format(" (the training function changed them to: {})", settings_after.describe());
  }
  if (passed) {
    return ::testing::AssertionSuccess()
           << fmt::format("two runs bit-identical: {} losses, all parameters and buffers; {}",
                          first_losses.size(), settings_text);
  }
  ::testing::AssertionResult failure = ::testing::AssertionFailure();
  failure << "two runs of the same training differ; " << settings_text;
  if (first_differing_step) {
    const auto step = static_cast<std::size_t>(*first_differing_step);
    if (step < first_losses.size() && step < second_losses.size()) {
      failure << fmt::format("\n  losses first differ at step {}: {} vs {}", step,
                             first_losses[step], second_losses[step]);
    } else {
      failure << fmt::format("\n  the runs have {} and {} losses", first_losses.size(),
                             second_losses.size());
    }
  }
  if (structure_mismatch) failure << "\n  modules differ in structure: " << *structure_mismatch;
  if (first_differing_tensor) {
    const TensorDifference& d = *first_differing_tensor;
    failure << fmt::format(
        "\n  first differing tensor: {} {} at {}: {} vs {} (max abs difference "
        "{:.3g})",
        d.name, detail::shape_text(d.shape), detail::index_text(d.first_index), d.first_value,
        d.second_value, d.max_abs_difference);
  }
  if (settings.intra_op_threads != 1) {
    failure << "\n  more than one intra-op thread can reorder floating-point reductions: "
               "at::set_num_threads(1)";
  }
  return failure << "\n  check that the function seeds torch (and any other RNG) the same way "
                    "on every call";
}

}  // namespace mlregress::checks
