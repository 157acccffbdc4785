#include "registry/name_filter.h"

namespace mlregress::internal {
namespace {

std::vector<std::string> split_patterns(std::string_view text) {
  std::vector<std::string> patterns;
  std::size_t begin = 0;
  while (begin <= text.size()) {
    const std::size_t end = std::min(text.find(':', begin), text.size());
    if (end > begin) patterns.emplace_back(text.substr(begin, end - begin));
    begin = end + 1;
  }
  return patterns;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point: linear in practice, no recursion blow-up.
  std::size_t p = 0, t = 0, star = std::string_view::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == text[t])) {
      ++p, ++t;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

NameFilter::NameFilter(std::string_view filter) {
  const std::size_t dash = filter.find('-');
  positive_ = split_patterns(filter.substr(0, dash));
  if (dash != std::string_view::npos) negative_ = split_patterns(filter.substr(dash + 1));
}

bool NameFilter::any_matches(const std::vector<std::string>& patterns, std::string_view name,
                             std::string_view full_name) {
  for (const std::string& pattern : patterns) {
    const bool full = pattern.find('.') != std::string::npos;
    if (glob_match(pattern, full ? full_name : name)) return true;
  }
  return false;
}

bool NameFilter::matches(std::string_view name, std::string_view full_name) const {
  const bool selected = positive_.empty() || any_matches(positive_, name, full_name);
  return selected && !any_matches(negative_, name, full_name);
}

}  // namespace mlregress::internal
