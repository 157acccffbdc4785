// Reading environment variables through a function, so that the code that interprets them
// (shards, ctest's resources) is tested with a made-up environment.
#pragma once

#include <functional>
#include <optional>
#include <string>

namespace mlregress::internal {

/// The value of an environment variable; empty optional when it is unset.
using EnvironmentLookup = std::function<std::optional<std::string>(const std::string&)>;

/// This process's environment.
std::optional<std::string> process_environment(const std::string& name);

}  // namespace mlregress::internal
