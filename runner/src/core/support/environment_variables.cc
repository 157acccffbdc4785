#include "support/environment_variables.h"

#include <cstdlib>

namespace mlregress::internal {

std::optional<std::string> process_environment(const std::string& name) {
  const char* value = std::getenv(name.c_str());
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

}  // namespace mlregress::internal
