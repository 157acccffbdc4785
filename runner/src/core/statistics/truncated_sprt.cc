#include "statistics/truncated_sprt.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <string>

#include "statistics/normal_tail.h"
#include "statistics/seed_law.h"

namespace mlregress::internal::stats {
namespace {

// The grid's spacing on S, in sds of one seed: each cell's probability sits at its centre (the
// crossing probabilities agree with an independent simulation to its standard errors,
// truncated_sprt_test.cc).
constexpr double kGridSpacing = 0.08;
constexpr int kFewestGridPoints = 32;
// Wide regions (a small d, or a PASS boundary pushed far down) get at most this many points:
// coarser, and each transition costs points^2.
constexpr int kMostGridPoints = 400;
// The lowest PASS boundary calibration tries: a likelihood ratio of e^-12 (6e-6) is practically
// never reached by a path that has not crossed the other boundary first.
constexpr double kLowestLower = -12.0;
constexpr double kHighestUpper = 40.0;

double normal_density(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi);
}

void require_shape(const SprtShape& shape, const SprtBoundaries& boundaries) {
  if (!(shape.d > 0.0) || !std::isfinite(shape.d)) {
    throw std::invalid_argument("an SPRT needs a shift d > 0, finite, got " +
                                std::to_string(shape.d));
  }
  if (shape.looks.empty() || shape.looks.front() < 1) {
    throw std::invalid_argument("an SPRT needs looks, the first at 1 seed or more");
  }
  if (!std::is_sorted(shape.looks.begin(), shape.looks.end(), std::less_equal<>{}) ||
      std::adjacent_find(shape.looks.begin(), shape.looks.end()) != shape.looks.end()) {
    throw std::invalid_argument("an SPRT's looks must increase");
  }
  if (shape.reference_seeds < 0) {
    throw std::invalid_argument("an SPRT's reference needs 0 seeds (none) or more");
  }
  if (shape.slope_seeds != 0 && shape.slope_seeds < 4) {
    throw std::invalid_argument("an SPRT's covariate slope needs 0 seeds (none) or at least 4");
  }
  if (!(shape.spread_df >= 0.0) || !std::isfinite(shape.spread_df)) {
    throw std::invalid_argument(
        "an SPRT's estimated sd needs 0 degrees of freedom (known) or more");
  }
  if (!(shape.mean_spread_correlation >= 0.0 && shape.mean_spread_correlation < 1.0)) {
    throw std::invalid_argument("an SPRT's mean-spread correlation must lie in [0, 1), got " +
                                std::to_string(shape.mean_spread_correlation));
  }
  if (!(shape.skew >= 0.0 && shape.skew <= kLargestSeedSkew)) {
    throw std::invalid_argument("an SPRT's seed skewness must lie in [0, 2], got " +
                                std::to_string(shape.skew));
  }
  if (!(boundaries.lower < boundaries.upper) || !std::isfinite(boundaries.lower) ||
      !std::isfinite(boundaries.upper)) {
    throw std::invalid_argument("an SPRT's PASS boundary must lie below its REGRESSION boundary");
  }
  const std::vector<double>& rise = boundaries.rise;
  const auto negative = [](double r) { return !(r >= 0.0); };  // NaN too
  if (!rise.empty() &&
      (rise.size() != shape.looks.size() || std::any_of(rise.begin(), rise.end(), negative) ||
       !(boundaries.lower + *std::max_element(rise.begin(), rise.end()) < boundaries.upper))) {
    throw std::invalid_argument(
        "an SPRT's PASS boundary may rise by one value per look, each 0 or more, and stay below "
        "its REGRESSION boundary");
  }
}

// The sum S at which the log likelihood ratio d S - n d^2 / 2 equals `log_ratio` after n seeds.
double sum_at(const SprtShape& shape, double log_ratio, int n) {
  return (log_ratio + n * shape.d * shape.d / 2.0) / shape.d;
}

// Where the paths of one drift mu (per seed, in sds) stop: per look, at each boundary.
struct PathMasses {
  std::vector<double> regression, pass;
  double undecided = 0.0;
};

// The grid of look k spans the continuation region (lower, upper) of that look: with constant
// boundaries it is equally wide at every look and moves by d / 2 per seed, so what a step of j
// seeds does to a grid point depends only on j and the point's index: the transition kernel on
// the grid offset, and each point's chance to cross either boundary on the way.
struct Grid {
  int points = 0;
  double h = 0.0, width = 0.0;
};

struct StepTables {
  // The mass moved by a grid offset m - i, at index i - m + points - 1 (offsets from the largest
  // down): the next grid's point m sums mass[i] * kernel[i + points - 1 - m] over i, forwards.
  std::vector<double> kernel;
  std::vector<double> up, down;  // from point i, the chance to end at or beyond each boundary
};

// The law of a sum of j seeds, per j the recursion needs: the first look's seeds and each step's.
using SumLaws = std::map<int, const SeedSumLaw*>;

SumLaws sum_laws(const SprtShape& shape) {
  SumLaws laws;
  laws.emplace(shape.looks[0], &seed_sum_law(shape.skew, shape.looks[0]));
  for (std::size_t k = 1; k < shape.looks.size(); ++k) {
    const int step = shape.looks[k] - shape.looks[k - 1];
    if (!laws.contains(step)) laws.emplace(step, &seed_sum_law(shape.skew, step));
  }
  return laws;
}

// The step's increment of S less its drift is scale times a sum of `step` standardized seeds:
// P(it is at least y) = law.upper_tail(y / scale).
StepTables step_tables(const SprtShape& shape, const Grid& g, int step, double mu, double scale,
                       const SeedSumLaw& law) {
  // lower_k - lower_(k-1) = step d / 2 on the sum, less the drift of the step.
  const double shift = step * shape.d / 2.0 - step * mu;
  StepTables t;
  // The mass a point moves into a cell of the next grid: the normal's probability between the
  // cell's edges (not its density at the centre times h), so the cells and both tails add up to
  // exactly 1 and no mass is made or lost over many looks.
  t.kernel.resize(static_cast<std::size_t>(2 * g.points - 1));
  double below = law.upper_tail((shift - (g.points - 0.5) * g.h) / scale);
  for (int offset = -(g.points - 1); offset <= g.points - 1; ++offset) {
    const double above = law.upper_tail((shift + (offset + 0.5) * g.h) / scale);
    t.kernel[static_cast<std::size_t>(g.points - 1 - offset)] = below - above;
    below = above;
  }
  for (int i = 0; i < g.points; ++i) {
    const double above_lower = (i + 0.5) * g.h;  // the point's height above the old lower boundary
    t.up.push_back(law.upper_tail((shift + g.width - above_lower) / scale));
    t.down.push_back(law.lower_tail((shift - above_lower) / scale));
  }
  return t;
}

// The sum of x[i] * y[i], i < n, in eight independent partial sums: the recursion's time is these
// products (points^2 per look and error node), and one running sum would wait on each addition.
double dot(const double* x, const double* y, int n) {
  double s[8] = {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0};
  int i = 0;
  for (; i + 8 <= n; i += 8) {
    for (int j = 0; j < 8; ++j) s[j] += x[i + j] * y[i + j];
  }
  for (; i < n; ++i) s[0] += x[i] * y[i];
  return ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
}

// Look 0, where S is n0 mu plus scale times a sum of n0 standardized seeds (N(n0 mu, n0 scale^2)
// for normal seeds): what crosses either boundary there (into `out`), and the probability of each
// cell of the grid between them.
std::vector<double> first_look(const SprtShape& shape, const SprtBoundaries& b, const Grid& g,
                               double mu, double scale, const SeedSumLaw& law, PathMasses& out) {
  const int n0 = shape.looks[0];
  const double mean0 = n0 * mu;
  const double lower0 = sum_at(shape, b.lower, n0);
  out.regression[0] = law.upper_tail((sum_at(shape, b.upper, n0) - mean0) / scale);
  out.pass[0] = law.lower_tail((lower0 - mean0) / scale);
  std::vector<double> mass(static_cast<std::size_t>(g.points));
  double below = law.upper_tail((lower0 - mean0) / scale);
  for (int i = 0; i < g.points; ++i) {
    const double above = law.upper_tail((lower0 + (i + 1) * g.h - mean0) / scale);
    mass[static_cast<std::size_t>(i)] = below - above;  // the cell's probability, at its centre
    below = above;
  }
  return mass;
}

// The cells at or below the PASS boundary raised by `rise` PASS (the cell it cuts in proportion to
// the part below it): their mass leaves the grid. Returns what PASSed.
double pass_below_the_rise(const SprtShape& shape, double rise, const Grid& g,
                           std::vector<double>& mass) {
  const double reach = rise / shape.d;  // the raised boundary's height above lower, on S
  double passed = 0.0;
  for (int i = 0; i < g.points && i * g.h < reach; ++i) {
    double& cell = mass[static_cast<std::size_t>(i)];
    const double share = std::min(1.0, (reach - i * g.h) / g.h) * cell;
    passed += share;
    cell -= share;
  }
  return passed;
}

// The recursion for observations mu + scale X (X a standardized seed of the shape's law: N(mu,
// scale^2) for normal seeds) over every look; after the last one the mass still between the
// boundaries is `undecided`.
PathMasses carry_paths(const SprtShape& shape, const SprtBoundaries& b, double mu, double scale,
                       const SumLaws& laws) {
  const std::vector<int>& n = shape.looks;
  const std::size_t last = n.size() - 1;
  Grid g;
  g.width = (b.upper - b.lower) / shape.d;
  g.points = std::clamp(static_cast<int>(std::ceil(g.width / kGridSpacing)), kFewestGridPoints,
                        kMostGridPoints);
  g.h = g.width / g.points;
  PathMasses out;
  out.regression.assign(last + 1, 0.0);
  out.pass.assign(last + 1, 0.0);

  // The grid spans (lower, upper) at every look; a raised PASS boundary takes its lowest cells.
  const auto raised = [&](std::size_t k) { return b.lower_at(k) > b.lower; };
  std::vector<double> mass = first_look(shape, b, g, mu, scale, *laws.at(n[0]), out);
  if (raised(0)) out.pass[0] += pass_below_the_rise(shape, b.rise[0], g, mass);
  if (last == 0) {
    out.undecided = std::accumulate(mass.begin(), mass.end(), 0.0);
    return out;
  }
  std::vector<double> next(mass.size());
  std::map<int, StepTables> tables;  // by step
  for (std::size_t k = 1; k <= last; ++k) {
    const int step = n[k] - n[k - 1];
    auto it = tables.find(step);
    if (it == tables.end()) {
      it = tables.emplace(step, step_tables(shape, g, step, mu, scale, *laws.at(step))).first;
    }
    const StepTables& t = it->second;
    double carried = 0.0;
    for (std::size_t i = 0; i < mass.size(); ++i) {
      out.regression[k] += mass[i] * t.up[i];
      out.pass[k] += mass[i] * t.down[i];
      carried += mass[i];
    }
    if (k == last && !raised(k)) {
      // What reached the last look and crossed neither boundary there.
      out.undecided = std::max(0.0, carried - out.regression[k] - out.pass[k]);
      break;
    }
    for (int m = 0; m < g.points; ++m) {
      next[static_cast<std::size_t>(m)] =
          dot(mass.data(), t.kernel.data() + (g.points - 1 - m), g.points);
    }
    mass.swap(next);
    if (raised(k)) out.pass[k] += pass_below_the_rise(shape, b.rise[k], g, mass);
    if (k == last) out.undecided = std::accumulate(mass.begin(), mass.end(), 0.0);
  }
  return out;
}

// What the seeds' scale and reference leave unknown. The observations are the seeds' values in
// units of the estimated sd; with r = estimated / true sd (r^2 ~ chi^2_df / df, independent of
// the seeds the test sums: another sample's, or the first look's, whose mean is independent of
// its variance) and e ~ N(0, 1 / reference_seeds) the reference's error in true sds, they are
// N(theta + e / r, 1 / r^2), theta the true shift in the test's units (d at "a shift of the
// margin", whatever r is: d is the margin over the estimated sd). One node per pair (r, e), the
// trapezoid rule over each law in steps of 1 sd (spectrally accurate for smooth integrands; the
// simulation check of truncated_sprt_test.cc includes both).
struct ErrorNode {
  double scale = 1.0;  // the sd of one observation in the test's units: 1 / r, times the slope's
  double shift = 0.0;  // e / r: the reference's error in the test's units
  double weight = 1.0;
};

std::vector<std::pair<double, double>> trapezoid_normal(double step, double reach) {
  std::vector<std::pair<double, double>> nodes;  // (z, weight)
  double total = 0.0;
  for (double z = -reach; z <= reach + 1e-9; z += step) {
    nodes.emplace_back(z, normal_density(z));
    total += nodes.back().second;
  }
  for (auto& node : nodes) node.second /= total;
  return nodes;
}

// Nodes of r over the law of ln(chi^2_df / df): the trapezoid rule in t = ln chi^2, whose density
// is x^(df/2) e^(-x/2) / (2^(df/2) Gamma(df/2)) at x = e^t, over its mean -7 .. +5 of its sds
// (its left tail is the longer).
struct SpreadNode {
  double inverse_r = 1.0, weight = 1.0;
  double z = 0.0;  // the node's place in the law of ln chi^2, in its sds
};

std::vector<SpreadNode> spread_ratio_nodes(double df) {
  if (df == 0.0) return {{1.0, 1.0, 0.0}};
  const double half = df / 2.0;
  // The mean and sd of ln chi^2_df: digamma(df/2) + ln 2 and sqrt(trigamma(df/2)), by the
  // asymptotic series after shifting the argument above 6.
  double x = half, digamma = 0.0, trigamma = 0.0;
  for (; x < 6.0; x += 1.0) {
    digamma -= 1.0 / x;
    trigamma += 1.0 / (x * x);
  }
  const double x2 = 1.0 / (x * x);
  digamma += std::log(x) - 0.5 / x - x2 * (1.0 / 12 - x2 * (1.0 / 120 - x2 / 252));
  trigamma += 1.0 / x + 0.5 * x2 + x2 / x * (1.0 / 6 - x2 * (1.0 / 30 - x2 / 42));
  const double mean = digamma + std::log(2.0), sd = std::sqrt(trigamma);
  std::vector<SpreadNode> nodes;
  double total = 0.0;
  for (double z = -7.0; z <= 5.0 + 1e-9; z += 1.0) {
    const double t = mean + z * sd;
    const double log_density =
        half * t - std::exp(t) / 2.0 - half * std::log(2.0) - std::lgamma(half);
    const double r = std::sqrt(std::exp(t) / df);
    nodes.push_back({1.0 / r, std::exp(log_density), z});
    total += nodes.back().weight;
  }
  for (auto& node : nodes) node.weight /= total;
  return nodes;
}

// The variance factor 1 + v a covariate's estimated slope leaves on each seed, v = z^2 /
// chi^2_(m-1) (z ~ N(0, 1), independent of the baseline's Sxx / sd_x^2 ~ chi^2_(m-1)): averaged by
// the two-node rule at v = 0 and v = E[v^2] / E[v] = 3 / (m - 5) that holds E[v] = 1 / (m - 3) and
// E[v^2] = 3 / ((m - 3)(m - 5)) exactly, so exact for outcomes quadratic in v (nearly linear
// here: v is of order 1 / m). Below 6 seeds E[v^2] is infinite and the one node E[v] stands in.
// One factor of 1 without a covariate.
std::vector<std::pair<double, double>> slope_variance_nodes(int slope_seeds) {
  if (slope_seeds == 0) return {{1.0, 1.0}};
  const double m = slope_seeds;
  const double mean = 1.0 / (m - 3.0);
  if (slope_seeds < 6) return {{1.0 + mean, 1.0}};
  const double far = 3.0 / (m - 5.0);
  return {{1.0, 1.0 - mean / far}, {1.0 + far, mean / far}};  // (variance factor, weight)
}

std::vector<ErrorNode> error_nodes(const SprtShape& shape) {
  const auto shifts = shape.reference_seeds == 0
                          ? std::vector<std::pair<double, double>>{{0.0, 1.0}}
                          : trapezoid_normal(1.0, 6.0);
  // The reference's error, correlated with the sd's: e = (-rho z_r + sqrt(1 - rho^2) z) / sqrt(m),
  // z_r the sd node's place (an sd estimate below the truth, z_r < 0, comes with a reference that
  // errs toward a degradation), z independent.
  const double rho = shape.mean_spread_correlation;
  std::vector<ErrorNode> nodes;
  for (const SpreadNode& spread : spread_ratio_nodes(shape.spread_df)) {
    for (const auto& [factor, w_s] : slope_variance_nodes(shape.slope_seeds)) {
      const double inflation = spread.inverse_r * std::sqrt(factor);
      for (const auto& [z, w_e] : shifts) {
        const double e = shape.reference_seeds == 0
                             ? 0.0
                             : (-rho * spread.z + std::sqrt(1.0 - rho * rho) * z) /
                                   std::sqrt(shape.reference_seeds);
        nodes.push_back({inflation, e * inflation, spread.weight * w_s * w_e});
      }
    }
  }
  return nodes;
}

// The x in [lowest, highest] where the decreasing function f equals target: a bracket grown from
// guess by steps that double (a boundary far from the answer makes a wide grid, so the bracket
// starts narrow), then the Illinois variant of false position (a handful of evaluations where
// bisection takes 20; each one is a recursion), to a relative error of 1e-4 in f.
template <typename F>
double solve_decreasing(F f, double target, double guess, double reach, double lowest,
                        double highest) {
  double low = std::max(lowest, guess - reach), high = std::min(highest, guess + reach);
  double f_low = f(low) - target, f_high = f(high) - target;
  for (double step = 0.5; f_low < 0.0 && low > lowest; step *= 2.0) {
    high = low, f_high = f_low;
    low = std::max(lowest, low - step);
    f_low = f(low) - target;
  }
  for (double step = 0.5; f_high > 0.0 && high < highest; step *= 2.0) {
    low = high, f_low = f_high;
    high = std::min(highest, high + step);
    f_high = f(high) - target;
  }
  if (f_low <= 0.0) return low;
  if (f_high >= 0.0) return high;
  int side = 0;
  for (int i = 0; i < 60; ++i) {
    const double x = (low * f_high - high * f_low) / (f_high - f_low);
    const double fx = f(x) - target;
    if (std::abs(fx) <= 1e-4 * target || high - low < 1e-9) return x;
    if (fx > 0.0) {
      low = x, f_low = fx;
      if (side == 1) f_high /= 2.0;
      side = 1;
    } else {
      high = x, f_high = fx;
      if (side == -1) f_low /= 2.0;
      side = -1;
    }
  }
  return 0.5 * (low + high);
}

}  // namespace

SprtOutcomes sprt_outcomes(const SprtShape& shape, const SprtBoundaries& boundaries, double theta) {
  require_shape(shape, boundaries);
  const std::size_t last = shape.looks.size() - 1;
  SprtOutcomes out;
  out.stop_at.assign(shape.looks.size(), 0.0);
  out.regression_at.assign(shape.looks.size(), 0.0);
  const SumLaws laws = sum_laws(shape);
  for (const ErrorNode& node : error_nodes(shape)) {
    const PathMasses m = carry_paths(shape, boundaries, theta + node.shift, node.scale, laws);
    for (std::size_t k = 0; k <= last; ++k) {
      out.regression += node.weight * m.regression[k];
      out.pass += node.weight * m.pass[k];
      out.stop_at[k] += node.weight * (m.regression[k] + m.pass[k]);
      out.regression_at[k] += node.weight * m.regression[k];
    }
    out.undecided += node.weight * m.undecided;
    out.stop_at[last] += node.weight * m.undecided;
  }
  for (std::size_t k = 0; k <= last; ++k) out.expected_seeds += shape.looks[k] * out.stop_at[k];
  return out;
}

SprtCalibration calibrate_sprt(const SprtShape& shape, double alpha, double beta,
                               const std::vector<double>& rise, const SprtBoundaries* near) {
  if (!(alpha > 0.0 && alpha < 0.5) || !(beta > 0.0 && beta < 0.5)) {
    throw std::invalid_argument("an SPRT's alpha and beta must lie in (0, 0.5)");
  }
  // Wald's approximations to start from, the PASS boundary lowered by part of its rise.
  const double most_rise = rise.empty() ? 0.0 : *std::max_element(rise.begin(), rise.end());
  SprtBoundaries b{std::log((1.0 - beta) / alpha), std::log(beta / (1.0 - alpha)) - most_rise / 2,
                   rise};
  const bool start_near = near != nullptr && near->lower + most_rise < near->upper;
  if (start_near) b = SprtBoundaries{near->upper, near->lower, rise};
  require_shape(shape, b);
  const auto alpha_at = [&](double upper) {
    return sprt_outcomes(shape, {upper, b.lower, rise}, 0.0).regression;
  };
  // P(no PASS | d) falls as lower rises (more paths PASS early): decreasing in lower.
  const auto no_pass_at = [&](double lower) {
    return 1.0 - sprt_outcomes(shape, {b.upper, lower, rise}, shape.d).pass;
  };
  for (int round = 0; round < 8; ++round) {
    const SprtBoundaries before = b;
    // Wald's start may be far off; later rounds move the boundaries by little.
    const double reach = round == 0 && !start_near ? 0.25 : 0.02;
    b.upper = solve_decreasing(alpha_at, alpha, b.upper, reach,
                               std::max(0.0, b.lower + most_rise) + 1e-3, kHighestUpper);
    b.lower = solve_decreasing(no_pass_at, 1.0 - beta, b.lower, reach, kLowestLower,
                               std::min(0.0, b.upper - most_rise) - 1e-3);
    if (std::abs(b.upper - before.upper) < 1e-3 && std::abs(b.lower - before.lower) < 1e-3) break;
  }
  SprtCalibration c;
  c.boundaries = b;
  const SprtOutcomes h0 = sprt_outcomes(shape, b, 0.0);
  c.alpha = h0.regression;
  c.power = sprt_outcomes(shape, b, shape.d).regression;
  double by_now = 0.0;
  for (const double p : h0.regression_at) c.regression_by_look.push_back(by_now += p);
  return c;
}

}  // namespace mlregress::internal::stats
