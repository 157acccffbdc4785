// main() of a torch test binary (link mlregress::torch_main): all behaviour is in run_main.
#include <cstdio>
#include <cstdlib>

#include "mlregress/torch/torch_hooks.h"

int main(int argc, char** argv) {
  const int code = mlregress::run_main(argc, argv, mlregress::torch_runner_hooks());
  // Every file the runner wrote is closed by now. LibTorch's static teardown costs ~50 ms per
  // process (measured with strace), paid again by every ctest invocation: skip it, as the test
  // processes already do. (torch-free binaries keep the normal exit, for LeakSanitizer.)
  std::fflush(nullptr);
  std::_Exit(code);
}
