#include "execution/event_sink.h"

#include "support/forked_child.h"

namespace mlregress::internal {

void FdEventSink::emit(const TestEvent& event) {
  // A failed write means the runner is gone; nobody is left to report to.
  (void)write_line(fd_, event_line(event));
}

}  // namespace mlregress::internal
