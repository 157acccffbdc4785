// Baseline files for the unit tests of the baseline format: a file of one environment, a hand
// edit of a rendered file, and what the reader says when it refuses one.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "baselines/baseline_toml.h"
#include "support/errors.h"

namespace mlregress::internal {

/// A file of `version` promoted on (and defining) the environment profile "cpu-aaaa", no tests.
inline BaselineFile file_of_one_environment(int version = 1) {
  BaselineFile file;
  file.provenance.version = version;
  file.provenance.environment = "cpu-aaaa";
  EnvironmentProfile env;
  env.id = "cpu-aaaa";
  file.environments[env.id] = env;
  return file;
}

/// Four seeds' accuracies (0.87, 0.88, 0.865, 0.871) on `seeds`, higher is better, gated by a
/// 0.01 margin.
inline BaselineMetric four_seed_accuracy(std::vector<std::uint64_t> seeds) {
  BaselineMetric m;
  m.direction = Direction::HigherIsBetter;
  m.policy = Margin{0.01};
  m.seeds = std::move(seeds);
  m.samples = {0.87, 0.88, 0.865, 0.871};
  return m;
}

/// `text` with the first `from` replaced by `to`; a `from` that is not there fails the test.
inline std::string replace(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

/// The reader's refusal of `text` read as `source_name`; `accepted` when it takes the text.
inline std::string error_of(const std::string& text, const std::string& source_name = "b.toml",
                            const std::string& accepted = "") {
  try {
    parse_baseline(text, source_name);
  } catch (const BaselineError& error) {
    return error.what();
  }
  return accepted;
}

}  // namespace mlregress::internal
