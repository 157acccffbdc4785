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
#pragma once

#include <string>
#include <vector>

#include "mlregress/param.h"

namespace mlregress {

/// One variant of a seeded test's config: a name and the parameters it changes.
struct Variant {
  std::string name;
  ParamSpecs overrides;  ///< {"width", 16}: same syntax as the test's own parameter list
};

class Seeds {
 public:
  explicit Seeds(int count) : count_(count) {}

  /// Runs the body under each variant; the first is the reference of the ablation table.
  Seeds& variants(std::vector<Variant> variants) {
    variants_ = std::move(variants);
    return *this;
  }

  /// Runs the seeds in blocks of count() while the gate is undecided, at most `cap` in all.
  Seeds& up_to(int cap) {
    cap_ = cap;
    sequential_ = true;
    planned_cap_ = true;
    return *this;
  }

  /// Sequential tests: every block after the first has `next` seeds (at least 2).
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

  /// The seeds a run starts with: the first block of a sequential test.
  int count() const { return count_; }
  /// The most seeds a run may take: the cap of a sequential test, else count().
  int max_count() const { return sequential_ ? cap_ : count_; }
  bool sequential() const { return sequential_; }
  /// pass_early() was called.
  bool passes_early() const { return pass_early_; }
  /// The size of the blocks after the first: then_blocks_of()'s, else count().
  int next_block() const { return has_next_block_ ? next_block_ : count_; }
  /// then_blocks_of() was called.
  bool has_next_block() const { return has_next_block_; }
  /// until_decided() was called (anytime-valid looks).
  bool anytime() const { return anytime_; }
  /// up_to() was called.
  bool has_planned_cap() const { return planned_cap_; }
  const std::vector<Variant>& variant_list() const { return variants_; }

 private:
  int count_ = 0;
  int cap_ = 0;
  bool sequential_ = false;  ///< up_to() was called (a cap below the block is refused)
  bool pass_early_ = false;
  bool planned_cap_ = false;  ///< up_to() was called
  bool anytime_ = false;      ///< until_decided() was called
  int next_block_ = 0;
  bool has_next_block_ = false;  ///< then_blocks_of() was called
  std::vector<Variant> variants_;
};

}  // namespace mlregress
