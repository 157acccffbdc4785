#include "registry/randomness_study.h"

#include <fmt/format.h>

#include <vector>

#include "mlregress/seeds.h"
#include "support/enum_names.h"

namespace mlregress {
namespace {

constexpr auto kSeedStreamNames =
    internal::enum_names<SeedStream>({{SeedStream::Data, "data"},
                                      {SeedStream::Initialisation, "initialisation"},
                                      {SeedStream::DataOrder, "data_order"}});

}  // namespace

std::string_view seed_stream_name(SeedStream stream) {
  return kSeedStreamNames.name(stream, "unknown");
}

std::vector<Variant> randomness_study_variants() {
  using enum SeedStream;
  // Each *_only variant lets one stream follow the seed and holds the other two.
  return {Variant{.name = "all", .overrides = {}},
          Variant{.name = "data_order_only", .overrides = {}, .held = {Data, Initialisation}},
          Variant{.name = "initialisation_only", .overrides = {}, .held = {Data, DataOrder}},
          Variant{.name = "data_only", .overrides = {}, .held = {Initialisation, DataOrder}}};
}

namespace internal {

std::string randomness_study_problem(const RegisteredTest& test, const std::string& where) {
  const Seeds& seeds = test.seeds;
  if (!seeds.studies_randomness()) return "";
  if (seeds.variant_list().empty() && seeds.searches().empty()) return "";
  return fmt::format(
      "{}: seeded test '{}' declares Seeds({}).randomness_study() together with {}; a randomness "
      "study runs its own variants (all, data_order_only, initialisation_only, data_only) under "
      "one configuration: declare the ablation or the search as a test of its own",
      where, test.name, seeds.count(), seeds.searches().empty() ? "variants()" : "random_search()");
}

void add_randomness_study_variants(RegisteredTest& test) {
  if (test.seeds.studies_randomness()) test.seeds.variants(randomness_study_variants());
}

}  // namespace internal
}  // namespace mlregress
