// The XOR study's table of real per-seed values, as ci/xor-seed-table.sh writes it:
//   seed  weight_stream  test_accuracy  train_loss  test_set_rule_accuracy
// (a header line, then one line per seed and stream). The simulations that measure the study's
// noise read it: sequential_seeds_levers and seed_floor_benchmark.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace xor_table {

struct SeedValues {
  double accuracy = 0.0, loss = 0.0, rule = 0.0;  ///< test_accuracy, train_loss, the covariate
};

/// weight stream -> seed -> values.
using Table = std::map<int, std::map<std::uint64_t, SeedValues>>;

/// Throws std::runtime_error naming the file (and the line) when it cannot be read or a line
/// does not hold the five columns.
Table read_table(const std::string& path);

}  // namespace xor_table
