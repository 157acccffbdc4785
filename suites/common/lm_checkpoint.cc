#include "lm_checkpoint.h"

#include <sstream>

namespace mlregress::examples {
namespace {

std::string shape_text(const torch::Tensor& tensor) {
  std::ostringstream text;
  text << tensor.sizes();
  return text.str();
}

// Module::load would replace a tensor of another shape without a word (and the next forward
// would fail far away); each tensor is read and checked against the model's here instead.
void load_module(torch::nn::Module& module, torch::serialize::InputArchive& archive,
                 const std::string& path, const std::string& prefix) {
  torch::NoGradGuard no_grad;
  auto load_tensor = [&](const std::string& name, torch::Tensor& target, bool is_buffer) {
    torch::Tensor stored;
    if (!archive.try_read(name, stored, is_buffer)) {
      throw CheckpointError(path + ": no tensor '" + prefix + name +
                            "' (the model has one of shape " + shape_text(target) + ")");
    }
    if (stored.sizes() != target.sizes()) {
      throw CheckpointError(path + ": tensor '" + prefix + name + "' has shape " +
                            shape_text(stored) + ", the model's is " + shape_text(target));
    }
    target.copy_(stored);
  };
  for (auto& parameter : module.named_parameters(/*recurse=*/false)) {
    load_tensor(parameter.key(), parameter.value(), false);
  }
  for (auto& buffer : module.named_buffers(/*recurse=*/false)) {
    load_tensor(buffer.key(), buffer.value(), true);
  }
  for (const auto& child : module.named_children()) {
    torch::serialize::InputArchive child_archive;
    if (!archive.try_read(child.key(), child_archive)) {
      throw CheckpointError(path + ": no module '" + prefix + child.key() + "'");
    }
    load_module(*child.value(), child_archive, path, prefix + child.key() + ".");
  }
}

}  // namespace

void save_checkpoint(LmTrainer& trainer, const std::string& path) {
  torch::serialize::OutputArchive archive;
  torch::serialize::OutputArchive model;
  trainer.model()->save(model);
  archive.write("model", model);
  torch::serialize::OutputArchive optimizer;
  trainer.optimizer().save(optimizer);
  archive.write("optimizer", optimizer);
  archive.write("steps_done", torch::tensor(trainer.steps_done(), torch::kLong));
  archive.save_to(path);
}

void load_checkpoint(LmTrainer& trainer, const std::string& path, const CheckpointParts& parts) {
  torch::serialize::InputArchive archive;
  try {
    archive.load_from(path);
  } catch (const c10::Error& error) {
    throw CheckpointError(path + ": not a readable checkpoint (" +
                          std::string(error.what_without_backtrace()) + ")");
  }
  torch::serialize::InputArchive model;
  if (!archive.try_read("model", model)) throw CheckpointError(path + ": no model in it");
  load_module(*trainer.model(), model, path, "");
  if (!parts.optimizer) return;
  torch::serialize::InputArchive optimizer;
  torch::Tensor steps_done;
  if (!archive.try_read("optimizer", optimizer) || !archive.try_read("steps_done", steps_done)) {
    throw CheckpointError(path + ": no optimizer state in it");
  }
  try {
    trainer.optimizer().load(optimizer);
  } catch (const c10::Error& error) {
    throw CheckpointError(path + ": optimizer state does not fit (" +
                          std::string(error.what_without_backtrace()) + ")");
  }
  trainer.set_steps_done(steps_done.item<std::int64_t>());
}

}  // namespace mlregress::examples
