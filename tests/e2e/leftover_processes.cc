#include "leftover_processes.h"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>

namespace mlregress::e2e {
namespace {

// Whether a process that `matches` (pid, process group, session) runs, zombies not counted,
// checked for up to 2 s: a killed process takes a moment to go.
template <typename Matches>
bool a_process_runs(Matches&& matches) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    bool found = false;
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
      std::ifstream stat(entry.path() / "stat");
      std::string line;
      if (!std::getline(stat, line)) continue;
      // pid (comm) state ppid pgrp session ...; comm may hold spaces, so read after the last ')'.
      std::istringstream rest(line.substr(line.rfind(')') + 1));
      char state = 0;
      pid_t ppid = 0, group = 0, session = 0;
      rest >> state >> ppid >> group >> session;
      const pid_t pid = std::atoi(entry.path().filename().c_str());
      found = found || (state != 'Z' && state != 'X' && matches(pid, group, session));
    }
    if (!found) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return true;
}

}  // namespace

pid_t start_in_own_session(std::vector<std::string> argv, const std::string& repo) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::setsid();
    ::setenv("MLREGRESS_REPO", repo.c_str(), 1);
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, 1);
    ::dup2(null, 2);
    std::vector<char*> args;
    for (std::string& arg : argv) args.push_back(arg.data());
    args.push_back(nullptr);
    ::execv(args[0], args.data());
    ::_exit(127);
  }
  return pid;
}

bool a_process_of_group_runs(pid_t group) {
  return a_process_runs([&](pid_t, pid_t g, pid_t) { return g == group; });
}

bool a_process_of_session_runs(pid_t session, pid_t except) {
  return a_process_runs([&](pid_t pid, pid_t, pid_t s) { return s == session && pid != except; });
}

}  // namespace mlregress::e2e
