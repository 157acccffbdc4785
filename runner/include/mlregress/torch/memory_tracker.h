// Exact peak memory on CPU: a counting wrapper around LibTorch's CPU allocator that keeps current
// and peak tensor bytes and the number of allocations, for the whole process and per user-marked
// scope (one training step, one test). The figures depend only on the sequence of allocations, so
// the same single-threaded code gives the same numbers run after run. On a CUDA build of LibTorch,
// the CUDA caching allocator's own statistics are read as well.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace mlregress {

/// The process-wide counters of the CPU allocator wrapper at one moment.
struct MemoryCounters {
  std::int64_t current_bytes = 0;    ///< bytes held by live allocations made through the wrapper
  std::int64_t peak_bytes = 0;       ///< highest current_bytes since install or reset_peak_bytes()
  std::int64_t allocations = 0;      ///< allocations since install (zero-byte requests excluded)
  std::int64_t allocated_bytes = 0;  ///< bytes requested by those allocations, in total
  /// CUDA only (cuda_memory_counters): the caching allocator's peak of reserved bytes, the
  /// segments it holds from the driver (what nvidia-smi shows); 0 for the CPU wrapper.
  std::int64_t reserved_peak_bytes = 0;
};

/// Installs the counting wrapper around the CPU allocator torch uses now (the default one), with
/// a high priority. Idempotent and thread-safe; installing is permanent for the process. Memory
/// allocated before the install is not counted, not even when it is freed. Returns false (and
/// counts nothing) when the current allocator cannot be wrapped (it has no raw_deleter()) or an
/// allocator of an even higher priority is registered.
bool install_memory_tracker();

/// True once install_memory_tracker() has succeeded.
bool memory_tracker_installed();

/// The process-wide counters now; all zero before the install.
MemoryCounters memory_counters();

/// Starts a new process-wide peak: peak_bytes = current_bytes. Active MemoryScopes are unaffected.
void reset_peak_bytes();

/// What a MemoryScope saw, from its start to now (or to stop()).
struct MemoryScopeStats {
  std::string name;
  std::int64_t start_bytes = 0;  ///< process current_bytes when the scope began
  std::int64_t peak_bytes_above_start =
      0;                             ///< highest current_bytes in the scope minus start_bytes
  std::int64_t net_bytes = 0;        ///< current_bytes at the end minus start_bytes
  std::int64_t allocations = 0;      ///< allocations made in the scope (any thread)
  std::int64_t allocated_bytes = 0;  ///< bytes requested by those allocations, in total

  /// "train_step: peak +1.2 MiB (1234567 B) above start, 42 allocations of 2.3 MiB, net +0 B"
  std::string describe() const;
};

/// RAII: counts the CPU allocations made from construction to stop() or destruction, by any
/// thread. Scopes nest (and may overlap): each one keeps its own peak. Installs the tracker if
/// needed; when it cannot be installed, every figure stays 0 (check memory_tracker_installed()).
class MemoryScope {
 public:
  explicit MemoryScope(std::string name = {});
  ~MemoryScope();
  MemoryScope(const MemoryScope&) = delete;
  MemoryScope& operator=(const MemoryScope&) = delete;

  /// The figures so far while active; frozen after stop().
  MemoryScopeStats stats() const;
  /// Stops counting (idempotent) and returns the final figures.
  MemoryScopeStats stop();
  bool active() const { return active_; }

  /// Counters the tracker updates under its lock while the scope is active.
  struct Counters {
    std::int64_t start_bytes = 0;
    std::int64_t peak_bytes = 0;  ///< absolute: the highest process current_bytes seen
    std::int64_t allocations = 0;
    std::int64_t allocated_bytes = 0;
    std::int64_t end_bytes = 0;  ///< set by stop()
  };

 private:
  std::string name_;
  Counters counters_;
  bool active_ = false;
};

/// The CUDA caching allocator's figures for one device, or nullopt when LibTorch was built
/// without CUDA (as on the CPU machines mlregress is developed on) or the device does not exist.
/// UNTESTED here: compiled only against a CUDA build of LibTorch.
std::optional<MemoryCounters> cuda_memory_counters(int device = 0);

/// Starts a new peak in the CUDA caching allocator's statistics; does nothing without CUDA.
/// UNTESTED here, as cuda_memory_counters().
void reset_cuda_peak_bytes(int device = 0);

}  // namespace mlregress
