#include "record/tuning_budget.h"

#include <fmt/format.h>

#include <algorithm>

namespace mlregress::internal {

std::vector<MethodTrials> count_trials(const std::vector<std::string>& method_of_each_variant) {
  std::vector<MethodTrials> budgets;
  for (const std::string& method : method_of_each_variant) {
    if (method.empty()) continue;
    auto it = std::find_if(budgets.begin(), budgets.end(),
                           [&](const MethodTrials& b) { return b.method == method; });
    if (it == budgets.end()) {
      budgets.push_back({method, 1});
    } else {
      ++it->trials;
    }
  }
  return budgets;
}

std::string trials_per_method_text(const std::vector<MethodTrials>& budgets) {
  if (budgets.empty()) return "";
  std::string text = "trials per method: ";
  for (const MethodTrials& b : budgets) {
    text += fmt::format("{}{} {}", &b == &budgets.front() ? "" : ", ", b.method, b.trials);
  }
  return text;
}

std::string unequal_budget_warning(const std::vector<MethodTrials>& budgets) {
  const bool equal = std::all_of(budgets.begin(), budgets.end(), [&](const MethodTrials& b) {
    return b.trials == budgets.front().trials;
  });
  if (equal) return "";
  std::string text = "unequal tuning budgets: ";
  for (const MethodTrials& b : budgets) {
    text += fmt::format("{}{} {}{}", &b == &budgets.front() ? "" : ", ", b.method, b.trials,
                        &b == &budgets.front() ? (b.trials == 1 ? " trial" : " trials") : "");
  }
  return text + " — the comparison favours the method tuned more";
}

std::string budget_lines(const std::vector<MethodTrials>& budgets, std::string_view indent) {
  std::string out;
  if (const std::string trials = trials_per_method_text(budgets); !trials.empty()) {
    out += fmt::format("{}{}\n", indent, trials);
  }
  if (const std::string warning = unequal_budget_warning(budgets); !warning.empty()) {
    out += fmt::format("{}WARNING: {}\n", indent, warning);
  }
  return out;
}

}  // namespace mlregress::internal
