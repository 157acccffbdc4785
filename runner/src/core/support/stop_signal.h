// SIGINT (Ctrl-C) and SIGTERM (a CI agent cancelling the job) stop a run in order: the handler
// only notes the signal; the supervisor, which waits in short polls, sees it, kills its test
// processes and seed workers (their whole process groups) and throws RunInterrupted. The run
// folder then keeps every finished test and is marked incomplete, and the runner exits 130 or
// 143 as a shell would report the signal.
#pragma once

#include "support/errors.h"

namespace mlregress::internal {

/// Notes SIGINT and SIGTERM instead of dying at once.
void install_stop_handlers();

/// The signal that asked the run to stop, or 0.
int stop_signal();

/// For a forked test process: the default actions again (it dies of the signal).
void restore_default_stop_actions();

/// The run was stopped by a signal; exit code kInterrupted (SIGINT) or kTerminated (SIGTERM).
class RunInterrupted : public Error {
 public:
  explicit RunInterrupted(int signal);
};

}  // namespace mlregress::internal
