// Tuning budgets: how many random-search trials each method of a seeded test had. A method tuned
// over more trials looks better for that alone (its best trial is the best of more draws), so the
// methods of one test are compared on equal budgets, and unequal ones are named wherever the
// budgets are shown (list, the run's console, ablation).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

struct MethodTrials {
  std::string method;
  int trials = 0;
  friend bool operator==(const MethodTrials&, const MethodTrials&) = default;
};

/// The trials of each method, in first-seen order, from the method of each variant (one entry per
/// variant); variants of no method ("", declared by hand) count for none.
std::vector<MethodTrials> count_trials(const std::vector<std::string>& method_of_each_variant);

/// "trials per method: adam 8, sgd 8"; "" when there is no method.
std::string trials_per_method_text(const std::vector<MethodTrials>& budgets);

/// "unequal tuning budgets: adam 8 trials, sgd 3 — the comparison favours the method tuned more";
/// "" when every method had the same number of trials (or there is at most one method).
std::string unequal_budget_warning(const std::vector<MethodTrials>& budgets);

/// Both of the above as lines, each after `indent`: "<indent>trials per method: …\n" and
/// "<indent>WARNING: unequal tuning budgets: …\n"; "" for what is empty.
std::string budget_lines(const std::vector<MethodTrials>& budgets, std::string_view indent);

}  // namespace mlregress::internal
