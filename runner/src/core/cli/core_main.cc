// main() of a test binary without a framework layer: no seeding hooks, no framework probe.
#include "mlregress/runner_hooks.h"

int main(int argc, char** argv) {
  return mlregress::run_main(argc, argv, mlregress::RunnerHooks{});
}
