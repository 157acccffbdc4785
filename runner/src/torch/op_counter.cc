#include "mlregress/torch/op_counter.h"

#include <ATen/record_function.h>
#include <fmt/format.h>

#include <algorithm>
#include <mutex>

namespace mlregress {
namespace {

// The active counters of the process. The observer is a plain function (RecordFunction takes no
// user data), so it finds them here; the lock also guards each counter's tallies.
struct Registry {
  std::mutex mutex;
  std::vector<OpCounter*> active;
};

Registry& registry() {
  static auto* instance = new Registry;  // leaked: observers may run during static destruction
  return *instance;
}

// One observer per thread, however many counters that thread has open.
struct ThreadObserver {
  at::CallbackHandle handle = at::INVALID_CALLBACK_HANDLE;
  int users = 0;
};
thread_local ThreadObserver t_observer;

std::unique_ptr<at::ObserverContext> on_operator_start(const at::RecordFunction& fn) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (OpCounter* counter : r.active) counter->record(fn.name());
  return nullptr;
}

void acquire_observer() {
  if (t_observer.users++ > 0) return;
  t_observer.handle = at::addThreadLocalCallback(
      at::RecordFunctionCallback(&on_operator_start).scopes({at::RecordScope::FUNCTION}));
}

void release_observer() {
  if (--t_observer.users > 0) return;
  at::removeCallback(t_observer.handle);
  t_observer.handle = at::INVALID_CALLBACK_HANDLE;
}

}  // namespace

OpCounter::OpCounter() : thread_(std::this_thread::get_id()) {
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    r.active.push_back(this);
  }
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
  r.active.erase(std::remove(r.active.begin(), r.active.end(), this), r.active.end());
  active_ = false;
}

void OpCounter::record(const char* name) {
  // Called under the registry lock. Heterogeneous lookup: no string is built for a known name.
  const std::string_view key = name == nullptr ? std::string_view("<unnamed>") : name;
  ++total_;
  const auto it = by_name_.find(key);
  if (it != by_name_.end()) {
    ++it->second;
  } else {
    by_name_.emplace(std::string(key), 1);
  }
}

std::int64_t OpCounter::total() const {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return total_;
}

std::int64_t OpCounter::count(std::string_view name) const {
  std::lock_guard<std::mutex> lock(registry().mutex);
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? 0 : it->second;
}

std::map<std::string, std::int64_t> OpCounter::counts() const {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return {by_name_.begin(), by_name_.end()};
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
