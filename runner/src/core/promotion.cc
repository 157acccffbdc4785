#include "promotion.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <thread>

#include "atomic_file.h"
#include "json_number.h"
#include "name_filter.h"
#include "output_error.h"
#include "sample_summary.h"
#include "statistics/power.h"

namespace mlregress::internal {
namespace {

void check_promotable(const RunRecord& run, const PromotionRequest& request) {
  std::vector<std::string> reasons;
  if (!run.results.at("run").value("complete", false)) {
    reasons.push_back("the run is incomplete (it was killed or is still running)");
  }
  for (const nlohmann::json& test : run.results.at("tests")) {
    const std::string status = test.at("status");
    if (status == "failed" || status == "crashed") {
      reasons.push_back(fmt::format("test {} {}", test.at("name").get<std::string>(), status));
    }
  }
  const nlohmann::json::json_pointer dirty("/git/dirty");
  if (run.environment.contains(dirty) && run.environment.at(dirty) == true) {
    reasons.push_back("it was built from a git tree with uncommitted changes");
  }
  if (reasons.empty() || request.force) return;
  std::string message = fmt::format("promote refuses run {}:", run.run_id);
  for (const std::string& reason : reasons) message += "\n  - " + reason;
  message += "\n(--force promotes it anyway)";
  throw PromotionRefused(message);
}

// The metric as this run would store it, keeping what the old entry knew about other profiles.
BaselineMetric promoted_metric(const nlohmann::json& metric, const BaselineMetric* old,
                               const std::string& profile_id) {
  BaselineMetric m;
  m.direction = parse_direction(metric.at("direction").get<std::string>()).value();
  m.policy = policy_from_json(metric.at("policy"));
  const double value = read_json_number(metric.at("value")).value();
  if (std::holds_alternative<Margin>(m.policy)) {
    // A distribution is portable: seeds drive the randomness, not the machine.
    for (const nlohmann::json& sample : metric.at("samples")) {
      m.samples.push_back(read_json_number(sample).value());
    }
    m.seeds = metric.at("seeds").get<std::vector<std::uint64_t>>();
  } else if (const Timing* timing = std::get_if<Timing>(&m.policy)) {
    if (old != nullptr) {
      m.by_environment = old->by_environment;
      m.cv_by_environment = old->cv_by_environment;
    }
    m.by_environment[profile_id] = value;
    m.cv_by_environment[profile_id] = timing->cv;
    m.policy = Timing{};  // the measured spread is kept per environment, not in the policy
  } else if (is_environment_bound(m.policy)) {
    if (old != nullptr) m.by_environment = old->by_environment;
    m.by_environment[profile_id] = value;
  } else {
    m.value = value;
  }
  if (old != nullptr) m.history = old->history;
  return m;
}

std::optional<double> value_for(const BaselineMetric& m, const std::string& profile_id) {
  if (!m.samples.empty()) return summarize_samples(m.samples).mean;
  if (auto it = m.by_environment.find(profile_id); it != m.by_environment.end()) return it->second;
  return m.value;
}

bool same_value(std::optional<double> a, std::optional<double> b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  return *a == *b || (std::isnan(*a) && std::isnan(*b));
}

// What the stored seed budget can detect when a later run draws fresh seeds.
std::string detectable_effect_note(const BaselineMetric& m) {
  const SampleSummary summary = summarize_samples(m.samples);
  if (summary.n < 2 || !std::isfinite(summary.sd) || summary.sd <= 0.0 ||
      m.direction == Direction::MustEqual) {
    return fmt::format("n={}, sd={}: too few or constant samples to state a detectable effect",
                       summary.n, summary.sd);
  }
  return stats::detectable_effect_sentence(summary.n, summary.sd, kPromotionAlpha, kPromotionPower,
                                           m.direction) +
         " (fresh seeds, Welch)";
}

}  // namespace

std::vector<PlannedFile> plan_promotion(const RunRecord& run, const BaselineSet& existing,
                                        const PromotionRequest& request) {
  check_promotable(run, request);
  const std::string binary = run.results.at("run").at("binary").get<std::string>();
  const std::string folder = baseline_folder(request.baselines_dir, binary);
  const NameFilter filter(request.filter);
  const nlohmann::json::json_pointer commit_at("/git/commit"), dirty_at("/git/dirty");

  std::map<std::string, PlannedFile> files;  // by path
  auto file_for = [&](const std::string& test, const std::string& source) -> PlannedFile& {
    const LoadedBaselineFile* loaded = existing.find(test);
    const std::string path = loaded ? loaded->path : folder + "/" + baseline_stem(source) + ".toml";
    auto [it, inserted] = files.try_emplace(path);
    if (inserted) {
      it->second.path = path;
      for (const LoadedBaselineFile& f : existing.files()) {
        if (f.path == path) it->second.before = f.file;
      }
      it->second.created = it->second.before.provenance.version == 0 && it->second.before.tests.empty();
      it->second.after = it->second.before;
    }
    return it->second;
  };

  for (const nlohmann::json& test : run.results.at("tests")) {
    const std::string name = test.at("name");
    const std::string status = test.at("status");
    if (!filter.matches(name, test.value("full_name", name))) continue;
    if (status == "skipped" || test.at("metrics").empty()) continue;
    if ((status == "failed" || status == "crashed") && !request.force) continue;
    PlannedFile& planned = file_for(name, test.at("file"));
    BaselineTest& target = planned.after.tests[name];
    target.config_hash = test.value("config_hash", "");
    for (const nlohmann::json& metric : test.at("metrics")) {
      const std::string metric_name = metric.at("name");
      const auto old_it = target.metrics.find(metric_name);
      const BaselineMetric* old = old_it == target.metrics.end() ? nullptr : &old_it->second;
      BaselineMetric updated = promoted_metric(metric, old, run.profile.id);
      const std::optional<double> old_value = old ? value_for(*old, run.profile.id) : std::nullopt;
      const std::optional<double> new_value = value_for(updated, run.profile.id);
      if (!old_value) {
        ++planned.new_metrics;  // nothing was replaced, so there is no history to keep
      } else if (!same_value(old_value, new_value)) {
        HistoryEntry entry;
        entry.replaced_at = request.now;
        entry.reason = request.reason;
        entry.source_run = run.run_id;
        entry.environment = is_environment_bound(updated.policy) ? run.profile.id : "";
        entry.old_value = old_value;
        entry.new_value = *new_value;
        updated.history.push_back(entry);  // version filled in below, once it is known
        ++planned.changed_metrics;
      } else if (old != nullptr && !(updated == *old)) {
        ++planned.changed_metrics;  // direction or policy changed
      }
      if (is_environment_bound(updated.policy)) planned.after.environments[run.profile.id] = run.profile;
      if (!updated.samples.empty()) {
        planned.detectable_effects.push_back(fmt::format(
            "{}.{}: {}", name, metric_name, detectable_effect_note(updated)));
      }
      target.metrics[metric_name] = std::move(updated);
    }
  }

  std::vector<PlannedFile> changed;
  for (auto& [path, planned] : files) {
    if (planned.after == planned.before) continue;  // promoting the same run twice changes nothing
    Provenance& p = planned.after.provenance;
    p.version = planned.before.provenance.version + 1;
    p.promoted_at = request.now;
    p.git_commit = run.environment.contains(commit_at) ? run.environment.at(commit_at).get<std::string>() : "unknown";
    p.git_dirty = run.environment.contains(dirty_at) && run.environment.at(dirty_at) == true;
    p.reason = request.reason;
    p.source_run = run.run_id;
    p.environment = run.profile.id;
    planned.after.environments[run.profile.id] = run.profile;
    for (auto& [test_name, test] : planned.after.tests) {
      for (auto& [metric_name, metric] : test.metrics) {
        for (HistoryEntry& entry : metric.history) {
          if (entry.version == 0) entry.version = p.version;
        }
      }
    }
    changed.push_back(std::move(planned));
  }
  return changed;
}

std::vector<PlannedFile> promote_run(const RunRecord& run, const PromotionRequest& request) {
  const std::string binary = run.results.at("run").at("binary").get<std::string>();
  const std::string folder = baseline_folder(request.baselines_dir, binary);
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw OutputError(fmt::format("cannot create '{}': {}", folder, error.message()));

  // One promotion at a time per binary: the second waits, then plans against the first's result.
  // The lock is on the folder itself, so no lock file ends up in the repository.
  const int lock = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock < 0) throw OutputError(fmt::format("cannot open '{}': {}", folder, std::strerror(errno)));
  while (::flock(lock, LOCK_EX) != 0 && errno == EINTR) {
  }
  struct Unlock {
    int fd;
    ~Unlock() { ::close(fd); }  // closing releases the lock
  } unlock{lock};

  const BaselineSet existing = BaselineSet::load(request.baselines_dir, binary, /*allow_empty=*/true);
  std::vector<PlannedFile> plan = plan_promotion(run, existing, request);
  // Test hook: widens the window in which kill -9 can land, so the atomicity test can aim at it.
  const char* pause = std::getenv("MLREGRESS_TEST_PROMOTE_PAUSE_MS");
  for (const PlannedFile& file : plan) {
    if (pause != nullptr) std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(pause)));
    write_file_atomically(file.path, render_baseline(file.after), Durability::kSurvivesPowerLoss);
  }
  return plan;
}

}  // namespace mlregress::internal
