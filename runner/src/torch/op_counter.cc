#include "mlregress/torch/op_counter.h"

#include <ATen/record_function.h>
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

#include "allocation_observer.h"

namespace mlregress {
namespace {

// The active counters of the process. The observer is a plain function (RecordFunction takes no
// user data), so it finds them here; the lock also guards each counter's tallies.
struct Registry {
  std::mutex mutex;
  std::vector<OpCounter*> active;
  std::vector<std::thread::id> owners;  ///< the thread that opened each active counter
};

Registry& registry() {
  static auto* instance = new Registry;  // leaked: observers may run during static destruction
  return *instance;
}

// How many counters are active in the process: the allocator asks this before anything else, so
// that allocations cost nothing extra while no counter runs.
std::atomic<int> g_active_counters{0};

// The operators that have started and not yet ended on this thread, innermost last: an allocation
// is charged to the last. The names live as long as their RecordFunction, which outlives the
// entry (the end callback pops it first).
thread_local std::vector<const char*> t_running;

// One observer per thread, however many counters that thread has open.
struct ThreadObserver {
  at::CallbackHandle handle = at::INVALID_CALLBACK_HANDLE;
  int users = 0;
};
thread_local ThreadObserver t_observer;

std::unique_ptr<at::ObserverContext> on_operator_start(const at::RecordFunction& fn) {
  t_running.push_back(fn.name());
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (OpCounter* counter : r.active) counter->record(fn.name());
  return nullptr;
}

// LibTorch 1.13 and 2.x both call the end callback of every callback whose start ran, whatever
// context the start returned, on the thread that ran the start.
void on_operator_end(const at::RecordFunction& /*fn*/, at::ObserverContext* /*context*/) {
  if (!t_running.empty()) t_running.pop_back();
}

void acquire_observer() {
  if (t_observer.users++ > 0) return;
  t_running.clear();  // an operator that outlived the last observer never saw its end
  t_observer.handle =
      at::addThreadLocalCallback(at::RecordFunctionCallback(&on_operator_start, &on_operator_end)
                                     .scopes({at::RecordScope::FUNCTION}));
}

void release_observer() {
  if (--t_observer.users > 0) return;
  at::removeCallback(t_observer.handle);
  t_observer.handle = at::INVALID_CALLBACK_HANDLE;
  t_running.clear();
}

// The allocator's observer: charges an allocation to the innermost operator running on this
// thread. One relaxed load while no counter is active. The allocator calls it on every thread,
// so it charges only what the counters observe: on a thread that opened counters, those counters
// (not another thread's); on a thread running an operator under an inherited observer (an
// intra-op worker of a counted operator), every active counter, as the operator calls are; on any
// other thread (a data-loader, a prefetcher) nobody.
void attribute_allocation_to_operator(std::int64_t bytes) {
  if (g_active_counters.load(std::memory_order_relaxed) == 0) return;
  const bool counters_on_this_thread = t_observer.users > 0;
  if (!counters_on_this_thread && t_running.empty()) return;
  const char* innermost = t_running.empty() ? nullptr : t_running.back();
  const std::thread::id here = std::this_thread::get_id();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (std::size_t i = 0; i < r.active.size(); ++i) {
    if (counters_on_this_thread && r.owners[i] != here) continue;
    r.active[i]->record_allocation(innermost, bytes);
  }
}

}  // namespace

OpCounter::OpCounter() : thread_(std::this_thread::get_id()) {
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.active.push_back(this);
    r.owners.push_back(thread_);
    g_active_counters.fetch_add(1, std::memory_order_relaxed);
  }
  internal::set_allocation_observer(&attribute_allocation_to_operator);
  acquire_observer();
  active_ = true;
}

OpCounter::~OpCounter() { stop(); }

void OpCounter::stop() {
  if (!active_) return;
  TORCH_CHECK(std::this_thread::get_id() == thread_,
              "OpCounter: stopped on another thread than the one that started it");
  release_observer();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  const auto it = std::find(r.active.begin(), r.active.end(), this);
  if (it != r.active.end()) {
    r.owners.erase(r.owners.begin() + (it - r.active.begin()));
    r.active.erase(it);
  }
  g_active_counters.fetch_sub(1, std::memory_order_relaxed);
  active_ = false;
}

OpCounter::Tally& OpCounter::tally(const char* name) {
  // Called under the registry lock. Heterogeneous lookup: no string is built for a known name.
  const std::string_view key = name == nullptr ? std::string_view("<unnamed>") : name;
  const auto it = by_name_.find(key);
  if (it != by_name_.end()) return it->second;
  return by_name_.emplace(std::string(key), Tally{}).first->second;
}

void OpCounter::record(const char* name) {
  ++total_;
  ++tally(name).calls;
}

void OpCounter::record_allocation(const char* innermost_operator, std::int64_t bytes) {
  Tally& t = tally(innermost_operator == nullptr ? kNoOperator : innermost_operator);
  ++t.allocations;
  t.bytes += bytes;
}

std::int64_t OpCounter::total() const {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return total_;
}

std::int64_t OpCounter::count(std::string_view name) const {
  std::lock_guard<std::mutex> lock(registry().mutex);
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? 0 : it->second.calls;
}

std::map<std::string, std::int64_t> OpCounter::counts() const {
  return breakdown(BreakdownUnit::Calls).by_operator;
}

Breakdown OpCounter::breakdown(BreakdownUnit unit) const {
  Breakdown b;
  b.unit = unit;
  std::lock_guard<std::mutex> lock(registry().mutex);
  for (const auto& [name, t] : by_name_) {
    const std::int64_t n = unit == BreakdownUnit::Calls         ? t.calls
                           : unit == BreakdownUnit::Allocations ? t.allocations
                                                                : t.bytes;
    if (n != 0) b.by_operator.emplace(name, n);
  }
  return b;
}

std::vector<OpCount> OpCounter::top(std::size_t n) const {
  std::vector<OpCount> all;
  for (const auto& [name, count] : counts()) all.push_back({name, count});
  // counts() is sorted by name, so a stable sort by count keeps ties in name order.
  std::stable_sort(all.begin(), all.end(),
                   [](const OpCount& a, const OpCount& b) { return a.count > b.count; });
  if (all.size() > n) all.resize(n);
  return all;
}

std::string OpCounter::describe(std::size_t n) const {
  std::string text = fmt::format("{} operator calls", total());
  const std::vector<OpCount> most = top(n);
  for (std::size_t i = 0; i < most.size(); ++i) {
    text += fmt::format("{}{} {}", i == 0 ? "; top: " : ", ", most[i].name, most[i].count);
  }
  return text;
}

}  // namespace mlregress
