#include "process.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>

#include "tests/support/files.h"
#include "tests/support/temp_dir.h"

namespace mlregress::e2e {

ProcessResult run_command(const std::string& command) {
  const test_support::TempDir scratch;
  const std::string out_file = scratch.path() + "/out";
  const std::string err_file = scratch.path() + "/err";
  const int status = std::system((command + " >" + out_file + " 2>" + err_file).c_str());
  ProcessResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = test_support::read_file(out_file);
  result.err = test_support::read_file(err_file);
  return result;
}

}  // namespace mlregress::e2e
