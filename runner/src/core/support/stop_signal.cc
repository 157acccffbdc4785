#include "support/stop_signal.h"

#include <fmt/format.h>
#include <signal.h>
#include <string.h>

namespace mlregress::internal {
namespace {

volatile sig_atomic_t g_stop_signal = 0;

void note_stop_signal(int signal) { g_stop_signal = signal; }

}  // namespace

void install_stop_handlers() {
  struct sigaction action {};
  action.sa_handler = note_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART: a poll or read returns at once with EINTR
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

int stop_signal() { return g_stop_signal; }

void restore_default_stop_actions() {
  ::signal(SIGINT, SIG_DFL);
  ::signal(SIGTERM, SIG_DFL);
}

RunInterrupted::RunInterrupted(int signal)
    : Error(signal == SIGINT ? ExitCode::kInterrupted : ExitCode::kTerminated,
            fmt::format("stopped by {} ({}): the test processes were killed; the run folder keeps "
                        "every test that finished and is marked incomplete",
                        signal == SIGINT ? "SIGINT" : "SIGTERM", ::strsignal(signal))) {}

}  // namespace mlregress::internal
