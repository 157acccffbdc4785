// The one-way stream from a test process to the runner: every observation (test started,
// metric, curve, failure, test ended) is a small JSON event. Results reach the runner as they
// happen, so a test that later crashes loses nothing it already recorded.
#pragma once

#include <nlohmann/json.hpp>

namespace mlregress::internal {

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void emit(const nlohmann::json& event) = 0;
};

/// Writes one JSON line per event to a file descriptor and flushes it at once.
class FdEventSink final : public EventSink {
 public:
  explicit FdEventSink(int fd) : fd_(fd) {}
  void emit(const nlohmann::json& event) override;

 private:
  int fd_;
};

}  // namespace mlregress::internal
