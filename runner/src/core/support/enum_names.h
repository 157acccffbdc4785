// One table per enum: each value beside its name, read both ways. A value listed once cannot have
// a name that its parser rejects, and a value added to the enum is added in one place.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace mlregress::internal {

template <typename Enum, std::size_t N>
class EnumNames {
 public:
  using Entry = std::pair<Enum, std::string_view>;

  constexpr explicit EnumNames(const Entry (&entries)[N]) {
    for (std::size_t i = 0; i < N; ++i) entries_[i] = entries[i];
  }

  /// The value's name; `fallback` for a value the table lacks (a cast from a bad integer).
  constexpr std::string_view name(Enum value, std::string_view fallback = "UNKNOWN") const {
    for (const auto& [entry_value, entry_name] : entries_) {
      if (entry_value == value) return entry_name;
    }
    return fallback;
  }

  /// The value with exactly this name, or nothing.
  constexpr std::optional<Enum> parse(std::string_view text) const {
    for (const auto& [entry_value, entry_name] : entries_) {
      if (entry_name == text) return entry_value;
    }
    return std::nullopt;
  }

  constexpr const std::array<Entry, N>& entries() const { return entries_; }

 private:
  std::array<Entry, N> entries_{};
};

/// enum_names<Verdict>({{Verdict::kPass, "PASS"}, ...}): the table's size is the list's.
template <typename Enum, std::size_t N>
constexpr EnumNames<Enum, N> enum_names(const std::pair<Enum, std::string_view> (&entries)[N]) {
  return EnumNames<Enum, N>(entries);
}

}  // namespace mlregress::internal
