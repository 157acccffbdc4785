// How the operator counters learn of allocations: the counting allocator (memory_tracker.cc)
// calls an observer for each allocation it counts, and op_counter.cc installs the one that charges
// it to the innermost operator running. A function pointer, not a call: the allocator builds and
// links without the operator counters (ci/cuda-libtorch-check.sh links it alone).
#pragma once

#include <cstdint>

namespace mlregress::internal {

/// Called with the size of each allocation, on the allocating thread, after the allocator's own
/// lock is released. Must not allocate through the CPU allocator.
using AllocationObserver = void (*)(std::int64_t bytes);

/// Installs the observer (nullptr: none); thread-safe. The last one installed is called.
void set_allocation_observer(AllocationObserver observer);

}  // namespace mlregress::internal
