// The bridge between the allocator wrapper (memory_tracker.cc) and the operator counters
// (op_counter.cc): the counting allocator reports each allocation here, and the active OpCounters
// charge it to the innermost operator running on the allocating thread.
#pragma once

#include <cstdint>

namespace mlregress::internal {

/// Charges `bytes` (one allocation) to the innermost operator the RecordFunction observer has
/// seen start and not yet end on this thread. Does nothing unless an OpCounter is active; cheap
/// then (one relaxed atomic load). Never allocates through the CPU allocator.
void attribute_allocation_to_operator(std::int64_t bytes);

}  // namespace mlregress::internal
