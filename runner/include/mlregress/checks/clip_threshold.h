// A gradient-clipping threshold from the run's own healthy steps: clip "above the typical range",
// not at a number copied from another model. The unclipped (pre-clip) norms of the steps after
// the first few, without the spikes and the non-finite ones, give a high quantile; a threshold
// at it (times a headroom) engages on the rare outliers only, a seatbelt. A threshold below the
// median engages on most steps, a crutch that hides a learning-rate or initialisation problem
// (GradientNormOptions::max_clip_rate flags that).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mlregress/metric.h"

namespace mlregress::checks {

struct ClipSuggestionOptions {
  std::int64_t skip_steps = 10;          ///< the first steps are not typical (warmup, init)
  std::int64_t min_healthy_steps = 100;  ///< fewer healthy steps: no suggestion
  double quantile = 0.99;                ///< of the healthy norms, linear interpolation
  double headroom = 1.0;                 ///< the threshold is quantile norm x headroom
  /// A norm above spike_factor x the running median of the finite norms before it is a spike
  /// (as GradientNormMonitor judges them), left out.
  double spike_factor = 10.0;
};

struct ClipSuggestion {
  double threshold = 0.0;      ///< quantile_norm x headroom
  double quantile_norm = 0.0;  ///< the quantile of the healthy norms
  double median_norm = 0.0;    ///< of the healthy norms
  std::int64_t healthy_steps = 0;
  std::int64_t excluded_steps = 0;  ///< after skip_steps: spikes and non-finite norms
  std::string rule;                 ///< "p99 of 290 healthy steps x 1 (skipped 10, excluded 0)"
};

/// The threshold the norms support, or nullopt when fewer than min_healthy_steps remain. Norms
/// are pre-clip (clip_grad_norm_'s return value, GradientNormResult::norms), one per step.
/// Throws std::invalid_argument for a quantile outside (0, 1], a headroom or spike_factor <= 0,
/// or negative step counts.
std::optional<ClipSuggestion> suggest_clip_threshold(const std::vector<double>& unclipped_norms,
                                                     const ClipSuggestionOptions& options = {});

/// Records the suggestion from inside a test. Without a band (the default) as the properties
/// "<name>.suggested_clip_norm" and "<name>.suggested_clip_rule": shown with the run, kept by
/// promote, never gated (a machine whose kernels move the trajectory, and with it the
/// suggestion, gets a "properties changed" note, not a verdict). With a band, as the metric
/// "<name>.suggested_clip_norm", LowerIsBetter (a higher suggestion means larger typical
/// gradients): a committed band must hold on the CPUs runner/docs/numerics.md measured, so
/// measure its spread there first.
void record_suggested_clip_threshold(std::string_view name, const ClipSuggestion& suggestion,
                                     std::optional<Band> band = std::nullopt);

}  // namespace mlregress::checks
