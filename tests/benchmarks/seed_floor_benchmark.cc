// How far the seed gate's designs are from the fewest seeds any sequential test can use: one
// line per design (seed_floor_simulation.h), for a study's noise measured from a table of real
// per-seed values, or for the torch-free fixture's known normals.
//
//   seed_floor_benchmark [--resample] STUDY (TABLE.tsv | -) [TRIALS=10000] [FAMILY=2] [ONLY]
//
// TABLE.tsv is the table ci/xor-seed-table.sh writes from real runs of
// Full.XorSequentialSeedStudy (columns seed, weight_stream, test_accuracy, train_loss,
// test_set_rule_accuracy; a header line); "-" takes the fixture's normals
// (tests/fixture/seed_gate_fixture.cc). FAMILY: the run's distinct seeded hypotheses (the
// fixture's study has 2, the XOR study 3), each metric settles at alpha / FAMILY. ONLY: print
// only the lines whose design name contains it (e.g. "lr-" or "fresh-pool260"). --resample: each
// simulated seed is one of the table's real seeds drawn with replacement (its accuracy in both
// weight streams and its covariate), so the lines see the real values' shape (a skew, a bad
// tail) where the normals see only their sd, covariate share and stream correlation.
//
// Designs: the group-sequential Seeds(12).then_blocks_of(8).up_to(52).pass_early() (the studies'
// design before the likelihood-ratio looks), one that looks every 8 seeds only,
// Seeds(8).then_blocks_of(8).up_to(52), and three that look as the seeds arrive (frequent_plan:
// blocks of 4, PASS error 0.025 or beta; first 6, blocks of 2, at beta); each paired (a 52-seed
// baseline's own seeds, other weights), fresh against a 52-seed baseline, and fresh against a
// 260-seed pool (and paired on a 260-seed pool whose stored spread comes from all of its pairs:
// the likelihood-ratio lines only). Per pairing, d is the shift at which the group-sequential
// design reaches power 0.8 (bisection over the shift, TRIALS / 5 sequences a step, at least 1000),
// in units of unit_sd; every design of that group is measured at that d. Then the likelihood-ratio
// designs, the default among them (likelihood_ratio_designs), each at the shift where it reaches
// the power itself, and the default with a PASS boundary that rises (the "-rise" lines: pass_rise 2
// from 10 or 14 seeds, 2.5 from 12; on a pool's stored spread 1.6875 and 1.8125 from 10), which
// cuts the 95th percentile under no change. Deterministic (fixed RNG seeds).
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "seed_floor_simulation.h"
#include "xor_seed_table.h"

namespace {

// The XOR table's accuracy and covariate, per stream and seed.
seed_floor::SeedTable read_table(const std::string& path) {
  seed_floor::SeedTable table;
  for (const auto& [stream, seeds] : xor_table::read_table(path)) {
    for (const auto& [seed, v] : seeds) table[stream][seed] = {v.accuracy, v.rule};
  }
  return table;
}

// Wald's SPRT at power 0.8 (PASS error 0.2). Paired looks scale the differences by the first
// look's sd, so their first look is larger, unless the baseline stores a spread of paired
// differences (the "lr-stored" lines); fresh ones take the baseline's sd and may look from the
// second seed. The lines whose names end in "-default" are the default design, default_plan():
// paired, with the spread the baseline stores or without one (its looks then start at 8 seeds),
// and fresh; its paired looks take the PASS boundary's rise their shape chooses
// (statistics/pass_rise_choice.h), the "-constant" lines keep the boundary constant.
std::vector<seed_floor::FloorDesign> likelihood_ratio_designs(const std::string& prefix,
                                                              bool paired, int baseline) {
  using seed_floor::constant_pass_plan;
  using seed_floor::default_plan;
  using seed_floor::likelihood_ratio_plan;
  using seed_floor::rising_plan;
  if (paired && baseline > 52) {
    // A pool's stored spread, from all of its pairs: the default (which chooses its rise), the
    // constant boundary, and the steps pass_rise_frontier finds to meet both targets on 260 pairs
    // (the fixture's and the XOR study's).
    return {{prefix + "lr-stored-blocks-2-c52-beta-default", default_plan(), true, baseline,
             /*stored_spread=*/true},
            {prefix + "lr-stored-blocks-2-c52-beta-constant", constant_pass_plan(), true, baseline,
             /*stored_spread=*/true},
            {prefix + "lr-stored-blocks-2-c52-beta-rise1.6875-at10", rising_plan(1.6875, 10), true,
             baseline, /*stored_spread=*/true},
            {prefix + "lr-stored-blocks-2-c52-beta-rise1.8125-at10", rising_plan(1.8125, 10), true,
             baseline, /*stored_spread=*/true}};
  }
  if (paired) {
    return {
        {prefix + "lr-first-8-then-1-c52-beta", likelihood_ratio_plan(8, 1, 0.2), true, baseline},
        {prefix + "lr-first-8-blocks-2-c52-beta", likelihood_ratio_plan(8, 2, 0.2), true, baseline},
        {prefix + "lr-blocks-2-c52-beta-default", default_plan(), true, baseline},
        {prefix + "lr-stored-first-2-then-1-c52-beta", likelihood_ratio_plan(2, 1, 0.2), true,
         baseline, /*stored_spread=*/true},
        {prefix + "lr-stored-blocks-2-c52-beta-default", default_plan(), true, baseline,
         /*stored_spread=*/true},
        {prefix + "lr-stored-blocks-2-c52-beta-constant", constant_pass_plan(), true, baseline,
         /*stored_spread=*/true},
        {prefix + "lr-stored-blocks-4-c52-beta", likelihood_ratio_plan(4, 4, 0.2), true, baseline,
         /*stored_spread=*/true},
        {prefix + "lr-stored-blocks-2-c52-beta-rise2-at10", rising_plan(2.0, 10), true, baseline,
         /*stored_spread=*/true},
        {prefix + "lr-stored-blocks-2-c52-beta-rise2.5-at12", rising_plan(2.5, 12), true, baseline,
         /*stored_spread=*/true},
        {prefix + "lr-blocks-2-c52-beta-rise2-at10", rising_plan(2.0, 10), true, baseline}};
  }
  return {
      {prefix + "lr-first-2-then-1-c52-beta", likelihood_ratio_plan(2, 1, 0.2), false, baseline},
      {prefix + "lr-blocks-2-c52-beta-default", default_plan(), false, baseline},
      {prefix + "lr-blocks-4-c52-beta", likelihood_ratio_plan(4, 4, 0.2), false, baseline},
      {prefix + "lr-blocks-2-c52-beta-rise2-at12", rising_plan(2.0, 12), false, baseline},
      {prefix + "lr-blocks-2-c52-beta-rise2-at14", rising_plan(2.0, 14), false, baseline}};
}

void print_study(const std::string& study, const seed_floor::NoiseModel& model,
                 const seed_floor::FloorSettings& settings, const std::string& only) {
  const auto wanted = [&](const seed_floor::FloorDesign& design) {
    return design.name.find(only) != std::string::npos;
  };
  fmt::print(
      "# {}: accuracy sd {:.4g}, covariate r^2 {:.3f}, stream correlation {:.3f}, margin {}; "
      "unit sd paired {:.4g}, fresh {:.4g}; alpha {} / {} hypotheses, {} sequences per line and "
      "hypothesis{}\n",
      study, model.sd, model.covariate_share, model.pair_correlation, model.margin,
      seed_floor::unit_sd(model, true), seed_floor::unit_sd(model, false), settings.alpha,
      settings.family, settings.trials,
      model.resampled.empty()
          ? ""
          : fmt::format("; each seed one of the table's {} real seeds, drawn with replacement",
                        model.resampled.size()));
  struct Pairing {
    const char* name;
    bool paired;
    int baseline;
  };
  for (const Pairing p : {Pairing{"paired", true, 52}, Pairing{"paired-pool260", true, 260},
                          Pairing{"fresh52", false, 52}, Pairing{"fresh-pool260", false, 260}}) {
    // Paired on a pool: the likelihood-ratio lines only (the stored spread is theirs).
    const bool likelihood_ratio_only = p.paired && p.baseline > 52;
    const std::string prefix = study + ":" + p.name + ":";
    const seed_floor::FloorDesign reference{prefix + "spending-12+8-c52-pass-early",
                                            seed_floor::spending_plan(), p.paired, p.baseline};
    const seed_floor::FloorDesign wasteful{prefix + "every-8-c52", seed_floor::every_eight_plan(),
                                           p.paired, p.baseline};
    const std::vector<seed_floor::FloorDesign> designs{
        reference,
        wasteful,
        {prefix + "blocks-4-c52-pass-early", seed_floor::frequent_plan(4, 4, 0.025), p.paired,
         p.baseline},
        {prefix + "blocks-4-c52-pass-beta", seed_floor::frequent_plan(4, 4, 0.2), p.paired,
         p.baseline},
        {prefix + "first-6-blocks-2-c52-pass-beta", seed_floor::frequent_plan(6, 2, 0.2), p.paired,
         p.baseline},
    };
    const int bisection_trials = std::max(1000, settings.trials / 5);
    if (!likelihood_ratio_only && std::any_of(designs.begin(), designs.end(), wanted)) {
      const double shift = seed_floor::shift_at_power(model, reference, settings, bisection_trials);
      const double d = shift / seed_floor::unit_sd(model, p.paired);
      for (const seed_floor::FloorDesign& design : designs) {
        if (!wanted(design)) continue;
        fmt::print("{}\n", seed_floor::format_floor_line(
                               seed_floor::measure_floor(model, design, settings, d)));
        std::fflush(stdout);
      }
    }
    // Likelihood-ratio designs are built for a degradation of the margin: each is measured at the
    // shift where it reaches the power itself (about the margin), not at the group-sequential
    // one's, refined on the line's own sequences so that its power is the stated one.
    for (const seed_floor::FloorDesign& design :
         likelihood_ratio_designs(prefix, p.paired, p.baseline)) {
      if (!wanted(design)) continue;
      const double own =
          seed_floor::refined_shift_at_power(model, design, settings, bisection_trials);
      fmt::print("{}\n", seed_floor::format_floor_line(seed_floor::measure_floor(
                             model, design, settings, own / seed_floor::unit_sd(model, p.paired))));
      std::fflush(stdout);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const bool resample = argc > 1 && std::string(argv[1]) == "--resample";
  if (resample) --argc, ++argv;
  if (argc < 3 || argc > 6 || (resample && std::string(argv[2]) == "-")) {
    fmt::print(stderr,
               "usage: seed_floor_benchmark [--resample] STUDY (TABLE.tsv | -) [TRIALS=10000] "
               "[FAMILY=2] [ONLY]\n(--resample needs a table)\n");
    return 64;
  }
  seed_floor::FloorSettings settings;
  settings.trials = argc > 3 ? std::atoi(argv[3]) : 10000;
  settings.family = argc > 4 ? std::atoi(argv[4]) : 2;
  if (settings.trials < 1 || settings.family < 1) {
    fmt::print(stderr, "seed_floor_benchmark: TRIALS and FAMILY must be positive integers\n");
    return 64;
  }
  try {
    const std::string table = argv[2];
    const seed_floor::NoiseModel model = table == "-" ? seed_floor::fixture_noise()
                                         : resample
                                             ? seed_floor::resampling_noise(read_table(table))
                                             : seed_floor::measure_noise(read_table(table));
    print_study(argv[1], model, settings, argc > 5 ? argv[5] : "");
  } catch (const std::exception& e) {
    fmt::print(stderr, "seed_floor_benchmark: {}\n", e.what());
    return 1;
  }
  return 0;
}
