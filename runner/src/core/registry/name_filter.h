// Test selection by name, with GoogleTest's filter syntax: "POSITIVE[-NEGATIVE]", patterns
// separated by ':', '*' and '?' as wildcards. A pattern with a '.' matches the full name
// ("Fast.Cnn*"); one without matches the test's own name ("Cnn*"), so users need not know tiers.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

/// Glob match of the whole text: '*' any run of characters, '?' exactly one.
bool glob_match(std::string_view pattern, std::string_view text);

class NameFilter {
 public:
  /// An empty filter selects everything.
  explicit NameFilter(std::string_view filter);
  bool matches(std::string_view name, std::string_view full_name) const;

 private:
  static bool any_matches(const std::vector<std::string>& patterns, std::string_view name,
                          std::string_view full_name);
  std::vector<std::string> positive_;
  std::vector<std::string> negative_;
};

}  // namespace mlregress::internal
