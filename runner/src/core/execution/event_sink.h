// Where a test process sends its events (see test_events.h): to the runner through a pipe, or
// to a list in a unit test.
#pragma once

#include "execution/test_events.h"

namespace mlregress::internal {

class EventSink {
 public:
  virtual ~EventSink() = default;
  virtual void emit(const TestEvent& event) = 0;
};

/// Writes one line per event to a file descriptor at once (no buffering: a crash right after
/// loses nothing).
class FdEventSink final : public EventSink {
 public:
  explicit FdEventSink(int fd) : fd_(fd) {}
  void emit(const TestEvent& event) override;

 private:
  int fd_;
};

}  // namespace mlregress::internal
