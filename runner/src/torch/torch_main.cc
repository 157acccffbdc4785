// main() of a torch test binary (link mlregress::torch_main): all behaviour is in run_main.
#include "mlregress/torch/torch_hooks.h"

int main(int argc, char** argv) {
  return mlregress::run_main(argc, argv, mlregress::torch_runner_hooks());
}
