#include "mlregress/torch/precision.h"

#include <ATen/autocast_mode.h>
#include <fmt/format.h>
#include <torch/version.h>

#include <stdexcept>
#include <string>

// LibTorch 2.4 made autocast's C++ API take the device type (is_autocast_enabled(device),
// set_autocast_dtype(device, dtype)) and deprecated the per-device functions; before it (Debian's
// LibTorch 1.13 among them) there is one function per device: is_enabled()/set_enabled() and
// get_/set_autocast_gpu_dtype() for CUDA, is_cpu_enabled()/set_cpu_enabled() and
// get_/set_autocast_cpu_dtype() for the CPU.
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
#define MLREGRESS_AUTOCAST_BY_DEVICE_TYPE 1
#else
#define MLREGRESS_AUTOCAST_BY_DEVICE_TYPE 0
#endif

namespace mlregress {
namespace {

struct PrecisionName {
  Precision precision;
  std::string_view name;
};

constexpr PrecisionName kPrecisionNames[] = {
    {Precision::kFloat32, "fp32"},
    {Precision::kBFloat16, "bf16"},
    {Precision::kFloat16, "fp16"},
};

c10::ScalarType autocast_dtype(Precision precision) {
  return precision == Precision::kFloat16 ? c10::ScalarType::Half : c10::ScalarType::BFloat16;
}

void check_autocast_device(Precision precision, c10::DeviceType device) {
  if (device != c10::DeviceType::CPU && device != c10::DeviceType::CUDA) {
    throw std::invalid_argument(
        fmt::format("autocast on device {}: only CPU and CUDA are supported",
                    c10::DeviceTypeName(device, /*lower_case=*/true)));
  }
  if (device == c10::DeviceType::CPU && precision == Precision::kFloat16) {
    throw std::invalid_argument("fp16 autocast needs CUDA");
  }
}

#if MLREGRESS_AUTOCAST_BY_DEVICE_TYPE

bool autocast_enabled(c10::DeviceType device) { return at::autocast::is_autocast_enabled(device); }
void set_autocast_enabled(c10::DeviceType device, bool enabled) {
  at::autocast::set_autocast_enabled(device, enabled);
}
c10::ScalarType autocast_dtype_of(c10::DeviceType device) {
  return at::autocast::get_autocast_dtype(device);
}
void set_autocast_dtype(c10::DeviceType device, c10::ScalarType dtype) {
  at::autocast::set_autocast_dtype(device, dtype);
}

#else  // LibTorch before 2.4: check_autocast_device() let only CPU and CUDA through.

bool autocast_enabled(c10::DeviceType device) {
  return device == c10::DeviceType::CPU ? at::autocast::is_cpu_enabled()
                                        : at::autocast::is_enabled();
}
void set_autocast_enabled(c10::DeviceType device, bool enabled) {
  if (device == c10::DeviceType::CPU) {
    at::autocast::set_cpu_enabled(enabled);
  } else {
    at::autocast::set_enabled(enabled);
  }
}
c10::ScalarType autocast_dtype_of(c10::DeviceType device) {
  return device == c10::DeviceType::CPU ? at::autocast::get_autocast_cpu_dtype()
                                        : at::autocast::get_autocast_gpu_dtype();
}
void set_autocast_dtype(c10::DeviceType device, c10::ScalarType dtype) {
  if (device == c10::DeviceType::CPU) {
    at::autocast::set_autocast_cpu_dtype(dtype);
  } else {
    at::autocast::set_autocast_gpu_dtype(dtype);
  }
}

#endif

}  // namespace

Precision parse_precision(std::string_view text) {
  for (const PrecisionName& entry : kPrecisionNames) {
    if (entry.name == text) return entry.precision;
  }
  throw std::invalid_argument(
      fmt::format("precision '{}': expected one of fp32, bf16, fp16", std::string(text)));
}

std::string_view precision_name(Precision precision) {
  for (const PrecisionName& entry : kPrecisionNames) {
    if (entry.precision == precision) return entry.name;
  }
  throw std::invalid_argument("precision_name: not a Precision");
}

// As torch.autocast's __enter__ and __exit__: the state saved, autocast on with the dtype, one
// level of nesting more; on leaving, the state back and, at the outermost level, the cache of
// cast weights cleared (it would otherwise keep them alive and serve stale casts after an update).
AutocastScope::AutocastScope(Precision precision, c10::DeviceType device) : device_(device) {
  if (precision == Precision::kFloat32) return;
  check_autocast_device(precision, device);
  previous_enabled_ = autocast_enabled(device);
  previous_dtype_ = autocast_dtype_of(device);
  set_autocast_dtype(device, autocast_dtype(precision));
  set_autocast_enabled(device, true);
  at::autocast::increment_nesting();
  active_ = true;
}

AutocastScope::~AutocastScope() {
  if (!active_) return;
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
  set_autocast_enabled(device_, previous_enabled_);
  set_autocast_dtype(device_, previous_dtype_);
}

}  // namespace mlregress
