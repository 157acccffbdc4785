#include "comparison/cause_classifier.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "support/number_format.h"

namespace mlregress::internal {
namespace {

// The order rules are preferred in when several fire: evidence about the inputs first (it makes
// every later number differ), then what the metric itself counts, then the curve, the kernels and
// the machine.
constexpr std::array kPrecedence = {
    CauseClass::kData,         CauseClass::kDataOrder,     CauseClass::kPreprocessing,
    CauseClass::kCompile,      CauseClass::kOperatorCount, CauseClass::kAllocation,
    CauseClass::kOptimisation, CauseClass::kNumerics,      CauseClass::kEnvironment};

std::size_t rank(CauseClass cause) {
  return static_cast<std::size_t>(std::find(kPrecedence.begin(), kPrecedence.end(), cause) -
                                  kPrecedence.begin());
}

std::vector<std::string> name_words(const std::string& name) {
  std::vector<std::string> words;
  std::string word;
  for (const char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    } else if (!word.empty()) {
      words.push_back(std::move(word));
      word.clear();
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

bool has_word(const std::vector<std::string>& words, std::initializer_list<std::string_view> any) {
  for (const std::string& w : words) {
    for (const std::string_view a : any) {
      if (w == a) return true;
    }
  }
  return false;
}

// A learning rate, its schedule or its warmup (record_schedule: "<name>.lr_peak_step",
// record_learning_rate_scaling: "lr_per_example"). A loss or accuracy measured at a rate
// ("tail_loss_lr_0.1", "test_accuracy[lr_1e-3]") is an outcome, not the setting: left out.
bool is_learning_rate_setting(const std::vector<std::string>& words) {
  bool learning_rate = false;
  for (std::size_t i = 0; i + 1 < words.size(); ++i) {
    learning_rate = learning_rate || (words[i] == "learning" && words[i + 1] == "rate");
  }
  return (learning_rate || has_word(words, {"lr", "warmup"})) &&
         !has_word(words, {"loss", "accuracy", "acc"});
}

// What a metric counts, read from the names the runner's recorders give (record_input_statistics:
// "<name>.c<k>.mean"; record_compilation: "<name>.specialisations", ".compiling_calls",
// ".argument_signatures", ".operators"; the step counters: "ops_per_step",
// "allocations_per_step", "peak_bytes_per_step") and the same words in a test's own names.
struct MetricKindRule {
  CauseClass cause;
  std::string_view what;  ///< "an input statistic (record_input_statistics)"
};

std::optional<MetricKindRule> metric_kind(const std::string& metric) {
  static const std::regex input_statistic(R"(\.c[0-9]+\.(mean|std|min|max)$)");
  if (std::regex_search(metric, input_statistic)) {
    return MetricKindRule{CauseClass::kPreprocessing,
                          "an input statistic (record_input_statistics: <name>.c<k>.<statistic>)"};
  }
  const std::vector<std::string> words = name_words(metric);
  if (has_word(words, {"specialisations", "specializations", "compiling", "compilations",
                       "compiles", "recompiles", "recompilations", "signatures"})) {
    return MetricKindRule{CauseClass::kCompile, "a compile count (specialisations, compilations)"};
  }
  if (has_word(words, {"ops", "operators", "op", "operator"})) {
    return MetricKindRule{CauseClass::kOperatorCount, "an operator count"};
  }
  if (has_word(words, {"allocations", "allocation", "allocs", "bytes", "memory", "mem"})) {
    return MetricKindRule{CauseClass::kAllocation, "a memory or allocation counter"};
  }
  if (is_learning_rate_setting(words)) {
    return MetricKindRule{CauseClass::kOptimisation,
                          "a learning-rate setting (lr, learning_rate, warmup: record_schedule, "
                          "record_learning_rate_scaling)"};
  }
  return std::nullopt;
}

bool moved(const MetricComparison& c) { return c.verdict == Verdict::kRegression; }

std::string short_hash(const std::string& sha) { return sha.substr(0, 19) + "…"; }

// A REGRESSION of predictions whose lost examples crowd into one class: the labels or the
// examples of that class changed, more likely than the model (weak: a model can lose one class).
std::optional<std::string> concentrated_flips(const MetricComparison& c) {
  if (!c.flips || c.flips->correct_to_wrong < 5) return std::nullopt;
  // The class that lost the most examples (by_class is ordered by net loss, which a class that
  // also gained many can top without holding most of the losses).
  const ClassFlips* most = nullptr;
  for (const ClassFlips& k : c.flips->by_class) {
    if (k.net_lost > 0 && (most == nullptr || k.correct_to_wrong > most->correct_to_wrong)) {
      most = &k;
    }
  }
  if (most == nullptr || 2 * most->correct_to_wrong < c.flips->correct_to_wrong) {
    return std::nullopt;
  }
  const ClassFlips& top = *most;
  return fmt::format(
      "the predictions '{}' lost their examples mostly in class {} ({} of {} "
      "correct → wrong)",
      c.metric, top.target, top.correct_to_wrong, c.flips->correct_to_wrong);
}

// A REGRESSION of predictions whose lost examples crowd into a few slices of an attribute the
// test recorded per example (record_predictions with attributes): at least 5 lost, and the slices
// that lost significantly hold at least half of them on at most half of the examples. The
// examples of those slices, or what the data pipeline made of them, changed, more likely than
// the model as a whole (weak: a model can lose the long sequences).
std::optional<std::string> concentrated_slices(const MetricComparison& c) {
  constexpr double kSliceAlpha = 0.05;
  if (!c.flips || c.flips->correct_to_wrong < 5) return std::nullopt;
  const auto loss = concentrated_loss(c.flips->by_attribute, c.flips->correct_to_wrong,
                                      c.flips->compared, kSliceAlpha);
  if (!loss) return std::nullopt;
  return fmt::format(
      "the predictions '{}' lost their examples mostly in {}", c.metric,
      describe_concentrated_loss(*loss, c.flips->correct_to_wrong, c.flips->compared));
}

std::optional<std::string> diverged_curve(const MetricComparison& c) {
  if (!c.curve || !c.curve->first_exit_step || !moved(c)) return std::nullopt;
  return fmt::format(
      "the gated curve '{}' leaves its band from step {} (at most {} beyond it, "
      "step {})",
      c.metric, *c.curve->first_exit_step, format_value(c.curve->largest_excess),
      c.curve->largest_excess_step);
}

struct Fired {
  CauseClass cause;
  bool strong = false;
  std::string rule;
  std::vector<std::string> siblings;  ///< weak evidence from the test's other values
};

class Rules {
 public:
  void fire(CauseClass cause, bool strong, std::string rule) {
    Fired* f = find(cause);
    if (f == nullptr) {
      fired_.push_back({cause, strong, std::move(rule), {}});
    } else if (strong && !f->strong) {
      f->strong = true;
      f->rule = std::move(rule);
    } else if (strong == f->strong) {
      f->rule += "; " + rule;
    }
  }
  void sibling(CauseClass cause, std::string what) {
    Fired* f = find(cause);
    if (f == nullptr) {
      fired_.push_back({cause, false, "", {}});
      f = &fired_.back();
    }
    f->siblings.push_back(std::move(what));
  }

  Cause decide() && {
    Cause cause;
    if (fired_.empty()) return cause;  // unknown; classify_cause says what was checked
    std::stable_sort(fired_.begin(), fired_.end(), [](const Fired& a, const Fired& b) {
      if (a.strong != b.strong) return a.strong;
      return rank(a.cause) < rank(b.cause);
    });
    const bool certain = fired_.size() == 1 && fired_.front().strong;
    cause.cause = fired_.front().cause;
    cause.rule = text(fired_.front());
    for (std::size_t i = 1; i < fired_.size(); ++i) {
      cause.alternatives.push_back({fired_[i].cause, text(fired_[i])});
    }
    if (!certain) {
      cause.alternatives.push_back(
          {CauseClass::kUnknown, fired_.size() > 1
                                     ? "several rules fired; none rules out the others"
                                     : "the evidence is indirect"});
    }
    return cause;
  }

 private:
  Fired* find(CauseClass cause) {
    for (Fired& f : fired_) {
      if (f.cause == cause) return &f;
    }
    return nullptr;
  }
  static std::string text(const Fired& f) {
    std::string out = f.rule;
    if (!f.siblings.empty()) {
      constexpr std::size_t kShown = 3;
      std::vector<std::string> shown(f.siblings.begin(),
                                     f.siblings.begin() + std::min(kShown, f.siblings.size()));
      std::string list = fmt::format("{}", fmt::join(shown, ", "));
      if (f.siblings.size() > kShown)
        list += fmt::format(" and {} more", f.siblings.size() - kShown);
      out += fmt::format("{}other values of the test moved: {}", out.empty() ? "" : "; ", list);
    }
    return out;
  }

  std::vector<Fired> fired_;
};

std::string fingerprint_rule(const std::vector<FingerprintChange>& changes, std::string_view what) {
  std::vector<std::string> parts;
  for (const FingerprintChange& c : changes) {
    parts.push_back(fmt::format("the {} hash of '{}' differs from the baseline's ({} → {})", what,
                                c.name, short_hash(c.before), short_hash(c.after)));
  }
  return fmt::format("{}", fmt::join(parts, "; "));
}

std::vector<FingerprintChange> changed(const TestResult& test, const BaselineTest& baseline,
                                       FingerprintKind kind) {
  const std::map<std::string, std::string>& recorded = fingerprints_of(baseline, kind);
  std::vector<FingerprintChange> out;
  for (const RecordedDataset& d : test.datasets) {
    if (d.kind != kind) continue;
    const auto it = recorded.find(d.name);
    if (it == recorded.end() || it->second == d.sha256) continue;
    out.push_back({d.name, it->second, d.sha256});
  }
  return out;
}

// The fields of two profiles that choose the kernels, and the others, compared apart.
EnvironmentDifference split_differences(const EnvironmentProfile& before,
                                        const EnvironmentProfile& now) {
  return {profile_differences(before, now, ProfileFieldGroup::kKernels),
          profile_differences(before, now, ProfileFieldGroup::kMachine)};
}

// The rule of an `unknown` that no rule fired for: only the checks that could be made are named,
// so that no check is claimed for a test without a baseline or without fingerprints.
std::string nothing_fired(const MetricComparison& c, const CauseEvidence& evidence) {
  if (!evidence.had_baseline) {
    return "no rule fired: the test has no baseline, so no fingerprint or environment could be "
           "compared; no value is non-finite and no counter or input statistic moved";
  }
  std::vector<std::string> checked;
  if (evidence.records_datasets || evidence.records_data_orders) {
    checked.push_back(
        "the test's recorded dataset and data-order fingerprints match the baseline's");
  } else {
    checked.push_back("the test records no dataset or data-order fingerprint to compare");
  }
  if (evidence.records_checkpoints) {
    checked.push_back("the test's recorded checkpoint fingerprints match the baseline's");
  }
  checked.push_back(
      "no curve left its band, no value is non-finite, no counter or input statistic "
      "moved");
  if (const auto it = evidence.undescribed_environments.find(c.metric);
      it != evidence.undescribed_environments.end()) {
    checked.push_back(fmt::format(
        "the baseline holds '{}' for profiles it does not describe under [environments] ({}), so "
        "their fields could not be compared with this run's",
        c.metric, fmt::join(it->second, ", ")));
  } else {
    checked.push_back("the value is not bound to an environment the baseline lacks");
  }
  return fmt::format("no rule fired: {}", fmt::join(checked, "; "));
}

// A portable value (a band's) is one value for every machine, yet where the run's CPU or kernels
// differ from those of the machine the baseline file was promoted on, they may have moved it
// (runner/docs/numerics.md measured a p-value move 195% between two CPUs). Nothing shows that
// they did, so the classes are offered as alternatives, never as the cause, before `unknown`.
void offer_machine_change(Cause& cause, const MetricComparison& c, const CauseEvidence& evidence) {
  if (!moved(c) || evidence.environment_bound.contains(c.metric) || evidence.promoted_on.empty())
    return;
  const EnvironmentDifference& d = evidence.promoted_on_difference;
  std::vector<CauseRule> offered;
  if (!d.kernels.empty()) {
    offered.push_back(
        {CauseClass::kNumerics,
         fmt::format("'{}' is one value for every machine, and the baseline file was "
                     "promoted on {}, whose kernel fields differ from this run's ({})",
                     c.metric, evidence.promoted_on, d.kernels)});
  }
  if (!d.machine.empty()) {
    offered.push_back({CauseClass::kEnvironment,
                       fmt::format("'{}' is one value for every machine, and the baseline file was "
                                   "promoted on {}, whose machine differs from this run's ({})",
                                   c.metric, evidence.promoted_on, d.machine)});
  }
  for (const CauseRule& rule : offered) {
    const bool present = cause.cause == rule.cause ||
                         std::any_of(cause.alternatives.begin(), cause.alternatives.end(),
                                     [&](const CauseRule& a) { return a.cause == rule.cause; });
    if (present) continue;
    const auto unknown =
        std::find_if(cause.alternatives.begin(), cause.alternatives.end(),
                     [](const CauseRule& a) { return a.cause == CauseClass::kUnknown; });
    cause.alternatives.insert(unknown, rule);
  }
}

}  // namespace

bool needs_cause(Verdict verdict) {
  return verdict == Verdict::kRegression || verdict == Verdict::kInconclusive ||
         verdict == Verdict::kNotComparable || verdict == Verdict::kUngated;
}

CauseEvidence gather_cause_evidence(const TestResult& test, const BaselineTest* baseline,
                                    const std::map<std::string, EnvironmentProfile>& environments,
                                    const EnvironmentProfile& now, const std::string& promoted_on) {
  CauseEvidence e;
  for (const RecordedDataset& d : test.datasets) {
    e.records_datasets |= d.kind == FingerprintKind::kDataset;
    e.records_data_orders |= d.kind == FingerprintKind::kDataOrder;
    e.records_checkpoints |= d.kind == FingerprintKind::kCheckpoint;
  }
  e.had_baseline = baseline != nullptr;
  if (baseline != nullptr) {
    e.datasets = changed(test, *baseline, FingerprintKind::kDataset);
    e.data_orders = changed(test, *baseline, FingerprintKind::kDataOrder);
    e.checkpoints = changed(test, *baseline, FingerprintKind::kCheckpoint);
  }
  for (const MetricRecord& m : test.metrics) {
    if (!std::isfinite(m.value))
      e.non_finite.push_back(fmt::format("{} is {}", m.name, format_value(m.value)));
  }
  for (const RecordedCurve& curve : test.curves) {
    for (std::size_t i = 0; i < curve.curve.values.size(); ++i) {
      if (std::isfinite(curve.curve.values[i])) continue;
      const std::int64_t step =
          i < curve.curve.steps.size() ? curve.curve.steps[i] : static_cast<std::int64_t>(i);
      e.non_finite.push_back(fmt::format("the curve '{}' at step {} is {}", curve.curve.name, step,
                                         format_value(curve.curve.values[i])));
      break;
    }
  }
  if (baseline == nullptr) return e;
  if (const auto described = environments.find(promoted_on); described != environments.end()) {
    e.promoted_on = promoted_on;
    e.promoted_on_difference = split_differences(described->second, now);
  }
  for (const auto& [name, metric] : baseline->metrics) {
    if (metric.by_environment.empty()) continue;
    const std::string stored = stored_profile_id(metric, now);
    EnvironmentDifference& difference = e.environment_bound[name];
    if (!stored.empty()) continue;  // compared on its own profile: the same fields
    std::vector<std::string> kernels, machine;
    for (const auto& entry : metric.by_environment) {
      const auto described = environments.find(entry.first);
      if (described == environments.end()) {
        e.undescribed_environments[name].push_back(entry.first);
        continue;
      }
      const EnvironmentDifference d = split_differences(described->second, now);
      if (!d.kernels.empty()) kernels.push_back(fmt::format("{}: {}", entry.first, d.kernels));
      if (!d.machine.empty()) machine.push_back(fmt::format("{}: {}", entry.first, d.machine));
    }
    difference.kernels = fmt::format("{}", fmt::join(kernels, "; "));
    difference.machine = fmt::format("{}", fmt::join(machine, "; "));
  }
  return e;
}

namespace {

// The data the values were measured on, the checkpoint they were loaded from, or the order the
// data was served in, changed.
void fire_data_rules(Rules& rules, const CauseEvidence& evidence) {
  if (!evidence.datasets.empty()) {
    rules.fire(CauseClass::kData, true, fingerprint_rule(evidence.datasets, "dataset"));
  }
  if (!evidence.checkpoints.empty()) {
    rules.fire(CauseClass::kData, true, fingerprint_rule(evidence.checkpoints, "checkpoint"));
  }
  if (!evidence.data_orders.empty()) {
    rules.fire(CauseClass::kDataOrder, true,
               fingerprint_rule(evidence.data_orders, "data-order") +
                   (!evidence.datasets.empty()  ? "; a dataset hash changed too"
                    : evidence.records_datasets ? "; the dataset hash is the same"
                                                : "; the test records no dataset hash"));
  }
}

// What the compared value itself says: its kind moved, its curve diverged, its flips concentrate.
void fire_value_rules(Rules& rules, const MetricComparison& c) {
  if (moved(c)) {
    if (const auto kind = metric_kind(c.metric)) {
      rules.fire(
          kind->cause, true,
          fmt::format("'{}' is {} and it moved ({} → {})", c.metric, kind->what,
                      c.baseline ? format_value(*c.baseline) : "—", format_value(c.observed)));
    }
  }
  if (const auto curve = diverged_curve(c)) rules.fire(CauseClass::kOptimisation, true, *curve);
  if (moved(c)) {
    if (const auto flips = concentrated_flips(c)) {
      rules.fire(CauseClass::kData, false,
                 *flips + ": the labels or examples of that class may have changed");
    }
    if (const auto slices = concentrated_slices(c)) {
      rules.fire(CauseClass::kData, false,
                 *slices +
                     ": those examples, or what the data pipeline made of them, may have "
                     "changed");
    }
  }
}

void fire_numerics_rules(Rules& rules, const MetricComparison& c, const CauseEvidence& evidence) {
  if (!std::isfinite(c.observed)) {
    rules.fire(CauseClass::kNumerics, true,
               fmt::format("'{}' is {}", c.metric, format_value(c.observed)));
  } else if (!evidence.non_finite.empty()) {
    rules.fire(CauseClass::kNumerics, false,
               fmt::format("the test recorded values that are not finite: {}",
                           fmt::join(evidence.non_finite, "; ")));
  }
}

// The baseline holds the value only for other environment profiles.
void fire_environment_rules(Rules& rules, const MetricComparison& c,
                            const CauseEvidence& evidence) {
  const auto it = evidence.environment_bound.find(c.metric);
  if (it == evidence.environment_bound.end()) return;
  if (!it->second.kernels.empty()) {
    rules.fire(CauseClass::kNumerics, true,
               fmt::format("the baseline holds '{}' for profiles whose kernel fields differ from "
                           "this run's ({})",
                           c.metric, it->second.kernels));
  }
  if (!it->second.machine.empty()) {
    rules.fire(CauseClass::kEnvironment, true,
               fmt::format("the baseline holds '{}' for profiles whose machine differs from this "
                           "run's ({})",
                           c.metric, it->second.machine));
  }
}

// The test's other values that moved too, as support for the cause each points at.
void note_moved_siblings(Rules& rules, const MetricComparison& c, const TestResult& test) {
  for (const MetricComparison& other : test.comparisons) {
    if (&other == &c || other.metric == c.metric || !moved(other)) continue;
    if (const auto kind = metric_kind(other.metric)) {
      rules.sibling(kind->cause, fmt::format("'{}'", other.metric));
    }
    if (other.curve && other.curve->first_exit_step) {
      rules.sibling(
          CauseClass::kOptimisation,
          fmt::format("the curve '{}' from step {}", other.metric, *other.curve->first_exit_step));
    }
    if (const auto flips = concentrated_flips(other)) rules.sibling(CauseClass::kData, *flips);
    if (const auto slices = concentrated_slices(other)) rules.sibling(CauseClass::kData, *slices);
  }
}

}  // namespace

Cause classify_cause(const MetricComparison& c, const TestResult& test,
                     const CauseEvidence& evidence) {
  Rules rules;
  fire_data_rules(rules, evidence);
  fire_value_rules(rules, c);
  fire_numerics_rules(rules, c, evidence);
  fire_environment_rules(rules, c, evidence);
  note_moved_siblings(rules, c, test);
  Cause cause = std::move(rules).decide();
  if (cause.rule.empty()) cause.rule = nothing_fired(c, evidence);
  offer_machine_change(cause, c, evidence);
  return cause;
}

void explain_verdicts(TestResult& test, const CauseEvidence& evidence) {
  for (MetricComparison& c : test.comparisons) {
    if (needs_cause(c.verdict)) {
      c.cause = classify_cause(c, test, evidence);
    } else {
      c.cause.reset();
    }
  }
}

}  // namespace mlregress::internal
