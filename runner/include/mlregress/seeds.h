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

  int count() const { return count_; }
  const std::vector<Variant>& variant_list() const { return variants_; }

 private:
  int count_ = 0;
  std::vector<Variant> variants_;
};

}  // namespace mlregress
