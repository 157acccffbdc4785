#include "observers/seed_spread.h"

#include <fmt/format.h>

#include <cmath>
#include <string_view>

#include "mlregress/seeds.h"
#include "statistics/chi_square.h"
#include "statistics/moments.h"

namespace mlregress::internal {
namespace {

bool is_randomness_study(const std::vector<std::string>& variants) {
  const std::vector<Variant> study = randomness_study_variants();
  if (variants.size() != study.size()) return false;
  for (std::size_t i = 0; i < study.size(); ++i) {
    if (variants[i] != study[i].name) return false;
  }
  return true;
}

// What a variant varies, as its warning names it: the stream and the call that draws it.
struct Varied {
  std::string_view what, call;
};

Varied varied_by(const std::string& variant) {
  if (variant == "data_order_only") return {"data_order", "seed(SeedStream::DataOrder)"};
  if (variant == "initialisation_only") {
    return {"initialisation", "seed(SeedStream::Initialisation)"};
  }
  if (variant == "data_only") return {"data", "seed(SeedStream::Data)"};
  return {"every stream", "seed(SeedStream::...)"};
}

std::string spread_row(const std::string& variant, const stats::SampleSummary& s, double var_all) {
  if (s.n < 2 || !std::isfinite(s.sd)) {
    return fmt::format("  {:<20} fewer than 2 seeds passed\n", variant);
  }
  const stats::SdInterval ci = stats::sd_interval(s.sd, s.n);
  const double share = s.sd * s.sd / var_all;
  return fmt::format("  {:<20} {:.4g} [{:.4g}, {:.4g}] · {} · {} seeds\n", variant, s.sd, ci.lower,
                     ci.upper, std::isfinite(share) ? fmt::format("{:.2f}", share) : "—", s.n);
}

// Whether every metric of the variant, over at least 2 seeds, came out the same on every seed.
bool changed_nothing(const std::string& variant, const std::vector<std::string>& metrics,
                     const SpreadSamples& samples, std::size_t& seeds) {
  bool any = false;
  for (const std::string& metric : metrics) {
    const auto m = samples.find(metric);
    if (m == samples.end() || !m->second.contains(variant)) continue;
    const stats::SampleSummary s = stats::summarize_samples(m->second.at(variant));
    if (s.n < 2) continue;
    if (s.sd != 0.0) return false;
    any = true;
    seeds = s.n;
  }
  return any;
}

}  // namespace

std::string spread_over_seeds_block(const std::vector<std::string>& variants,
                                    const std::vector<std::string>& metrics,
                                    const SpreadSamples& samples) {
  if (!is_randomness_study(variants)) return "";
  std::string out = fmt::format(
      "  spread over seeds (randomness study: sd [95% CI, chi-square] · var / var({}))\n",
      variants.front());
  for (const std::string& metric : metrics) {
    const auto m = samples.find(metric);
    if (m == samples.end()) continue;
    out += fmt::format("  {}\n", metric);
    const auto all = m->second.find(variants.front());
    const stats::SampleSummary all_summary =
        stats::summarize_samples(all != m->second.end() ? all->second : std::vector<double>{});
    for (const std::string& variant : variants) {
      const auto values = m->second.find(variant);
      if (values == m->second.end()) continue;
      out += spread_row(variant, stats::summarize_samples(values->second),
                        all_summary.sd * all_summary.sd);
    }
  }
  for (const std::string& variant : variants) {
    std::size_t seeds = 0;
    if (!changed_nothing(variant, metrics, samples, seeds)) continue;
    const Varied varied = varied_by(variant);
    out += fmt::format(
        "  warning: varying {} changed nothing over {} seeds ({}: every metric's sd is 0): is it "
        "drawn from {}?\n",
        varied.what, seeds, variant, varied.call);
  }
  return out;
}

}  // namespace mlregress::internal
