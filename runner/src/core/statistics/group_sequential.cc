#include "statistics/group_sequential.h"

#include <fmt/format.h>

#include <boost/math/distributions/normal.hpp>
#include <cmath>
#include <map>
#include <mutex>
#include <numbers>
#include <stdexcept>
#include <tuple>

#include "statistics/normal_tail.h"
#include "support/enum_names.h"

namespace mlregress::internal::stats {
namespace {

// Grid points per look (odd, for Simpson's rule): boundaries to about 1e-6 in z.
constexpr int kGridPoints = 1001;
// The continuation region starts this many standard deviations below 0; the mass beyond is
// below 1e-23.
constexpr double kLowerTail = 10.0;

double normal_density(double z) {
  return std::exp(-0.5 * z * z) / std::sqrt(2.0 * std::numbers::pi);
}

// The sub-density of the score S_k = Z_k sqrt(t_k) over the continuation region of the looks so
// far (paths that never crossed), tabulated on a grid with Simpson weights.
struct SubDensity {
  std::vector<double> s;         // grid points
  std::vector<double> weighted;  // Simpson weight times density at each point
};

SubDensity tabulate(double lower, double upper, const auto& density) {
  SubDensity out;
  const double h = (upper - lower) / (kGridPoints - 1);
  out.s.resize(kGridPoints);
  out.weighted.resize(kGridPoints);
  for (int i = 0; i < kGridPoints; ++i) {
    const double s = lower + h * i;
    const double simpson = (i == 0 || i == kGridPoints - 1) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);
    out.s[i] = s;
    out.weighted[i] = simpson * h / 3.0 * density(s);
  }
  return out;
}

// P(the path continues to look k and crosses score boundary b there), the increment from the
// previous look having variance `step`.
double crossing_probability(const SubDensity& previous, double step, double b) {
  const double sd = std::sqrt(step);
  double p = 0.0;
  for (std::size_t i = 0; i < previous.s.size(); ++i) {
    p += previous.weighted[i] * upper_tail((b - previous.s[i]) / sd);
  }
  return p;
}

// The score boundary b with crossing probability `target` (decreasing in b): bisection.
double solve_boundary(const auto& probability_at, double target) {
  double low = -kLowerTail, high = 40.0;
  for (int iteration = 0; iteration < 200 && high - low > 1e-12; ++iteration) {
    const double middle = 0.5 * (low + high);
    (probability_at(middle) > target ? low : high) = middle;
  }
  return 0.5 * (low + high);
}

constexpr auto kSpendingNames = enum_names<SpendingFunction>(
    {{SpendingFunction::kPocock, "pocock"}, {SpendingFunction::kOBrienFleming, "obrien-fleming"}});

void check_alpha(double alpha) {
  if (!(alpha > 0.0 && alpha < 1.0)) {
    throw std::invalid_argument(fmt::format("alpha must be in (0, 1), not {}", alpha));
  }
}

}  // namespace

std::string_view spending_function_name(SpendingFunction spending) {
  return kSpendingNames.name(spending, "obrien-fleming");
}

std::optional<SpendingFunction> parse_spending_function(std::string_view name) {
  return kSpendingNames.parse(name);
}

double alpha_spent(SpendingFunction spending, double alpha, double t) {
  check_alpha(alpha);
  if (!(t > 0.0)) return 0.0;  // NaN too
  t = std::min(t, 1.0);
  switch (spending) {
    case SpendingFunction::kPocock:
      return alpha * std::log(1.0 + (std::numbers::e - 1.0) * t);
    case SpendingFunction::kOBrienFleming: {
      const boost::math::normal normal;
      const double z = boost::math::quantile(boost::math::complement(normal, alpha / 2.0));
      return 2.0 * upper_tail(z / std::sqrt(t));
    }
  }
  return 0.0;
}

// Information fractions strictly increasing within (0, 1], alpha within (0, 1).
static void check_design(const std::vector<double>& t, double alpha) {
  check_alpha(alpha);
  if (t.empty()) throw std::invalid_argument("a design needs at least one look");
  for (std::size_t k = 0; k < t.size(); ++k) {
    if (!(t[k] > 0.0 && t[k] <= 1.0) || (k > 0 && !(t[k] > t[k - 1]))) {
      throw std::invalid_argument(
          fmt::format("information fractions must increase strictly within (0, 1]; look {} has {}",
                      k + 1, t[k]));
    }
  }
}

std::vector<double> upper_boundaries(const std::vector<double>& t, double alpha,
                                     SpendingFunction spending) {
  check_design(t, alpha);
  std::vector<double> boundaries;
  SubDensity continuing;
  double spent_before = 0.0;
  for (std::size_t k = 0; k < t.size(); ++k) {
    const double spent = alpha_spent(spending, alpha, t[k]);
    const double target = spent - spent_before;
    spent_before = spent;
    double b = 0.0;
    if (k == 0) {
      b = solve_boundary([&](double x) { return upper_tail(x / std::sqrt(t[0])); }, target);
      const double sd = std::sqrt(t[0]);
      continuing =
          tabulate(-kLowerTail * sd, b, [&](double s) { return normal_density(s / sd) / sd; });
    } else {
      const double step = t[k] - t[k - 1];
      b = solve_boundary([&](double x) { return crossing_probability(continuing, step, x); },
                         target);
      const double sd = std::sqrt(step);
      const SubDensity previous = continuing;
      continuing = tabulate(-kLowerTail * std::sqrt(t[k]), b, [&](double s) {
        double density = 0.0;
        for (std::size_t i = 0; i < previous.s.size(); ++i) {
          density += previous.weighted[i] * normal_density((s - previous.s[i]) / sd) / sd;
        }
        return density;
      });
    }
    boundaries.push_back(b / std::sqrt(t[k]));
  }
  return boundaries;
}

std::vector<double> nominal_p_thresholds(const std::vector<double>& t, double alpha,
                                         SpendingFunction spending) {
  // The recursion costs milliseconds and a run asks for the same few designs at every look of
  // every metric (and simulations of the gate ask millions of times): computed once per design.
  using Design = std::tuple<std::vector<double>, double, SpendingFunction>;
  static std::mutex mutex;
  static std::map<Design, std::vector<double>> computed;
  Design design{t, alpha, spending};
  {
    const std::lock_guard<std::mutex> lock(mutex);
    const auto it = computed.find(design);
    if (it != computed.end()) return it->second;
  }
  std::vector<double> p;
  for (double c : upper_boundaries(t, alpha, spending)) p.push_back(upper_tail(c));
  const std::lock_guard<std::mutex> lock(mutex);
  return computed.emplace(std::move(design), std::move(p)).first->second;
}

std::vector<double> spent_increments(const std::vector<double>& t, double alpha,
                                     SpendingFunction spending) {
  check_design(t, alpha);
  std::vector<double> increments;
  double before = 0.0;
  for (double fraction : t) {
    const double spent = alpha_spent(spending, alpha, fraction);
    increments.push_back(spent - before);
    before = spent;
  }
  return increments;
}

std::vector<double> information_fractions(const std::vector<int>& looks, int baseline_n) {
  if (looks.empty()) throw std::invalid_argument("a design needs at least one look");
  if (baseline_n < 0) throw std::invalid_argument("the baseline's sample size cannot be negative");
  const auto information = [&](int n) {
    if (n < 1) throw std::invalid_argument(fmt::format("a look needs seeds, not {}", n));
    return baseline_n == 0 ? static_cast<double>(n) : 1.0 / (1.0 / n + 1.0 / baseline_n);
  };
  const double total = information(looks.back());
  std::vector<double> t;
  t.reserve(looks.size());
  for (int n : looks) t.push_back(information(n) / total);
  return t;
}

}  // namespace mlregress::internal::stats
