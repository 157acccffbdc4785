// `merge SHARD_RUN... [--out DIR] [--baselines DIR] [--junit FILE] [--force]`: joins the partial
// run folders of a sharded run (run --shard I/N, or the same from a job array's environment)
// into one run folder, as if one machine had run the whole plan, and only then decides every
// verdict through the same gate `run` and `compare` use: the multi-seed gate and Holm's
// correction see every seed of every shard. A missing shard or seed is named and counts as a
// crashed unit; shards of different plans, commits or environment profiles are refused unless
// --force; a unit present twice with different values is always refused.
#pragma once

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"

namespace mlregress::internal {

ExitCode merge_command(const MergeOptions& options);

}  // namespace mlregress::internal
