// Noise-free work counters: an RAII scope that counts the operators LibTorch dispatches (through
// RecordFunction observers), in total and by name, and the CPU allocations each operator makes
// (with the memory tracker installed). A change that adds work or memory to a training step shows
// up as an exact change in the counts, with none of the noise of a timing, and the breakdown by
// operator says where it came from.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress {

/// One operator name and how often it was dispatched.
struct OpCount {
  std::string name;  ///< as RecordFunction names it: "aten::conv2d", "aten::add_", ...
  std::int64_t count = 0;

  bool operator==(const OpCount&) const = default;
};

/// RAII: counts every operator call (RecordScope::FUNCTION: ATen ops, including those one op
/// calls inside another, and the ops autograd runs in backward) from construction to stop() or
/// destruction. The observer is registered for the constructing thread and goes where LibTorch
/// propagates its thread-local state (the autograd engine, at::launch); ops run inside intra-op
/// parallel regions on worker threads are not seen, so exact counts need a fixed thread count
/// (at::set_num_threads(1) makes them repeatable). Counters nest: each counts everything in its
/// own span. Meant for one training loop at a time: active counters of two threads would see each
/// other's ops. Construct and stop on the same thread.
class OpCounter {
 public:
  OpCounter();
  ~OpCounter();
  OpCounter(const OpCounter&) = delete;
  OpCounter& operator=(const OpCounter&) = delete;

  /// Stops counting (idempotent); the counts stay readable.
  void stop();
  bool active() const { return active_; }

  /// Operator calls counted so far.
  std::int64_t total() const;
  /// Calls of one operator; 0 if never seen.
  std::int64_t count(std::string_view name) const;
  /// Every operator seen, by name.
  std::map<std::string, std::int64_t> counts() const;
  /// The n most frequent operators, most frequent first, ties by name (a repeatable order).
  std::vector<OpCount> top(std::size_t n) const;
  /// "412 operator calls; top: aten::empty 60, aten::add_ 40, ..."
  std::string describe(std::size_t n = 10) const;

  /// Every operator's share of the counter, for record_breakdown: its calls, or the CPU
  /// allocations (count or bytes) made while it was the innermost operator running on the
  /// counting thread. Allocations need install_memory_tracker() (without it they are all 0); an
  /// allocation made outside any operator (or on a thread the observer does not see) counts
  /// under kNoOperator. Operators with a count of 0 are left out. With one thread, the calls add
  /// up to total() and the allocations to what a MemoryScope over the same span counts.
  Breakdown breakdown(BreakdownUnit unit) const;

  /// Where breakdown() counts the allocations made outside any operator.
  static constexpr const char* kNoOperator = "<no operator>";

  /// Called by the observer for each operator call; not for users.
  void record(const char* name);
  /// Called by the memory tracker for each allocation, under the same lock; not for users.
  void record_allocation(const char* innermost_operator, std::int64_t bytes);

 private:
  struct NameHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  struct NameEqual {
    using is_transparent = void;
    bool operator()(std::string_view a, std::string_view b) const { return a == b; }
  };

  struct Tally {
    std::int64_t calls = 0;
    std::int64_t allocations = 0;
    std::int64_t bytes = 0;
  };
  Tally& tally(const char* name);

  std::thread::id thread_;
  bool active_ = false;
  std::int64_t total_ = 0;
  // Guarded by the observer's registry lock (the observer may run on autograd threads).
  std::unordered_map<std::string, Tally, NameHash, NameEqual> by_name_;
};

}  // namespace mlregress
