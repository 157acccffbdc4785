// How many seeds a seeded test runs, and the variants of its config it runs them under.
//
//   ML_SEED_TEST(Full, XorSeedStudy, Seeds(20), {"lr", 0.5}) { ... seed() ... }
//   ML_SEED_TEST(Full, XorAblation,
//                Seeds(8).variants({{"baseline", {}},
//                                   {"half_width", {{"width", 16}}},
//                                   {"half_depth", {{"depth", 1}}}}),
//                {"width", 32}, {"depth", 2}) { ... }
//
// The body runs once per (variant, seed) in its own single-threaded worker process. Seeds are
// S, S+1, ..., S+count-1 where S is `run --seed` (default 0), so a run with another --seed
// draws fresh seeds, and one with the same --seed reuses the baseline's (a paired comparison).
// Variants run over the same seeds, so each variant is compared with the first one seed by seed.
//
// Sequential seeds ("re-run surprising results"):
//
//   ML_SEED_TEST(Full, XorSequentialSeedStudy, Seeds(8).up_to(40), ...) { ... }
//
// runs the first 8 seeds, looks at the gate, and runs the next 8 only while some metric is
// still undecided, up to 40; each look spends part of the run's error budget, so stopping early
// does not inflate the false-alarm rate (runner/docs/seeded-tests.md). Without a baseline, and
// under `run --all-seeds`, all 40 run: promote one such run so the baseline holds every seed a
// later run may reach, and each block stays paired with the baseline's seeds.
//
//   ML_SEED_TEST(Full, XorSequentialSeedStudy, Seeds(8).up_to(40).pass_early(), ...) { ... }
//
// lets an unchanged candidate PASS at an earlier look: the PASS (non-inferiority) error is spent
// Pocock-type instead of O'Brien–Fleming-type. Fewer seeds per run when nothing changed (median
// 16 instead of 24 on the XOR study against fresh seeds), at the price of a stricter last look,
// so more INCONCLUSIVE at the cap; the REGRESSION side is the same either way.
//
//   ML_SEED_TEST(Full, XorSequentialSeedStudy, Seeds(12).then_blocks_of(8).up_to(44), ...)
//
// looks after 12, 20, 28, 36 and 44 seeds: a first block larger than the next ones spends no
// error on looks at a handful of seeds, which rarely decide anything.
//
//   ML_SEED_TEST(Full, LongStudy, Seeds(8).until_decided(200), ...) { ... }
//
// an anytime-valid study: after every block of 8 the gate looks with confidence sequences that
// hold at every look at once, so the study may go on as long as it is undecided (here up to 200
// seeds, a bound on cost, not on the error) and may be stopped at any look. It takes more seeds
// than a planned up_to() design at the same margin; use it when no cap can be planned. up_to()
// and pass_early() do not combine with it.
//
// Random search with equal budgets ("give every method the same tuning budget"):
//
//   ML_SEED_TEST(Full, OptimizerSearch,
//                Seeds(4).random_search("adam", 8, {{"lr", mlregress::LogUniform(1e-4, 1e-1)},
//                                                   {"width", mlregress::IntRange(16, 64)}})
//                        .random_search("sgd", 8, {{"lr", mlregress::LogUniform(1e-3, 1.0)}}),
//                {"lr", 1e-3}, {"width", 32}) { ... search_method() ... }
//
// adds 8 variants per method, adam-0 … adam-7 and sgd-0 … sgd-7, each with values drawn from the
// declared ranges by a generator seeded from the test's and the method's name, so every machine
// draws the same values (runner/docs/seeded-tests.md, "Random search"); in the body,
// search_method() is "adam" or "sgd". `list`, the run and `ablation` show the trials per method
// and warn when the methods of one test had unequal budgets.
//
// Which randomness matters ("vary the data order alone, and the other way round"):
//
//   ML_SEED_TEST(Full, XorRandomnessStudy, Seeds(8).randomness_study(), ...) {
//     torch::manual_seed(seed(SeedStream::Initialisation));   // the weights
//     std::mt19937_64 order(seed(SeedStream::DataOrder));      // the minibatch order
//     ... seed(SeedStream::Data) ...                          // the dataset drawn
//   }
//
// runs the body under four variants over the same seeds: "all" (every stream follows the seed),
// "data_order_only", "initialisation_only" and "data_only" (that stream follows the seed, the
// others stay at the run's first seed). The ablation table then shows each variant's spread over
// the seeds beside all's, and warns when a varied stream changed nothing (the body drew it from
// somewhere else). It does not combine with variants() or random_search().
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "mlregress/param.h"

namespace mlregress {

/// The independent sources of randomness of a training run, each with its own seed in the body
/// (MlTest::seed(SeedStream)): the data drawn or generated, the weights' initialisation, and the
/// order in which examples are served (shuffling, minibatch sampling).
enum class SeedStream { Data, Initialisation, DataOrder };

/// "data", "initialisation" or "data_order": as the ablation table and config.json name them.
std::string_view seed_stream_name(SeedStream stream);

/// One variant of a seeded test's config: a name and the parameters it changes.
struct Variant {
  std::string name;
  ParamSpecs overrides;  ///< {"width", 16}: same syntax as the test's own parameter list
  /// Set for a random_search() trial: the method it tunes and its index (0, 1, ...); a variant
  /// declared by hand belongs to no method ("" and -1) and counts in no tuning budget.
  std::string method = {};
  int trial = -1;
  /// Streams fixed at the run's first seed whatever the variant's seed (randomness_study()); the
  /// others follow the seed.
  std::vector<SeedStream> held = {};
};

/// A double parameter drawn uniformly in [low, high] (random_search()).
struct Uniform {
  Uniform(double low, double high) : low(low), high(high) {}
  double low, high;
};
/// A double parameter whose logarithm is drawn uniformly: low > 0 (learning rates, decays).
struct LogUniform {
  LogUniform(double low, double high) : low(low), high(high) {}
  double low, high;
};
/// An integer parameter drawn uniformly from low, low + 1, ..., high.
struct IntRange {
  IntRange(std::int64_t low, std::int64_t high) : low(low), high(high) {}
  std::int64_t low, high;
};
/// A string parameter drawn uniformly from the choices.
struct Choice {
  Choice(std::vector<std::string> choices) : choices(std::move(choices)) {}  // NOLINT
  std::vector<std::string> choices;
};
using SearchRange = std::variant<Uniform, LogUniform, IntRange, Choice>;

/// One parameter a random search draws, and the range it draws it from.
struct SearchParam {
  std::string name;
  SearchRange range;
};

/// random_search(): `trials` variants of the method, each drawn from the ranges.
struct RandomSearch {
  std::string method;
  int trials = 0;
  std::vector<SearchParam> params;
};

class Seeds {
 public:
  explicit Seeds(int count) : count_(count) {}

  /// Runs the body under each variant; the first is the reference of the ablation table.
  Seeds& variants(std::vector<Variant> variants) {
    variants_ = std::move(variants);
    return *this;
  }

  /// Adds `trials` variants named METHOD-0 ... METHOD-(trials-1), each setting `params` to values
  /// drawn from their ranges (deterministically: the same on every machine). Call it once per
  /// method; the methods of one test are compared on equal budgets (the same `trials`), and
  /// `list`, the run and `ablation` warn when they are not. Bad ranges are refused at start.
  Seeds& random_search(std::string method, int trials, std::vector<SearchParam> params) {
    searches_.push_back({std::move(method), trials, std::move(params)});
    return *this;
  }

  /// Runs the body under the variants "all", "data_order_only", "initialisation_only" and
  /// "data_only" over the same seeds: in each *_only variant that stream alone follows the seed
  /// (MlTest::seed(SeedStream)), the others are held at the run's first seed. Combined with
  /// variants() or random_search() the test is refused at start.
  Seeds& randomness_study() {
    randomness_study_ = true;
    return *this;
  }

  /// Runs the seeds in blocks of count() while the gate is undecided, at most `cap` in all.
  Seeds& up_to(int cap) {
    cap_ = cap;
    sequential_ = true;
    planned_cap_ = true;
    return *this;
  }

  /// Sequential tests: every block after the first has `next` seeds (at least 2; 1 with
  /// likelihood_ratio(), which may look after every seed).
  Seeds& then_blocks_of(int next) {
    next_block_ = next;
    has_next_block_ = true;
    return *this;
  }

  /// Runs the seeds in blocks of count() with anytime-valid looks while the gate is undecided, at
  /// most `at_most` in all; without a baseline, and under run --all-seeds, all `at_most` run.
  Seeds& until_decided(int at_most) {
    cap_ = at_most;
    sequential_ = true;
    anytime_ = true;
    return *this;
  }

  /// Sequential tests: spends the PASS error early (Pocock-type), so that a metric that did not
  /// move is settled at an earlier look; without up_to() the test is refused at start.
  Seeds& pass_early() {
    pass_early_ = true;
    return *this;
  }

  /// Sequential tests: the one-sided error of a PASS, P(PASS) at a degradation of exactly the
  /// margin (default 0.025, the single-look gate's 95% interval). pass_error(0.2) spends the
  /// type II error of power 0.8 there instead: the acceptance boundary calibrated to beta as the
  /// REGRESSION boundary is to alpha. An unchanged candidate then PASSes with about half the
  /// seeds (runner/docs/seeded-tests.md, "How far from the floor"), and a PASS says "no
  /// degradation of the margin, with the stated power" rather than "with 97.5% confidence".
  /// Values outside (0, 0.5), or without up_to(), are refused at start.
  Seeds& pass_error(double error) {
    pass_error_ = error;
    has_pass_error_ = true;
    return *this;
  }

  /// Sequential tests: Wald's sequential probability ratio test at the looks, weighing a
  /// degradation of exactly the margin against none, with boundaries calibrated to the run's level
  /// (REGRESSION under no change) and to pass_error() (PASS at a degradation of the margin: the
  /// type II error, so pass_error(0.2) is power 0.8 when the cap leaves room). The design that
  /// comes closest to the fewest seeds any test can use: fresh seeds take the baseline arm's sd
  /// as the scale, paired seeds the spread of paired differences the baseline stores (promote
  /// measures it when it replaces the values of seeds the baseline held), else the first look's
  /// sd, and paired looks then start at 8 seeds whatever the first block. It needs up_to() and a
  /// margin above 0, never reports IMPROVED, and may look after every seed. Paired looks raise
  /// their PASS boundary by the step their shape chooses (see constant_pass()). The default
  /// design, within 1.3x of the fewest seeds any test can use (paired on a stored spread, or
  /// fresh against a pool):
  /// Seeds(2).then_blocks_of(2).up_to(52).likelihood_ratio().pass_error(0.2).
  /// runner/docs/seeded-tests.md, "Likelihood-ratio looks" and "Which design, when".
  Seeds& likelihood_ratio() {
    likelihood_ratio_ = true;
    return *this;
  }

  /// Likelihood-ratio looks: the PASS boundary rises by `rise` on the log likelihood ratio from
  /// the look at `from_seeds` on, and the boundaries are calibrated for it (alpha and the power
  /// hold). A run still undecided there whose ratio has not climbed `rise` above the PASS boundary
  /// PASSes, so an unchanged candidate stops within from_seeds far more often (the 95th percentile
  /// of its seeds falls from about 3.4x Wald's bound to 2.5x) for about 15-25% more seeds on
  /// average: pass_rise(2.0, 10) on the fixture's paired looks (runner/docs/seeded-tests.md, "A
  /// PASS boundary that rises"). For a budget that must hold, not for the fewest seeds on average;
  /// without it paired looks choose a rise within 1.3x of the bound (constant_pass()).
  /// rise in (0, 5], from_seeds between the first block and the cap; else refused at start.
  Seeds& pass_rise(double rise, int from_seeds) {
    pass_rise_ = rise;
    pass_rise_from_ = from_seeds;
    has_pass_rise_ = true;
    return *this;
  }

  /// Likelihood-ratio looks: a constant PASS boundary on every look, paired or fresh. Without it
  /// (and without pass_rise()) paired looks take the rise their shape chooses: the cheapest step
  /// that stops 95% of unchanged runs within 2.5x Wald's bound while the mean seeds stay within
  /// 1.3x both bounds, else none (runner/docs/seeded-tests.md, "The PASS boundary the design
  /// chooses"). The constant boundary is the design closest to the bound on average, with a long
  /// tail of seeds under no change. With pass_rise(), or without likelihood_ratio(), refused at
  /// start.
  Seeds& constant_pass() {
    constant_pass_ = true;
    return *this;
  }

  /// The seeds a run starts with: the first block of a sequential test.
  int count() const { return count_; }
  /// The most seeds a run may take: the cap of a sequential test, else count().
  int max_count() const { return sequential_ ? cap_ : count_; }
  bool sequential() const { return sequential_; }
  /// pass_early() was called.
  bool passes_early() const { return pass_early_; }
  /// The PASS error of a sequential test: pass_error()'s, else 0.025.
  double pass_error_value() const { return has_pass_error_ ? pass_error_ : 0.025; }
  /// pass_error() was called.
  bool has_pass_error() const { return has_pass_error_; }
  /// The size of the blocks after the first: then_blocks_of()'s, else count().
  int next_block() const { return has_next_block_ ? next_block_ : count_; }
  /// then_blocks_of() was called.
  bool has_next_block() const { return has_next_block_; }
  /// until_decided() was called (anytime-valid looks).
  bool anytime() const { return anytime_; }
  /// likelihood_ratio() was called.
  bool likelihood_ratio_looks() const { return likelihood_ratio_; }
  /// up_to() was called.
  bool has_planned_cap() const { return planned_cap_; }
  /// pass_rise()'s rise (0: not called) and the seeds from which it holds.
  double pass_rise_value() const { return pass_rise_; }
  /// pass_rise() was called.
  bool has_pass_rise() const { return has_pass_rise_; }
  int pass_rise_from() const { return pass_rise_from_; }
  /// constant_pass() was called.
  bool constant_pass_boundary() const { return constant_pass_; }
  /// The variants: those declared by hand, then (once registered) the random searches' trials.
  const std::vector<Variant>& variant_list() const { return variants_; }
  /// The random_search() declarations, in order.
  const std::vector<RandomSearch>& searches() const { return searches_; }
  /// randomness_study() was called.
  bool studies_randomness() const { return randomness_study_; }

 private:
  int count_ = 0;
  int cap_ = 0;
  bool sequential_ = false;  ///< up_to() was called (a cap below the block is refused)
  bool pass_early_ = false;
  double pass_error_ = 0.025;
  bool has_pass_error_ = false;    ///< pass_error() was called
  bool planned_cap_ = false;       ///< up_to() was called
  bool anytime_ = false;           ///< until_decided() was called
  bool likelihood_ratio_ = false;  ///< likelihood_ratio() was called
  double pass_rise_ = 0.0;         ///< pass_rise(): 0 when not called
  int pass_rise_from_ = 0;
  bool has_pass_rise_ = false;  ///< pass_rise() was called
  bool constant_pass_ = false;  ///< constant_pass() was called
  int next_block_ = 0;
  bool has_next_block_ = false;  ///< then_blocks_of() was called
  std::vector<Variant> variants_;
  std::vector<RandomSearch> searches_;
  bool randomness_study_ = false;  ///< randomness_study() was called
};

/// The variants randomness_study() adds, in order: all, data_order_only, initialisation_only,
/// data_only, each with the streams it holds.
std::vector<Variant> randomness_study_variants();

}  // namespace mlregress
