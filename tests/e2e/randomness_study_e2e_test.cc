// Seeds(n).randomness_study() end to end, through tests/fixture/randomness_fixture.cc: the four
// variants run over the same seeds, a held stream's seed stays at the first seed's while the
// varied one moves, the ablation table (run and `ablation`) gains the spread over seeds, and the
// planted order drawn from the initialisation's generator gives sd 0 in data_order_only and the
// warning; combined with variants() the binary refuses to start (exit 4).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "e2e_fixture.h"
#include "fixture_runner.h"
#include "tests/support/files.h"

namespace mlregress::e2e {
namespace {

using nlohmann::json;
using test_support::read_file;
using ::testing::HasSubstr;
using ::testing::Not;

class RandomnessStudyE2eTest : public FixtureBinaryTest {
 protected:
  RandomnessStudyE2eTest() : FixtureBinaryTest(MLREGRESS_RANDOMNESS_FIXTURE_BINARY) {}
  ProcessResult run(const std::string& args) {
    return fixture("run --color never --jobs 2 --out " + temp_.path() + "/runs " + args);
  }
  std::string latest() const { return temp_.path() + "/runs/latest"; }
  // The distinct values of METRIC[VARIANT] over the seeds of the latest run.
  std::set<double> distinct(const std::string& metric, const std::string& variant) const {
    const json results = json::parse(read_file(latest() + "/results.json"));
    const json samples =
        metric_named(test_named(results, "RandomnessStudy"), metric + "[" + variant + "]")
            .at("samples");
    std::set<double> values;
    for (const json& value : samples) values.insert(value.get<double>());
    EXPECT_EQ(samples.size(), 5u) << metric << "[" << variant << "]";
    return values;
  }
};

TEST_F(RandomnessStudyE2eTest, HeldStreamsStayAndTheSpreadBlockShowsEachVariant) {
  const ProcessResult r = run("");
  ASSERT_EQ(r.exit_code, kPassed) << r.out << r.err;
  // The data stream is held in data_order_only and initialisation_only, varied in all and
  // data_only.
  EXPECT_EQ(distinct("data_seed", "data_order_only").size(), 1u);
  EXPECT_EQ(distinct("data_seed", "initialisation_only").size(), 1u);
  EXPECT_EQ(distinct("data_seed", "data_only").size(), 5u);
  EXPECT_EQ(distinct("data_seed", "all").size(), 5u);
  EXPECT_EQ(distinct("data_seed", "all"), distinct("data_seed", "data_only"));
  EXPECT_EQ(distinct("loss", "data_order_only").size(), 5u);  // the order alone moves it
  EXPECT_THAT(r.out, HasSubstr("ABLATION RandomnessStudy (4 variants")) << r.out;
  EXPECT_THAT(r.out, HasSubstr("spread over seeds (randomness study: sd [95% CI, chi-square] · "
                               "var / var(all))"))
      << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("changed nothing"))) << r.out;
  // The `ablation` command rebuilds the same block from seeds.jsonl.
  const ProcessResult table = fixture("ablation " + latest());
  EXPECT_EQ(table.exit_code, kPassed) << table.err;
  EXPECT_THAT(table.out, HasSubstr("spread over seeds")) << table.out;
}

TEST_F(RandomnessStudyE2eTest, AnOrderDrawnFromTheInitialisationsGeneratorIsWarnedAbout) {
  const ProcessResult r = run("--set RandomnessStudy.order_from_global=true");
  ASSERT_EQ(r.exit_code, kPassed) << r.out << r.err;
  EXPECT_EQ(distinct("loss", "data_order_only").size(), 1u);  // sd exactly 0
  EXPECT_THAT(r.out, HasSubstr("warning: varying data_order changed nothing over 5 seeds "
                               "(data_order_only: every metric's sd is 0): is it drawn from "
                               "seed(SeedStream::DataOrder)?"))
      << r.out;
  const ProcessResult table = fixture("ablation " + latest());
  EXPECT_THAT(table.out, HasSubstr("warning: varying data_order changed nothing")) << table.out;
}

TEST_F(RandomnessStudyE2eTest, AStudyCombinedWithVariantsIsRefusedAtStart) {
  const ProcessResult r = run_fixture_in(temp_.path(), MLREGRESS_REFUSED_RANDOMNESS_FIXTURE_BINARY,
                                         "run --color never --out " + temp_.path() + "/runs");
  EXPECT_EQ(r.exit_code, kUsageError) << r.out << r.err;
  EXPECT_THAT(r.err, HasSubstr("seeded test 'RandomnessStudy' declares "
                               "Seeds(4).randomness_study() together with variants()"))
      << r.err;
}

}  // namespace
}  // namespace mlregress::e2e
