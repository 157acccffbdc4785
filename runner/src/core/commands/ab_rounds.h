// The rounds of an interleaved A/B timing comparison: in each round both builds run the
// compared timing tests as child processes (each writes its own run folder), in an order that is
// random but balanced (a coin decides who goes first in odd rounds; the next round swaps), so
// neither build systematically runs first with warmer caches or a quieter machine. Their timing
// metrics become one series per (test, metric) for ab_analysis.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "commands/cli_options.h"
#include "timing/ab_analysis.h"

namespace mlregress::internal {

/// The other build's timing tests, from its `list --format json` (written to `folder`). A build
/// whose listing has no "timing" field predates ML_TIMING_TEST: its tests count by name alone.
/// Throws ConfigError when the other binary does not list its tests.
std::set<std::string> other_timing_tests(const std::string& other, const std::string& folder);

struct AbRoundsRequest {
  std::string candidate;      ///< this binary's path
  std::string other;          ///< OTHER_BINARY
  std::string filter;         ///< exactly the compared tests
  const RunOptions* options;  ///< rounds, seed, threads, --set (candidate only), timeout
  std::string rounds_folder;  ///< each child's run folder and log go here
};

struct AbRounds {
  std::vector<AbSeries> series;
  nlohmann::json log =
      nlohmann::json::array();  ///< per round: order, seconds and folder of each side
  std::string failure;          ///< why the rounds stopped early (a child failed), else empty
  std::uint64_t order_seed = 0;
};

/// Runs the rounds, printing one line per round. Stops at the first child that fails.
AbRounds run_ab_rounds(const AbRoundsRequest& request);

}  // namespace mlregress::internal
