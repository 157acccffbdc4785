// The usual helper for std::visit with one lambda per alternative:
//   std::visit(Overloaded{[](const A&) {...}, [](const B&) {...}}, variant);
#pragma once

namespace mlregress::internal {

template <typename... Fs>
struct Overloaded : Fs... {
  using Fs::operator()...;
};
// Spelled out for compilers without C++20's aggregate deduction (Clang before 17).
template <typename... Fs>
Overloaded(Fs...) -> Overloaded<Fs...>;

}  // namespace mlregress::internal
