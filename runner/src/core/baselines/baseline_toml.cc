#include "baselines/baseline_toml.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <set>
#include <sstream>

#include "baselines/seed_ranges.h"
#include "statistics/failure_rate_design.h"
#include "statistics/moments.h"
#include "support/text_sanitize.h"

namespace mlregress::internal {
namespace {

// ---------------------------------------------------------------- reading

class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  [[noreturn]] void fail(const toml::node& node, const std::string& message) const {
    const toml::source_position at = node.source().begin;
    throw BaselineError(fmt::format("{}:{}:{}: {}", source_, at.line, at.column, message));
  }

  const toml::table& table(const toml::node& node, std::string_view what) const {
    if (const toml::table* t = node.as_table()) return *t;
    fail(node, fmt::format("{} must be a table", what));
  }

  // Rejects keys outside `allowed`: a typo must not silently drop a tolerance.
  void only_keys(const toml::table& t, std::string_view what,
                 std::initializer_list<std::string_view> allowed) const {
    only_keys(t, what, std::vector<std::string_view>(allowed));
  }
  void only_keys(const toml::table& t, std::string_view what,
                 const std::vector<std::string_view>& allowed) const {
    for (const auto& [key, node] : t) {
      bool known = false;
      for (std::string_view a : allowed) known = known || key.str() == a;
      if (!known) {
        fail(node, fmt::format("unknown key '{}' in {} (expected one of: {})", key.str(), what,
                               fmt::join(allowed, ", ")));
      }
    }
  }

  const toml::node& required(const toml::table& t, std::string_view key,
                             std::string_view what) const {
    const toml::node* node = t.get(key);
    if (node == nullptr) fail(t, fmt::format("{} is missing '{}'", what, key));
    return *node;
  }

  std::string string(const toml::node& node, std::string_view what) const {
    if (const auto* s = node.as_string()) return s->get();
    fail(node, fmt::format("{} must be a string", what));
  }

  // Bounded, so that a huge value cannot wrap into a valid one when narrowed to int.
  int integer(const toml::node& node, std::string_view what, std::int64_t min = 0,
              std::int64_t max = 1'000'000'000) const {
    const auto* i = node.as_integer();
    if (i == nullptr) fail(node, fmt::format("{} must be an integer", what));
    if (i->get() < min || i->get() > max) {
      fail(node, fmt::format("{} must be between {} and {}, not {}", what, min, max, i->get()));
    }
    return static_cast<int>(i->get());
  }

  bool boolean(const toml::node& node, std::string_view what) const {
    if (const auto* b = node.as_boolean()) return b->get();
    fail(node, fmt::format("{} must be true or false", what));
  }

  double number(const toml::node& node, std::string_view what) const {
    if (const auto* f = node.as_floating_point()) return f->get();
    if (const auto* i = node.as_integer()) return static_cast<double>(i->get());
    fail(node, fmt::format("{} must be a number", what));
  }

  double tolerance(const toml::node& node, std::string_view what) const {
    const double value = number(node, what);
    if (!std::isfinite(value) || value < 0) {
      fail(node, fmt::format("{} must be a finite number >= 0, not {}", what, value));
    }
    return value;
  }

 private:
  std::string source_;
};

Provenance read_provenance(const Reader& r, const toml::table& t) {
  r.only_keys(
      t, "[provenance]",
      {"version", "promoted_at", "git_commit", "git_dirty", "reason", "source_run", "environment"});
  Provenance p;
  p.version = r.integer(r.required(t, "version", "[provenance]"), "provenance.version");
  if (const auto* n = t.get("promoted_at")) p.promoted_at = r.string(*n, "provenance.promoted_at");
  if (const auto* n = t.get("git_commit")) p.git_commit = r.string(*n, "provenance.git_commit");
  if (const auto* n = t.get("git_dirty")) p.git_dirty = r.boolean(*n, "provenance.git_dirty");
  if (const auto* n = t.get("reason")) p.reason = r.string(*n, "provenance.reason");
  if (const auto* n = t.get("source_run")) p.source_run = r.string(*n, "provenance.source_run");
  if (const auto* n = t.get("environment")) p.environment = r.string(*n, "provenance.environment");
  return p;
}

EnvironmentProfile read_environment(const Reader& r, const std::string& id, const toml::table& t) {
  const std::string what = fmt::format("[environments.{}]", id);
  r.only_keys(
      t, what,
      {"framework", "build", "cpu", "capability", "isa", "pins", "machine", "threads", "gpu"});
  EnvironmentProfile e;
  e.id = id;
  if (const auto* n = t.get("framework")) e.framework = r.string(*n, what + ".framework");
  if (const auto* n = t.get("build")) e.build = r.string(*n, what + ".build");
  if (const auto* n = t.get("cpu")) e.cpu = r.string(*n, what + ".cpu");
  if (const auto* n = t.get("machine")) e.machine = r.string(*n, what + ".machine");
  if (const auto* n = t.get("threads")) e.threads = r.integer(*n, what + ".threads", 1, 1024);
  if (const auto* n = t.get("gpu")) e.gpu = r.string(*n, what + ".gpu");
  if (const auto* n = t.get("capability")) e.capability = r.string(*n, what + ".capability");
  if (const auto* n = t.get("isa")) e.isa = r.string(*n, what + ".isa");
  if (const auto* n = t.get("pins")) e.pins = r.string(*n, what + ".pins");
  return e;
}

HistoryEntry read_history(const Reader& r, const toml::node& node, const std::string& what) {
  const toml::table& t = r.table(node, what);
  r.only_keys(
      t, what,
      {"version", "replaced_at", "reason", "source_run", "environment", "old_value", "new_value"});
  HistoryEntry h;
  h.version = r.integer(r.required(t, "version", what), what + ".version", 1);
  if (const auto* n = t.get("replaced_at")) h.replaced_at = r.string(*n, what + ".replaced_at");
  if (const auto* n = t.get("reason")) h.reason = r.string(*n, what + ".reason");
  if (const auto* n = t.get("source_run")) h.source_run = r.string(*n, what + ".source_run");
  if (const auto* n = t.get("environment")) h.environment = r.string(*n, what + ".environment");
  if (const auto* n = t.get("old_value")) h.old_value = r.number(*n, what + ".old_value");
  h.new_value = r.number(r.required(t, "new_value", what), what + ".new_value");
  return h;
}

// A calibrated band's provenance (`calibrate`); check_calibrated_band checks the band against it.
Calibration read_calibration(const Reader& r, const toml::node& node, const std::string& what,
                             const BaselineFile& file) {
  const std::string table_what = what + ".calibration";
  const toml::table& t = r.table(node, table_what);
  r.only_keys(t, table_what,
              {"repeats", "mean", "sd", "max_deviation", "k", "rule", "environment"});
  Calibration c;
  c.repeats = r.integer(r.required(t, "repeats", table_what), table_what + ".repeats", 2);
  const toml::node& mean = r.required(t, "mean", table_what);
  c.mean = r.number(mean, table_what + ".mean");
  if (!std::isfinite(c.mean)) r.fail(mean, table_what + ".mean must be a finite number");
  c.sd = r.tolerance(r.required(t, "sd", table_what), table_what + ".sd");
  c.max_deviation =
      r.tolerance(r.required(t, "max_deviation", table_what), table_what + ".max_deviation");
  const toml::node& k = r.required(t, "k", table_what);
  c.k = r.tolerance(k, table_what + ".k");
  if (c.k <= 0.0) r.fail(k, table_what + ".k must be > 0");
  const toml::node& rule = r.required(t, "rule", table_what);
  c.rule = r.string(rule, table_what + ".rule");
  if (c.rule.empty()) r.fail(rule, table_what + ".rule must say how the band was derived");
  const toml::node& environment = r.required(t, "environment", table_what);
  c.environment = r.string(environment, table_what + ".environment");
  if (!file.environments.contains(c.environment)) {
    r.fail(environment, fmt::format("{}.environment names '{}', which [environments] does not "
                                    "define",
                                    table_what, c.environment));
  }
  return c;
}

// The mean and seeds of a spread's differences, both or neither (a spread stored before they were
// kept has neither): what adding pairs needs, so a file holding one without the other is damaged.
void read_spread_seeds(const Reader& r, const toml::table& t, const std::string& table_what,
                       PairedSpread& spread) {
  const toml::node* mean = t.get("mean");
  const toml::node* seeds = t.get("seeds");
  if (mean == nullptr && seeds == nullptr) return;
  if (mean == nullptr || seeds == nullptr) {
    r.fail(mean != nullptr ? *mean : *seeds,
           fmt::format("{} needs both 'mean' and 'seeds' (the differences' mean and the seeds "
                       "they were measured on), or neither",
                       table_what));
  }
  spread.mean = r.number(*mean, table_what + ".mean");
  const std::string text = r.string(*seeds, table_what + ".seeds");
  const std::optional<std::vector<std::uint64_t>> parsed = parse_seed_ranges(text);
  if (!parsed || parsed->size() != static_cast<std::size_t>(spread.pairs)) {
    r.fail(*seeds,
           fmt::format("{}.seeds must name the {} seeds of its pairs, ascending, each once, "
                       "as \"0-51, 100-151\", not \"{}\"",
                       table_what, spread.pairs, text));
  }
  spread.seeds = *parsed;
}

// The spread of paired differences promote measured (analysis/paired_spread.h).
PairedSpread read_paired_spread(const Reader& r, const toml::node& node, const std::string& what) {
  const std::string table_what = what + ".paired_spread";
  const toml::table& t = r.table(node, table_what);
  r.only_keys(t, table_what, {"sd", "pairs", "mean", "seeds", "source_run", "measured_at"});
  PairedSpread spread;
  const toml::node& sd = r.required(t, "sd", table_what);
  spread.sd = r.tolerance(sd, table_what + ".sd");
  if (!(spread.sd > 0.0)) r.fail(sd, table_what + ".sd must be > 0: a spread of no spread");
  spread.pairs =
      r.integer(r.required(t, "pairs", table_what), table_what + ".pairs", kFewestStoredPairs);
  read_spread_seeds(r, t, table_what, spread);
  if (const auto* n = t.get("source_run"))
    spread.source_run = r.string(*n, table_what + ".source_run");
  if (const auto* n = t.get("measured_at"))
    spread.measured_at = r.string(*n, table_what + ".measured_at");
  return spread;
}

PoolBlock read_pool_block(const Reader& r, const toml::node& node, const std::string& what,
                          const BaselineFile& file) {
  const toml::table& t = r.table(node, what);
  r.only_keys(t, what, {"source_run", "seeds", "added_at", "git_commit", "reason", "environment"});
  PoolBlock block;
  block.source_run = r.string(r.required(t, "source_run", what), what + ".source_run");
  const toml::node& seeds = r.required(t, "seeds", what);
  const std::string text = r.string(seeds, what + ".seeds");
  const std::optional<std::vector<std::uint64_t>> parsed = parse_seed_ranges(text);
  if (!parsed || parsed->empty()) {
    r.fail(seeds, fmt::format("{}.seeds must name the seeds the block added, ascending, each once, "
                              "as \"0-7, 100-107\", not \"{}\"",
                              what, text));
  }
  block.seeds = *parsed;
  if (const auto* n = t.get("added_at")) block.added_at = r.string(*n, what + ".added_at");
  if (const auto* n = t.get("git_commit")) block.git_commit = r.string(*n, what + ".git_commit");
  if (const auto* n = t.get("reason")) block.reason = r.string(*n, what + ".reason");
  const toml::node& environment = r.required(t, "environment", what);
  block.environment = r.string(environment, what + ".environment");
  if (!file.environments.contains(block.environment)) {
    r.fail(environment, fmt::format("{}.environment names '{}', which [environments] does not "
                                    "define",
                                    what, block.environment));
  }
  return block;
}

// A seeded metric's blocks, each seed in one block (check_pool_seeds checks them against the
// samples).
void read_pool(const Reader& r, const toml::node& node, const std::string& what,
               const BaselineFile& file, BaselineMetric& m) {
  const std::string pool_what = what + ".pool";
  const toml::array* pool = node.as_array();
  if (pool == nullptr || pool->empty()) r.fail(node, pool_what + " must be an array of tables");
  std::set<std::uint64_t> in_blocks;
  for (const toml::node& entry : *pool) {
    PoolBlock block = read_pool_block(r, entry, pool_what, file);
    for (const std::uint64_t seed : block.seeds) {
      if (!in_blocks.insert(seed).second)
        r.fail(entry, fmt::format("{}: seed {} is in two blocks", pool_what, seed));
    }
    m.pool.push_back(std::move(block));
  }
}

// A failure rate's trials and failures, read together: the failures are bounded by the trials.
void read_failure_count(const Reader& r, const std::string& what, const toml::table& t,
                        BaselineMetric& m) {
  const toml::node& trials = r.required(t, "trials", what);
  FailureCount count;
  count.trials = r.integer(trials, what + ".trials", 1);
  count.failures = r.integer(r.required(t, "failures", what), what + ".failures", 0, count.trials);
  m.failure_count = count;
  m.value = failure_count_value(count, m.direction);
}

// An array of strings (a graduation's runs and commits).
std::vector<std::string> read_strings(const Reader& r, const toml::node& node,
                                      const std::string& what) {
  const toml::array* array = node.as_array();
  if (array == nullptr) r.fail(node, what + " must be an array of strings");
  std::vector<std::string> out;
  for (const toml::node& entry : *array) out.push_back(r.string(entry, what));
  return out;
}

// How `graduate` made the guard: the capability's numbers, runs and commits.
Graduation read_graduation(const Reader& r, const toml::node& node, const std::string& what) {
  const std::string table_what = what + ".graduation";
  const toml::table& t = r.table(node, table_what);
  r.only_keys(t, table_what,
              {"graduated_at", "reason", "target", "met", "runs", "lower_bound", "threshold", "min",
               "max", "source_runs", "commits"});
  const auto at = [&](std::string_view key) -> const toml::node& {
    return r.required(t, key, table_what);
  };
  Graduation g;
  g.graduated_at = r.string(at("graduated_at"), table_what + ".graduated_at");
  g.reason = r.string(at("reason"), table_what + ".reason");
  g.target = r.string(at("target"), table_what + ".target");
  g.runs = r.integer(at("runs"), table_what + ".runs", 1);
  g.met = r.integer(at("met"), table_what + ".met", 0, g.runs);
  g.lower_bound = r.number(at("lower_bound"), table_what + ".lower_bound");
  g.threshold = r.number(at("threshold"), table_what + ".threshold");
  g.min = r.number(at("min"), table_what + ".min");
  g.max = r.number(at("max"), table_what + ".max");
  g.source_runs = read_strings(r, at("source_runs"), table_what + ".source_runs");
  g.commits = read_strings(r, at("commits"), table_what + ".commits");
  if (g.source_runs.size() != static_cast<std::size_t>(g.runs) ||
      g.commits.size() != g.source_runs.size()) {
    r.fail(node, fmt::format("{}: {} runs, but {} source_runs and {} commits", table_what, g.runs,
                             g.source_runs.size(), g.commits.size()));
  }
  return g;
}

// One [[tests.T.demotions]] entry: a guard turned back into a capability.
Demotion read_demotion(const Reader& r, const toml::node& node, const std::string& what) {
  const toml::table& t = r.table(node, what);
  r.only_keys(t, what, {"metric", "demoted_at", "reason", "graduated_at"});
  Demotion d;
  d.metric = r.string(r.required(t, "metric", what), what + ".metric");
  d.demoted_at = r.string(r.required(t, "demoted_at", what), what + ".demoted_at");
  d.reason = r.string(r.required(t, "reason", what), what + ".reason");
  if (const auto* n = t.get("graduated_at")) d.graduated_at = r.string(*n, what + ".graduated_at");
  return d;
}

std::vector<Demotion> read_demotions(const Reader& r, const toml::node& node,
                                     const std::string& what) {
  const toml::array* array = node.as_array();
  if (array == nullptr) r.fail(node, what + " must be an array of tables");
  std::vector<Demotion> demotions;
  for (const toml::node& entry : *array) demotions.push_back(read_demotion(r, entry, what));
  return demotions;
}

// ---------------------------------------------------------------- writing

bool is_bare_key(std::string_view key) {
  if (key.empty()) return false;
  for (char c : key) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// A TOML basic string holding `text`: control characters escaped, and valid UTF-8 (an invalid
// byte becomes U+FFFD), so the reader always takes back what promote writes. Not called
// "quoted": with a std::string argument, ADL would pick std::quoted, which escapes nothing but
// quotes and backslashes.
std::string toml_string(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : valid_utf8(text)) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        if (c < 0x20 || c == 0x7F) {
          out += fmt::format("\\u{:04X}", c);
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

std::string key(std::string_view k) { return is_bare_key(k) ? std::string(k) : toml_string(k); }

// Shortest text that reads back as the same double, always a TOML float ("1.0", not "1").
std::string number(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  std::string text = fmt::format("{}", value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

std::string inline_table(const std::map<std::string, double>& values) {
  std::string out = "{ ";
  bool first = true;
  for (const auto& [env, v] : values) {
    out += (first ? "" : ", ") + key(env) + " = " + number(v);
    first = false;
  }
  return out + " }";
}

// ---------------------------------------------------------------- a metric's keys

// What reading a metric's table works with: where it is, the file (its [environments]), the
// metric read so far, and what earlier keys tell later ones.
struct MetricReading {
  const Reader& r;
  const std::string& what;  // "[tests.T.metrics.M]"
  const toml::table& t;
  const BaselineFile& file;
  BaselineMetric m = {};
  std::string policy = "default";                    // the 'policy' key, read before the others
  std::optional<BreakdownUnit> breakdown_unit = {};  // every breakdown's (check_breakdowns)
};

using ReadKey = void (*)(MetricReading& in, const toml::node& node);
using WriteKey = void (*)(std::ostringstream& out, const std::string& path,
                          const BaselineMetric& m);

// One key of a metric's table, the one place that says how it is read and written. The reader
// walks kMetricKeys in order, then checks the keys that depend on each other (the check_* steps
// of read_metric); the writer walks it in order, sub-tables last.
struct MetricKey {
  std::string_view name;
  std::string_view policy = {};  // the only policy the key applies to; empty: every policy
  bool required = false;
  ReadKey read = nullptr;  // nullptr: read with the key that bounds it, by a check_* step
  bool sub_table = false;  // [path.<name>...]: written after the metric's own keys
  WriteKey write = nullptr;
};

std::string_view policy_key_name(const TolerancePolicy& policy) {
  if (std::holds_alternative<Band>(policy)) return "band";
  if (std::holds_alternative<Exact>(policy)) return "exact";
  if (std::holds_alternative<Margin>(policy)) return "margin";
  if (std::holds_alternative<Timing>(policy)) return "timing";
  if (std::holds_alternative<FailureRate>(policy)) return "failure_rate";
  return "default";
}

void read_direction(MetricReading& in, const toml::node& node) {
  const std::string direction = in.r.string(node, in.what + ".direction");
  const std::optional<Direction> parsed = parse_direction(direction);
  if (!parsed) {
    in.r.fail(node, fmt::format("unknown direction '{}' (expected lower_is_better, "
                                "higher_is_better or must_equal)",
                                direction));
  }
  in.m.direction = *parsed;
}

// The metric's policy ("default" without one); its own keys follow it in kMetricKeys.
void read_policy(MetricReading& in, const toml::node& node) {
  in.policy = in.r.string(node, in.what + ".policy");
  if (in.policy == "band") {
    in.m.policy = Band{};
  } else if (in.policy == "margin") {
    in.m.policy = Margin{};
  } else if (in.policy == "failure_rate") {
    in.m.policy = FailureRate{};
  } else if (in.policy == "exact") {
    in.m.policy = Exact{};
  } else if (in.policy == "timing") {
    in.m.policy = Timing{};
  } else if (in.policy != "default") {
    in.r.fail(node, fmt::format("unknown policy '{}' (expected band, exact, margin, timing, "
                                "failure_rate or default)",
                                in.policy));
  }
}

void read_scope(MetricReading& in, const toml::node& node) {
  const std::string text = in.r.string(node, in.what + ".scope");
  const std::optional<Scope> scope = parse_scope(text);
  if (!scope || *scope == Scope::Auto) {
    in.r.fail(node,
              fmt::format("unknown scope '{}' (expected portable, numerics or machine)", text));
  }
  in.m.policy = Exact{*scope};
}

void read_covariate(MetricReading& in, const toml::node& node) {
  Margin& margin = std::get<Margin>(in.m.policy);
  margin.covariate = in.r.string(node, in.what + ".covariate");
  if (margin.covariate.empty()) in.r.fail(node, in.what + ".covariate names no metric");
}

void read_values(MetricReading& in, const toml::node& node) {
  const toml::table& values = in.r.table(node, in.what + ".values");
  for (const auto& [env, v] : values) {
    if (in.file.environments.count(std::string(env.str())) == 0) {
      in.r.fail(v, fmt::format("{}.values names environment '{}', which [environments] does not "
                               "define",
                               in.what, env.str()));
    }
    in.m.by_environment[std::string(env.str())] =
        in.r.number(v, in.what + ".values." + std::string(env.str()));
  }
}

// A timing's cv per environment (check_timing_cv: one for each of its values).
void read_cv(MetricReading& in, const toml::node& node) {
  for (const auto& [env, v] : in.r.table(node, in.what + ".cv")) {
    in.m.cv_by_environment[std::string(env.str())] =
        in.r.tolerance(v, in.what + ".cv." + std::string(env.str()));
  }
}

// A seeded metric keeps every per-seed sample (check_samples: one seed each).
void read_seeds(MetricReading& in, const toml::node& node) {
  const toml::array* seeds = node.as_array();
  if (seeds == nullptr) in.r.fail(node, in.what + ".seeds must be an array of integers");
  std::set<std::int64_t> seen;
  for (const toml::node& seed : *seeds) {
    const auto* i = seed.as_integer();
    if (i == nullptr || i->get() < 0) in.r.fail(seed, in.what + ".seeds must hold integers >= 0");
    if (!seen.insert(i->get()).second)
      in.r.fail(seed, fmt::format("{}.seeds lists seed {} twice", in.what, i->get()));
    in.m.seeds.push_back(static_cast<std::uint64_t>(i->get()));
  }
}

void read_samples(MetricReading& in, const toml::node& node) {
  const toml::array* samples = node.as_array();
  if (samples == nullptr) in.r.fail(node, in.what + ".samples must be an array of numbers");
  for (const toml::node& sample : *samples)
    in.m.samples.push_back(in.r.number(sample, in.what + ".samples[]"));
  if (in.m.samples.empty()) in.r.fail(node, in.what + ".samples is empty");
}

void read_detect(MetricReading& in, const toml::node& node) {
  const double rate = in.r.number(node, in.what + ".detect");
  if (!(rate > 0.0 && rate < 1.0))
    in.r.fail(node, fmt::format("{}.detect must be a rate between 0 and 1, not {}", in.what, rate));
  std::get<FailureRate>(in.m.policy).detect = rate;
}

// The interval is written for the reader of the file; the gate recomputes what it needs.
void read_interval(MetricReading& in, const toml::node& node) {
  const toml::array* interval = node.as_array();
  if (interval == nullptr || interval->size() != 2)
    in.r.fail(node, in.what + ".interval must be [lower, upper]");
  for (const toml::node& bound : *interval) in.r.number(bound, in.what + ".interval[]");
}

void read_breakdown_unit(MetricReading& in, const toml::node& node) {
  const std::string unit_text = in.r.string(node, in.what + ".breakdown_unit");
  in.breakdown_unit = parse_breakdown_unit(unit_text);
  if (!in.breakdown_unit) {
    in.r.fail(node, fmt::format("unknown breakdown_unit '{}' (expected calls, allocations or "
                                "bytes)",
                                unit_text));
  }
}

// A metric's breakdown by operator: one table of operator counts per environment profile,
// [<metric>.breakdown.<profile>] "aten::addmm" = 12 (check_breakdowns gives them their unit).
void read_breakdown(MetricReading& in, const toml::node& node) {
  const std::string table_what = in.what + ".breakdown";
  const toml::table& profiles = in.r.table(node, table_what);
  if (profiles.empty()) in.r.fail(node, table_what + " holds no environment");
  for (const auto& [env, operators_node] : profiles) {
    const std::string id(env.str());
    const std::string env_what = table_what + "." + id;
    if (in.file.environments.count(id) == 0) {
      in.r.fail(operators_node,
                fmt::format("{} names environment '{}', which [environments] does not define",
                            table_what, id));
    }
    Breakdown breakdown;
    for (const auto& [name, count] : in.r.table(operators_node, env_what)) {
      if (name.str().empty()) in.r.fail(count, env_what + " has an operator without a name");
      const auto* i = count.as_integer();
      if (i == nullptr || i->get() < 0) {
        in.r.fail(count, fmt::format("{}.\"{}\" must be an integer >= 0", env_what, name.str()));
      }
      breakdown.by_operator[std::string(name.str())] = i->get();
    }
    in.m.breakdowns[id] = std::move(breakdown);
  }
}

void read_history_key(MetricReading& in, const toml::node& node) {
  const toml::array* history = node.as_array();
  if (history == nullptr) in.r.fail(node, in.what + ".history must be an array of tables");
  for (const toml::node& entry : *history)
    in.m.history.push_back(read_history(in.r, entry, in.what + ".history"));
}

void write_paired_spread(std::ostringstream& out, const std::string&, const BaselineMetric& m) {
  if (!m.paired_spread) return;
  const PairedSpread& p = *m.paired_spread;
  out << "paired_spread = { sd = " << number(p.sd) << ", pairs = " << p.pairs;
  if (!p.seeds.empty())
    out << ", mean = " << number(p.mean) << ", seeds = " << toml_string(seed_ranges_text(p.seeds));
  out << ", source_run = " << toml_string(p.source_run)
      << ", measured_at = " << toml_string(p.measured_at) << " }\n";
}

void write_calibration(std::ostringstream& out, const std::string&, const BaselineMetric& m) {
  if (!std::holds_alternative<Band>(m.policy) || !m.calibration) return;
  const Calibration& c = *m.calibration;
  out << "calibration = { repeats = " << c.repeats << ", mean = " << number(c.mean)
      << ", sd = " << number(c.sd) << ", max_deviation = " << number(c.max_deviation)
      << ", k = " << number(c.k) << ", rule = " << toml_string(c.rule)
      << ", environment = " << toml_string(c.environment) << " }\n";
}

void write_interval(std::ostringstream& out, const std::string&, const BaselineMetric& m) {
  if (!m.failure_count) return;
  const FailureCount& count = *m.failure_count;
  const stats::RateInterval interval = stats::clopper_pearson(count.failures, count.trials, 0.95);
  out << "interval = [" << number(interval.lower) << ", " << number(interval.upper)
      << "]  # 95% Clopper-Pearson\n";
}

void write_breakdown(std::ostringstream& out, const std::string& path, const BaselineMetric& m) {
  for (const auto& [id, breakdown] : m.breakdowns) {
    out << "\n[" << path << ".breakdown." << key(id) << "]\n";
    for (const auto& [name, count] : breakdown.by_operator)
      out << key(name) << " = " << count << "\n";
  }
}

void write_pool(std::ostringstream& out, const std::string& path, const BaselineMetric& m) {
  for (const PoolBlock& block : m.pool) {
    out << "\n[[" << path << ".pool]]\n"
        << "source_run = " << toml_string(block.source_run) << "\n"
        << "seeds = " << toml_string(seed_ranges_text(block.seeds)) << "\n"
        << "added_at = " << toml_string(block.added_at) << "\n"
        << "git_commit = " << toml_string(block.git_commit) << "\n"
        << "reason = " << toml_string(block.reason) << "\n"
        << "environment = " << toml_string(block.environment) << "\n";
  }
}

void write_history(std::ostringstream& out, const std::string& path, const BaselineMetric& m) {
  for (const HistoryEntry& h : m.history) {
    out << "\n[[" << path << ".history]]\n"
        << "version = " << h.version << "\n"
        << "replaced_at = " << toml_string(h.replaced_at) << "\n"
        << "reason = " << toml_string(h.reason) << "\n"
        << "source_run = " << toml_string(h.source_run) << "\n";
    if (!h.environment.empty()) out << "environment = " << toml_string(h.environment) << "\n";
    if (h.old_value) out << "old_value = " << number(*h.old_value) << "\n";
    out << "new_value = " << number(h.new_value) << "\n";
  }
}

std::string toml_strings(const std::vector<std::string>& values) {
  std::string out = "[";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + toml_string(values[i]);
  return out + "]";
}

void write_graduation(std::ostringstream& out, const std::string& path, const BaselineMetric& m) {
  if (!m.graduation) return;
  const Graduation& g = *m.graduation;
  out << "\n[" << path << ".graduation]\n"
      << "graduated_at = " << toml_string(g.graduated_at) << "\n"
      << "reason = " << toml_string(g.reason) << "\n"
      << "target = " << toml_string(g.target) << "\n"
      << "met = " << g.met << "\n"
      << "runs = " << g.runs << "\n"
      << "lower_bound = " << number(g.lower_bound) << "  # 95% Wilson\n"
      << "threshold = " << number(g.threshold) << "\n"
      << "min = " << number(g.min) << "\n"
      << "max = " << number(g.max) << "\n"
      << "source_runs = " << toml_strings(g.source_runs) << "\n"
      << "commits = " << toml_strings(g.commits) << "\n";
}

void write_demotions(std::ostringstream& out, const std::string& path, const BaselineTest& t) {
  for (const Demotion& d : t.demotions) {
    out << "\n[[" << path << ".demotions]]\n"
        << "metric = " << toml_string(d.metric) << "\n"
        << "demoted_at = " << toml_string(d.demoted_at) << "\n"
        << "reason = " << toml_string(d.reason) << "\n";
    if (!d.graduated_at.empty()) out << "graduated_at = " << toml_string(d.graduated_at) << "\n";
  }
}

// The keys of a metric's table, in the order the reader lists them when it meets an unknown one
// and the writer writes them.
const MetricKey kMetricKeys[] = {
    {.name = "direction",
     .required = true,
     .read = read_direction,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           out << "direction = " << toml_string(direction_name(m.direction)) << "\n";
         }},
    {.name = "policy",
     .read = read_policy,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           out << "policy = " << toml_string(policy_key_name(m.policy)) << "\n";
         }},
    {.name = "scope",
     .policy = "exact",
     .read = read_scope,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           const Exact* exact = std::get_if<Exact>(&m.policy);
           if (exact != nullptr && exact->scope != Scope::Auto)
             out << "scope = " << toml_string(scope_name(exact->scope)) << "\n";
         }},
    {.name = "rtol",
     .policy = "band",
     .read =
         [](MetricReading& in, const toml::node& node) {
           std::get<Band>(in.m.policy).rtol = in.r.tolerance(node, in.what + ".rtol");
         },
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (const Band* band = std::get_if<Band>(&m.policy))
             out << "rtol = " << number(band->rtol) << "\n";
         }},
    {.name = "atol",
     .policy = "band",
     .read =
         [](MetricReading& in, const toml::node& node) {
           std::get<Band>(in.m.policy).atol = in.r.tolerance(node, in.what + ".atol");
         },
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (const Band* band = std::get_if<Band>(&m.policy))
             out << "atol = " << number(band->atol) << "\n";
         }},
    {.name = "calibration",
     .policy = "band",
     .read =
         [](MetricReading& in, const toml::node& node) {
           in.m.calibration = read_calibration(in.r, node, in.what, in.file);
         },
     .write = write_calibration},
    {.name = "margin",
     .policy = "margin",
     .read =
         [](MetricReading& in, const toml::node& node) {
           std::get<Margin>(in.m.policy).delta = in.r.tolerance(node, in.what + ".margin");
         },
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (const Margin* margin = std::get_if<Margin>(&m.policy))
             out << "margin = " << number(margin->delta) << "\n";
         }},
    {.name = "covariate",
     .policy = "margin",
     .read = read_covariate,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           const Margin* margin = std::get_if<Margin>(&m.policy);
           if (margin != nullptr && !margin->covariate.empty())
             out << "covariate = " << toml_string(margin->covariate) << "\n";
         }},
    {.name = "value",
     .read = [](MetricReading& in,
                const toml::node& node) { in.m.value = in.r.number(node, in.what + ".value"); },
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           // A rate's value is its count's: written once, as failures and trials.
           if (m.value && !m.failure_count) out << "value = " << number(*m.value) << "\n";
         }},
    {.name = "values",
     .read = read_values,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (!m.by_environment.empty())
             out << "values = " << inline_table(m.by_environment) << "\n";
         }},
    {.name = "cv",
     .policy = "timing",
     .read = read_cv,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (!m.cv_by_environment.empty())
             out << "cv = " << inline_table(m.cv_by_environment) << "\n";
         }},
    {.name = "seeds",
     .policy = "margin",
     .read = read_seeds,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (m.samples.empty()) return;
           out << "seeds = [";
           for (std::size_t i = 0; i < m.seeds.size(); ++i) out << (i ? ", " : "") << m.seeds[i];
           out << "]\n";
         }},
    {.name = "samples",
     .policy = "margin",
     .read = read_samples,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (m.samples.empty()) return;
           out << "samples = [";
           for (std::size_t i = 0; i < m.samples.size(); ++i)
             out << (i ? ", " : "") << number(m.samples[i]);
           out << "]\n";
         }},
    // Written for people, and checked against the samples on reading (check_samples).
    {.name = "summary",
     .policy = "margin",
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (m.samples.empty()) return;
           const stats::SampleSummary summary = stats::summarize_samples(m.samples);
           out << "summary = { n = " << summary.n << ", mean = " << number(summary.mean)
               << ", sd = " << number(summary.sd) << " }\n";
         }},
    {.name = "paired_spread",
     .policy = "margin",
     .read =
         [](MetricReading& in, const toml::node& node) {
           in.m.paired_spread = read_paired_spread(in.r, node, in.what);
         },
     .write = write_paired_spread},
    {.name = "pool",
     .policy = "margin",
     .read = [](MetricReading& in,
                const toml::node& node) { read_pool(in.r, node, in.what, in.file, in.m); },
     .sub_table = true,
     .write = write_pool},
    {.name = "detect",
     .policy = "failure_rate",
     .read = read_detect,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (const FailureRate* rate = std::get_if<FailureRate>(&m.policy))
             out << "detect = " << number(rate->detect) << "\n";
         }},
    // failures and trials: read together by read_failure_count.
    {.name = "failures",
     .policy = "failure_rate",
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (m.failure_count) out << "failures = " << m.failure_count->failures << "\n";
         }},
    {.name = "trials",
     .policy = "failure_rate",
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (m.failure_count) out << "trials = " << m.failure_count->trials << "\n";
         }},
    {.name = "interval", .policy = "failure_rate", .read = read_interval, .write = write_interval},
    {.name = "breakdown_unit",
     .read = read_breakdown_unit,
     .write =
         [](std::ostringstream& out, const std::string&, const BaselineMetric& m) {
           if (m.breakdowns.empty()) return;
           out << "breakdown_unit = "
               << toml_string(breakdown_unit_name(m.breakdowns.begin()->second.unit)) << "\n";
         }},
    {.name = "breakdown", .read = read_breakdown, .sub_table = true, .write = write_breakdown},
    {.name = "graduation",
     .policy = "band",
     .read = [](MetricReading& in,
                const toml::node& node) { in.m.graduation = read_graduation(in.r, node, in.what); },
     .sub_table = true,
     .write = write_graduation},
    {.name = "history", .read = read_history_key, .sub_table = true, .write = write_history},
};

std::vector<std::string_view> metric_key_names() {
  std::vector<std::string_view> names;
  for (const MetricKey& entry : kMetricKeys) names.push_back(entry.name);
  return names;
}

// ---- the checks of keys that depend on each other, after every key is read

// A calibrated band's provenance (`calibrate`): the band must be the one its numbers give, so a
// hand edit of either side is caught, as a seeded metric's summary is.
void check_calibrated_band(const MetricReading& in) {
  const Band& band = std::get<Band>(in.m.policy);
  const double expected = calibrated_half_width(*in.m.calibration);
  if (band.rtol != 0.0 || std::fabs(band.atol - expected) > 1e-9 * std::max(expected, 1e-300)) {
    in.r.fail(*in.t.get("calibration"),
              fmt::format("{}: the band (rtol = {}, atol = {}) is not the one its calibration "
                          "gives (rtol = 0, atol = max(k × sd, max_deviation) = {}); run "
                          "calibrate again instead of editing by hand, or remove the "
                          "calibration table to set the band by hand",
                          in.what, band.rtol, band.atol, expected));
  }
}

// The keys a policy cannot do without, and a calibration's agreement with its band.
void check_policy_keys(const MetricReading& in) {
  if (in.policy == "margin") in.r.required(in.t, "margin", in.what);
  if (in.policy == "failure_rate") in.r.required(in.t, "detect", in.what);
  if (in.m.calibration) check_calibrated_band(in);
}

// An exact value's scope, and the storage it implies: a portable value is one 'value', gated on
// every machine; numerics and machine values are per environment profile ('values').
void check_scope_storage(const MetricReading& in) {
  const toml::node* node = in.t.get("scope");
  if (node == nullptr) return;
  const std::string text = in.r.string(*node, in.what + ".scope");
  const Scope scope = std::get<Exact>(in.m.policy).scope;
  if (scope == Scope::Portable && in.t.get("values") != nullptr) {
    in.r.fail(*in.t.get("values"),
              in.what + ": a portable value is one 'value', not per environment");
  }
  if (scope != Scope::Portable && in.t.get("value") != nullptr) {
    in.r.fail(*in.t.get("value"),
              fmt::format("{}: a {} value is stored per environment ('values'), not as 'value'",
                          in.what, text));
  }
}

// A seeded metric's samples, one per seed; the summary is written for people and checked on
// reading, so a hand edit of one side without the other is caught.
void check_samples(const MetricReading& in) {
  const Reader& r = in.r;
  const std::string& what = in.what;
  const BaselineMetric& m = in.m;
  r.required(in.t, "seeds", what);
  const toml::node& samples_node = r.required(in.t, "samples", what);
  if (m.samples.size() != m.seeds.size()) {
    r.fail(samples_node,
           fmt::format("{} has {} samples but {} seeds", what, m.samples.size(), m.seeds.size()));
  }
  const toml::node* summary_node = in.t.get("summary");
  if (summary_node == nullptr) return;
  const toml::table& summary = r.table(*summary_node, what + ".summary");
  r.only_keys(summary, what + ".summary", {"n", "mean", "sd"});
  const stats::SampleSummary expected = stats::summarize_samples(m.samples);
  const int n = r.integer(r.required(summary, "n", what + ".summary"), what + ".summary.n");
  const double mean =
      r.number(r.required(summary, "mean", what + ".summary"), what + ".summary.mean");
  const double sd = r.number(r.required(summary, "sd", what + ".summary"), what + ".summary.sd");
  const auto close = [](double a, double b) {
    return (std::isnan(a) && std::isnan(b)) ||
           std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
  };
  if (static_cast<std::size_t>(n) != expected.n || !close(mean, expected.mean) ||
      !close(sd, expected.sd)) {
    r.fail(*summary_node,
           fmt::format("{}.summary (n={}, mean={}, sd={}) does not match its samples "
                       "(n={}, mean={}, sd={}); promote again instead of editing by hand",
                       what, n, mean, sd, expected.n, expected.mean, expected.sd));
  }
}

// The blocks of a seeded metric must account for its seeds exactly: each seed in one block
// (read_pool), and no block naming a seed the samples lack (a hand edit of the samples alone is
// caught).
void check_pool_seeds(const MetricReading& in) {
  const toml::node* node = in.t.get("pool");
  if (node == nullptr) return;
  std::set<std::uint64_t> in_blocks;
  for (const PoolBlock& block : in.m.pool) in_blocks.insert(block.seeds.begin(), block.seeds.end());
  const std::set<std::uint64_t> sampled(in.m.seeds.begin(), in.m.seeds.end());
  if (in_blocks != sampled) {
    in.r.fail(*node,
              fmt::format("{}: the blocks hold seeds {}, the samples seeds {}; promote "
                          "again instead of editing by hand",
                          in.what + ".pool", seed_ranges_text({in_blocks.begin(), in_blocks.end()}),
                          seed_ranges_text(in.m.seeds)));
  }
}

// Where the policy keeps the metric's value: per-seed samples (margin), failures and trials
// (failure_rate), else 'value' or 'values'.
void check_value_storage(MetricReading& in) {
  if (in.policy == "margin") {
    for (const char* k : {"value", "values"}) {
      if (const auto* n = in.t.get(k))
        in.r.fail(*n,
                  fmt::format("'{}' does not apply to policy \"margin\" (it stores samples)", k));
    }
    check_samples(in);
    check_pool_seeds(in);
    if (in.m.paired_spread &&
        static_cast<std::size_t>(in.m.paired_spread->pairs) > in.m.seeds.size()) {
      in.r.fail(
          *in.t.get("paired_spread"),
          fmt::format("{}.paired_spread counts {} pairs, more than the {} seeds it was measured "
                      "on; promote again instead of editing by hand",
                      in.what, in.m.paired_spread->pairs, in.m.seeds.size()));
    }
  } else if (in.policy == "failure_rate") {
    for (const char* k : {"value", "values"}) {
      if (const auto* n = in.t.get(k))
        in.r.fail(*n, fmt::format("'{}' does not apply to policy \"failure_rate\" (it stores "
                                  "failures and trials)",
                                  k));
    }
    read_failure_count(in.r, in.what, in.t, in.m);
  } else if (!in.m.value && in.m.by_environment.empty()) {
    in.r.fail(in.t, in.what + " has neither 'value' nor 'values'");
  }
}

// A timing is stored per environment, with a cv for each of its values.
void check_timing_cv(const MetricReading& in) {
  if (in.policy != "timing") return;
  if (in.m.value)
    in.r.fail(*in.t.get("value"),
              in.what + ": a timing is stored per environment ('values'), not as 'value'");
  const toml::node& cv_node = in.r.required(in.t, "cv", in.what);
  for (const auto& [env, v] : *cv_node.as_table()) {
    if (in.m.by_environment.count(std::string(env.str())) == 0) {
      in.r.fail(v, fmt::format("{}.cv names environment '{}', which {}.values does not", in.what,
                               env.str(), in.what));
    }
  }
  if (in.m.cv_by_environment.size() != in.m.by_environment.size()) {
    in.r.fail(cv_node, in.what + ".cv needs one entry per environment in " + in.what + ".values");
  }
}

// A breakdown needs its unit, which holds for every profile's counts, and a single value.
void check_breakdowns(MetricReading& in) {
  if (in.t.get("breakdown_unit") == nullptr && in.t.get("breakdown") == nullptr) return;
  if (in.policy == "margin" || in.policy == "failure_rate") {
    in.r.fail(in.t, fmt::format("{}: a breakdown by operator applies to a single value, not to "
                                "policy \"{}\"",
                                in.what, in.policy));
  }
  in.r.required(in.t, "breakdown_unit", in.what);
  in.r.required(in.t, "breakdown", in.what);
  for (auto& [id, breakdown] : in.m.breakdowns) breakdown.unit = *in.breakdown_unit;
}

BaselineMetric read_metric(const Reader& r, const std::string& what, const toml::table& t,
                           const BaselineFile& file) {
  r.only_keys(t, what, metric_key_names());
  MetricReading in{.r = r, .what = what, .t = t, .file = file};
  for (const MetricKey& entry : kMetricKeys) {
    const toml::node* node = entry.required ? &r.required(t, entry.name, what) : t.get(entry.name);
    if (node == nullptr) continue;
    // A key of another policy is a mistake, not something to ignore silently.
    if (!entry.policy.empty() && entry.policy != in.policy)
      r.fail(*node, fmt::format("'{}' only applies to policy \"{}\"", entry.name, entry.policy));
    if (entry.read != nullptr) entry.read(in, *node);
  }
  check_policy_keys(in);
  check_scope_storage(in);
  check_value_storage(in);
  check_timing_cv(in);
  check_breakdowns(in);
  return std::move(in.m);
}

// One metric's table at `path` ("tests.T.metrics.M"): its own keys, then its sub-tables (a key
// written after a sub-table's header would belong to the sub-table).
void render_metric(std::ostringstream& out, const std::string& path, const BaselineMetric& m) {
  for (const MetricKey& entry : kMetricKeys)
    if (!entry.sub_table) entry.write(out, path, m);
  for (const MetricKey& entry : kMetricKeys)
    if (entry.sub_table) entry.write(out, path, m);
}

// The [tests.X] keys that map names to strings (fingerprints, "sha256:<hex>"; then the
// properties and the config), each with its map in the test, in the order they are written; a const
// test gives const maps.
template <typename Test>
auto string_map_fields(Test& test) {
  return std::array{std::pair{"datasets", &test.datasets},
                    std::pair{"data_order", &test.data_orders},
                    std::pair{"checkpoints", &test.checkpoints},
                    std::pair{"properties", &test.properties}, std::pair{"config", &test.config}};
}

// The [tests.<test>.metrics.*] tables.
void read_metrics(const Reader& r, const toml::node& metrics, const std::string& test_name,
                  const BaselineFile& file, BaselineTest& test) {
  for (const auto& [metric_name, metric_node] :
       r.table(metrics, fmt::format("[tests.{}].metrics", test_name))) {
    const std::string metric_what =
        fmt::format("[tests.{}.metrics.{}]", test_name, metric_name.str());
    test.metrics[std::string(metric_name.str())] =
        read_metric(r, metric_what, r.table(metric_node, metric_what), file);
  }
}

}  // namespace

BaselineFile parse_baseline(std::string_view text, const std::string& source_name) {
  toml::table root;
  try {
    root = toml::parse(text, source_name);
  } catch (const toml::parse_error& error) {
    const toml::source_position at = error.source().begin;
    throw BaselineError(
        fmt::format("{}:{}:{}: {}", source_name, at.line, at.column, error.description()));
  }
  const Reader r(source_name);
  BaselineFile file;
  r.only_keys(root, "the baseline file", {"schema_version", "provenance", "environments", "tests"});
  const toml::node& version_node = r.required(root, "schema_version", "the baseline file");
  file.schema_version = r.integer(version_node, "schema_version", 1, 1'000'000);
  if (file.schema_version > kBaselineSchemaVersion) {
    r.fail(version_node, fmt::format("schema_version {} was written by a newer mlregress; this one "
                                     "reads up to {}",
                                     file.schema_version, kBaselineSchemaVersion));
  }
  file.provenance = read_provenance(
      r, r.table(r.required(root, "provenance", "the baseline file"), "provenance"));
  if (const toml::node* envs = root.get("environments")) {
    for (const auto& [id, node] : r.table(*envs, "environments")) {
      file.environments[std::string(id.str())] =
          read_environment(r, std::string(id.str()), r.table(node, "environment"));
    }
  }
  if (const toml::node* tests = root.get("tests")) {
    for (const auto& [name, node] : r.table(*tests, "tests")) {
      const std::string what = fmt::format("[tests.{}]", name.str());
      const toml::table& t = r.table(node, what);
      r.only_keys(t, what,
                  {"config_hash", "config", "datasets", "data_order", "checkpoints", "properties",
                   "metrics", "demotions"});
      BaselineTest test;
      if (const auto* n = t.get("config_hash"))
        test.config_hash = r.string(*n, what + ".config_hash");
      for (const auto& [field, entries] : string_map_fields(test)) {
        const toml::node* node = t.get(field);
        if (node == nullptr) continue;
        const std::string field_what = fmt::format("{}.{}", what, field);
        for (const auto& [name_key, value] : r.table(*node, field_what)) {
          (*entries)[std::string(name_key.str())] =
              r.string(value, fmt::format("{}.{}", field_what, name_key.str()));
        }
      }
      if (const auto* metrics = t.get("metrics"))
        read_metrics(r, *metrics, std::string(name.str()), file, test);
      if (const auto* demotions = t.get("demotions"))
        test.demotions = read_demotions(r, *demotions, what + ".demotions");
      file.tests[std::string(name.str())] = std::move(test);
    }
  }
  return file;
}

namespace {

// One [environments.ID] table.
void render_environment(std::ostringstream& out, const std::string& id,
                        const EnvironmentProfile& e) {
  out << "\n[environments." << key(id) << "]\n"
      << "framework = " << toml_string(e.framework) << "\n"
      << "build = " << toml_string(e.build) << "\n";
  // A numerics profile holds for every CPU of its capability: it has no cpu key.
  if (!e.cpu.empty()) out << "cpu = " << toml_string(e.cpu) << "\n";
  if (!e.capability.empty()) out << "capability = " << toml_string(e.capability) << "\n";
  if (!e.isa.empty()) out << "isa = " << toml_string(e.isa) << "\n";
  if (!e.pins.empty()) out << "pins = " << toml_string(e.pins) << "\n";
  out << "machine = " << toml_string(e.machine) << "\n"
      << "threads = " << e.threads << "\n";
  if (!e.gpu.empty()) out << "gpu = " << toml_string(e.gpu) << "\n";
}

}  // namespace

std::string render_baseline(const BaselineFile& file) {
  std::ostringstream out;
  out << "# mlregress baseline, written by `promote`. Review changes like code.\n";
  out << "schema_version = " << file.schema_version << "\n\n";
  const Provenance& p = file.provenance;
  out << "[provenance]\n"
      << "version = " << p.version << "\n"
      << "promoted_at = " << toml_string(p.promoted_at) << "\n"
      << "git_commit = " << toml_string(p.git_commit) << "\n"
      << "git_dirty = " << (p.git_dirty ? "true" : "false") << "\n"
      << "reason = " << toml_string(p.reason) << "\n"
      << "source_run = " << toml_string(p.source_run) << "\n"
      << "environment = " << toml_string(p.environment) << "\n";
  for (const auto& [id, e] : file.environments) render_environment(out, id, e);
  for (const auto& [name, test] : file.tests) {
    out << "\n[tests." << key(name) << "]\n";
    out << "config_hash = " << toml_string(test.config_hash) << "\n";
    for (const auto& [field, entries] : string_map_fields(test)) {
      if (entries->empty()) continue;
      out << field << " = {";
      const char* separator = " ";
      for (const auto& [name, value] : *entries) {
        out << separator << key(name) << " = " << toml_string(value);
        separator = ", ";
      }
      out << " }\n";
    }
    for (const auto& [metric_name, m] : test.metrics) {
      const std::string path = "tests." + key(name) + ".metrics." + key(metric_name);
      out << "\n[" << path << "]\n";
      render_metric(out, path, m);
    }
    write_demotions(out, "tests." + key(name), test);
  }
  return out.str();
}

}  // namespace mlregress::internal
