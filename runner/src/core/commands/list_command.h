// `list`: what the binary contains, as text for people or JSON for tools (CMake's ctest
// registration reads the JSON).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "commands/cli_options.h"
#include "mlregress/exit_code.h"
#include "registry/test_registry.h"

namespace mlregress::internal {

inline constexpr int kListSchemaVersion = 1;

/// {"schema_version", "binary", "tests": [{name, full_name, tier, labels, file, line, params}]}
std::string render_list_json(const std::vector<const RegisteredTest*>& tests,
                             const std::string& binary);
std::string render_list_text(const std::vector<const RegisteredTest*>& tests);

/// Prints the selected tests in the chosen format.
ExitCode list_command(const ListOptions& options, const std::string& binary,
                      const std::string& gtest_filter);

}  // namespace mlregress::internal
