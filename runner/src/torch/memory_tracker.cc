#include "mlregress/torch/memory_tracker.h"

#include <c10/core/CPUAllocator.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "allocation_observer.h"
#include "cuda_switch.h"
#if MLREGRESS_TORCH_CUDA
#include <c10/cuda/CUDACachingAllocator.h>
#include <c10/cuda/CUDAFunctions.h>
#endif

namespace mlregress {
namespace {

// The side table and counters behind the wrapper. Leaked on purpose: tensors freed during static
// destruction still call the deleter.
class Tracker {
 public:
  void on_allocate(void* data, std::size_t size) {
    const auto bytes = static_cast<std::int64_t>(size);
    std::lock_guard<std::mutex> lock(mutex_);
    sizes_.emplace(data, bytes);
    totals_.current_bytes += bytes;
    totals_.peak_bytes = std::max(totals_.peak_bytes, totals_.current_bytes);
    ++totals_.allocations;
    totals_.allocated_bytes += bytes;
    for (MemoryScope::Counters* scope : scopes_) {
      scope->peak_bytes = std::max(scope->peak_bytes, totals_.current_bytes);
      ++scope->allocations;
      scope->allocated_bytes += bytes;
    }
  }

  void on_free(void* data) {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto it = sizes_.find(data);
    if (it == sizes_.end()) return;  // only our DataPtrs carry our deleter; defensive
    totals_.current_bytes -= it->second;
    sizes_.erase(it);
  }

  MemoryCounters counters() {
    std::lock_guard<std::mutex> lock(mutex_);
    return totals_;
  }

  void reset_peak() {
    std::lock_guard<std::mutex> lock(mutex_);
    totals_.peak_bytes = totals_.current_bytes;
  }

  void begin(MemoryScope::Counters* scope) {
    std::lock_guard<std::mutex> lock(mutex_);
    *scope = MemoryScope::Counters{};
    scope->start_bytes = scope->peak_bytes = totals_.current_bytes;
    scopes_.push_back(scope);
  }

  void end(MemoryScope::Counters* scope) {
    std::lock_guard<std::mutex> lock(mutex_);
    scope->end_bytes = totals_.current_bytes;
    scopes_.erase(std::remove(scopes_.begin(), scopes_.end(), scope), scopes_.end());
  }

  MemoryScope::Counters snapshot(const MemoryScope::Counters& scope, bool active) {
    std::lock_guard<std::mutex> lock(mutex_);
    MemoryScope::Counters copy = scope;
    if (active) copy.end_bytes = totals_.current_bytes;
    return copy;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<void*, std::int64_t> sizes_;
  MemoryCounters totals_;
  std::vector<MemoryScope::Counters*> scopes_;  // active scopes, in any nesting
};

Tracker& tracker() {
  static auto* instance = new Tracker;
  return *instance;
}

c10::DeleterFnPtr g_base_deleter = nullptr;  // set once, before the wrapper is registered

// The operator counters' observer of allocations (allocation_observer.h), or none.
std::atomic<internal::AllocationObserver> g_observer{nullptr};

void counting_delete(void* data) {
  if (data == nullptr) return;
  tracker().on_free(data);
  g_base_deleter(data);
}

// oneDNN (ideep) allocates through raw_allocate(), which asserts that the DataPtr's context is
// its data pointer and frees through raw_deleter(). So the wrapper hands out plain pointers with
// a plain function as deleter and keeps the sizes in the side table, never a context object.
class CountingCpuAllocator final : public c10::Allocator {
 public:
  explicit CountingCpuAllocator(c10::Allocator* base) : base_(base) {}

  // LibTorch 1.x declares Allocator::allocate() const and 2.x non-const: each version overrides
  // its own and sees the other as a plain overload, so one source builds against both. 2.x also
  // requires copy_data(), which 1.x lacks (there it is an unused member).
  c10::DataPtr allocate(std::size_t size) const {  // NOLINT(modernize-use-override)
    c10::DataPtr inner = base_->allocate(size);
    void* data = inner.get();
    if (data == nullptr) return inner;  // a zero-byte request: nothing held, nothing to count
    TORCH_INTERNAL_ASSERT(inner.get_context() == data && inner.get_deleter() == g_base_deleter,
                          "mlregress memory tracker: the wrapped CPU allocator returned a DataPtr "
                          "whose context is not its data or whose deleter is not raw_deleter()");
    const c10::Device device = inner.device();
    inner.release_context();
    tracker().on_allocate(data, size);
    // After the tracker's lock is released: the observer's lock is never held with it.
    if (const internal::AllocationObserver observe = g_observer.load(std::memory_order_acquire))
      observe(static_cast<std::int64_t>(size));
    return {data, data, &counting_delete, device};
  }

  c10::DataPtr allocate(std::size_t size) {  // NOLINT(modernize-use-override)
    return std::as_const(*this).allocate(size);
  }

  void copy_data(void* dest, const void* src, std::size_t count) const {
    std::memcpy(dest, src, count);  // what 2.x's default_copy_data does for host memory
  }

  c10::DeleterFnPtr raw_deleter() const override { return &counting_delete; }

 private:
  c10::Allocator* base_;
};

// Above anything LibTorch registers for the CPU by default (priority 0).
constexpr std::uint8_t kWrapperPriority = 100;

bool install_once() {
  c10::Allocator* base = c10::GetCPUAllocator();
  if (base == nullptr || base->raw_deleter() == nullptr) return false;
  g_base_deleter = base->raw_deleter();
  auto* wrapper = new CountingCpuAllocator(base);  // owned by c10 from here on, never freed
  c10::SetCPUAllocator(wrapper, kWrapperPriority);
  return c10::GetCPUAllocator() == wrapper;
}

std::atomic<bool> g_installed{false};

std::string signed_bytes(std::int64_t bytes) {
  const double magnitude = static_cast<double>(bytes < 0 ? -bytes : bytes);
  const char* sign = bytes < 0 ? "-" : "+";
  if (magnitude >= 1024.0 * 1024.0) {
    return fmt::format("{}{:.2f} MiB ({} B)", sign, magnitude / (1024.0 * 1024.0), bytes);
  }
  if (magnitude >= 1024.0)
    return fmt::format("{}{:.1f} KiB ({} B)", sign, magnitude / 1024.0, bytes);
  return fmt::format("{:+} B", bytes);
}

}  // namespace

namespace internal {

void set_allocation_observer(AllocationObserver observer) {
  g_observer.store(observer, std::memory_order_release);
}

}  // namespace internal

bool install_memory_tracker() {
  static std::once_flag once;
  std::call_once(once, [] { g_installed = install_once(); });
  return g_installed;
}

bool memory_tracker_installed() { return g_installed; }

MemoryCounters memory_counters() { return tracker().counters(); }

void reset_peak_bytes() { tracker().reset_peak(); }

std::string MemoryScopeStats::describe() const {
  return fmt::format("{}{}peak {} above start, {} allocations of {}, net {}", name,
                     name.empty() ? "" : ": ", signed_bytes(peak_bytes_above_start), allocations,
                     signed_bytes(allocated_bytes), signed_bytes(net_bytes));
}

MemoryScope::MemoryScope(std::string name) : name_(std::move(name)) {
  if (!install_memory_tracker()) return;
  tracker().begin(&counters_);
  active_ = true;
}

MemoryScope::~MemoryScope() { stop(); }

MemoryScopeStats MemoryScope::stats() const {
  const Counters c = tracker().snapshot(counters_, active_);
  MemoryScopeStats s;
  s.name = name_;
  s.start_bytes = c.start_bytes;
  s.peak_bytes_above_start = c.peak_bytes - c.start_bytes;
  s.net_bytes = c.end_bytes - c.start_bytes;
  s.allocations = c.allocations;
  s.allocated_bytes = c.allocated_bytes;
  return s;
}

MemoryScopeStats MemoryScope::stop() {
  if (active_) {
    tracker().end(&counters_);
    active_ = false;
  }
  return stats();
}

#if MLREGRESS_TORCH_CUDA
// UNTESTED on the CPU-only development machines: written against c10::cuda::CUDACachingAllocator
// of LibTorch 1.13 (getDeviceStats, resetPeakStats; index 0 of each StatArray is the aggregate
// over pool types), which PyTorch 2.x keeps.
std::optional<MemoryCounters> cuda_memory_counters(int device) {
  if (device < 0 || device >= static_cast<int>(c10::cuda::device_count())) return std::nullopt;
  // The statistics' type moved between LibTorch versions; the call's own type names it.
  using Stats = decltype(c10::cuda::CUDACachingAllocator::getDeviceStats(device));
  std::optional<Stats> read;
  try {
    read = c10::cuda::CUDACachingAllocator::getDeviceStats(device);
  } catch (const c10::Error&) {
    return std::nullopt;  // 2.x: the allocator has not been initialised (nothing allocated yet)
  }
  const Stats& stats = *read;
  constexpr std::size_t kAggregate = 0;
  MemoryCounters counters;
  counters.current_bytes = stats.allocated_bytes[kAggregate].current;
  counters.peak_bytes = stats.allocated_bytes[kAggregate].peak;
  counters.allocations = stats.allocation[kAggregate].allocated;
  counters.allocated_bytes = stats.allocated_bytes[kAggregate].allocated;
  counters.reserved_peak_bytes = stats.reserved_bytes[kAggregate].peak;
  return counters;
}

void reset_cuda_peak_bytes(int device) {
  if (device < 0 || device >= static_cast<int>(c10::cuda::device_count())) return;
  c10::cuda::CUDACachingAllocator::resetPeakStats(device);
}
#else
std::optional<MemoryCounters> cuda_memory_counters(int /*device*/) { return std::nullopt; }

void reset_cuda_peak_bytes(int /*device*/) {}
#endif

}  // namespace mlregress
