// Processes a run may leave behind: the e2e tests look for them in /proc after the run ended.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace mlregress::e2e {

/// Whether a process of process group `group` runs (zombies do not count), checked for up to
/// 2 s: a killed process takes a moment to go.
bool a_process_of_group_runs(pid_t group);

/// Starts `argv` (a test binary and its arguments) in a session of its own, with output to
/// /dev/null and MLREGRESS_REPO=`repo`; returns its pid (the session id).
pid_t start_in_own_session(std::vector<std::string> argv, const std::string& repo);

/// Whether a process of session `session` other than `except` runs, checked the same way. A
/// runner started in a session of its own keeps its test processes in it wherever they are
/// re-parented, so tests running meanwhile do not count.
bool a_process_of_session_runs(pid_t session, pid_t except);

}  // namespace mlregress::e2e
