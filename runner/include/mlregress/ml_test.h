// The test API: ML_TEST declares a GoogleTest test with a tier and typed parameters; inside its
// body, record() and record_curve() capture metrics, param<T>() reads the resolved parameters.
//
//   ML_TEST(Fast, CnnOverfitsOneBatch, {"lr", 1e-3}, {"steps", 501}) {
//     const double lr = param<double>("lr");        // --set CnnOverfitsOneBatch.lr=0.01
//     ...
//     record("final_loss", loss, LowerIsBetter, Band{.rtol = 0.5, .atol = 1e-3});
//     record_curve("loss", losses);
//     EXPECT_LT(loss, 0.01);                         // GoogleTest assertions work as usual
//   }
#pragma once

#include <gtest/gtest.h>

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mlregress/attempts.h"
#include "mlregress/batch_view.h"
#include "mlregress/dataset.h"
#include "mlregress/determinism_mode.h"
#include "mlregress/metric.h"
#include "mlregress/param.h"
#include "mlregress/registration.h"
#include "mlregress/seeds.h"
#include "mlregress/tier.h"

namespace mlregress {

class MlTest;

/// Converts a container of class indices or example ids to std::vector<std::int64_t> for
/// MlTest::record_predictions; specialised for torch::Tensor in mlregress/torch/predictions.h.
template <typename T>
struct ClassIndices;

/// Converts a container of per-example attribute values to std::vector<double> for
/// MlTest::record_predictions; specialised for torch::Tensor in mlregress/torch/predictions.h.
template <typename T>
struct ExampleValues;

/// Per-example attributes of recorded predictions, by name: values[i] belongs to ids[i] (NaN:
/// no value for that example), e.g. {{"length", lengths}, {"label_frequency", frequencies}}.
using ExampleAttributes = std::vector<std::pair<std::string, std::vector<double>>>;

namespace internal {
const ParamValue& resolved_param(std::string_view key);
}  // namespace internal

/// Base of every ML_TEST. The runner seeds the RNGs and fixes the thread count before body().
class MlTest : public ::testing::Test {
 public:
  // Test bodies are members of classes outside namespace mlregress; these make the recording
  // vocabulary usable there unqualified: record("loss", v, LowerIsBetter, Band{.rtol = 0.1}).
  using enum Direction;
  using Band = ::mlregress::Band;
  using Exact = ::mlregress::Exact;
  using Scope = ::mlregress::Scope;
  using Margin = ::mlregress::Margin;
  using Timing = ::mlregress::Timing;
  using FailureRate = ::mlregress::FailureRate;
  using Breakdown = ::mlregress::Breakdown;
  using BreakdownUnit = ::mlregress::BreakdownUnit;
  using CurvePolicy = ::mlregress::CurvePolicy;
  using Below = ::mlregress::Below;
  using Above = ::mlregress::Above;
  using SeedStream = ::mlregress::SeedStream;

  /// Records a named scalar metric. Recording the same name twice keeps both entries, so a
  /// reporter can flag it; NaN and Inf are recorded as they are. In a seeded test each seed
  /// records its own value; the policy must then be a Margin (or none: Margin{.delta = 0}).
  /// A policy that cannot gate (a NaN, negative or infinite tolerance; a Margin outside a
  /// seeded test) throws std::invalid_argument naming the file and line of the call (`file` and
  /// `line` are filled in at the call; std::source_location would need Clang 15 with libstdc++).
  static void record(std::string_view name, double value, Direction direction,
                     TolerancePolicy policy = {}, const char* file = __builtin_FILE(),
                     int line = __builtin_LINE());

  /// Records a capability: a metric with a target it aims for and may not reach yet,
  /// record_target("val_loss", loss, Below{2.5}) (met when loss < 2.5) or
  /// record_target("accuracy", acc, Above{0.9}) (met when acc > 0.9). The run reports it MET or
  /// NOT MET with its success rate over the runs folder's history; NOT MET never fails the run.
  /// Promote leaves it alone; `graduate` turns it into a regression guard (a band) once it is met
  /// often enough (runner/docs/capabilities.md). Plain tests only (ML_CAPABILITY_TEST, ML_TEST);
  /// a threshold that is not finite, or a seeded test, throws std::invalid_argument naming the
  /// file and line of the call.
  static void record_target(std::string_view name, double value, Below target,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE());
  static void record_target(std::string_view name, double value, Above target,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE());

  /// Splits a cost counter recorded just before (record("ops_per_step", ...)) by operator: what
  /// each operator adds to it (OpCounter::breakdown gives one for calls, allocations or bytes).
  /// Promote stores it beside the value, and when the value REGRESSES or IMPROVES the verdict
  /// names the operators whose counts changed, largest share of the change first. ML_TEST only;
  /// once per metric; a metric not recorded yet, or a negative count, throws
  /// std::invalid_argument naming the file and line of the call.
  static void record_breakdown(std::string_view metric, const Breakdown& breakdown,
                               const char* file = __builtin_FILE(), int line = __builtin_LINE());

  /// Records a curve whose steps are 0, 1, ..., values.size() - 1.
  static void record_curve(std::string_view name, const std::vector<double>& values);
  /// Records a curve at explicit steps (e.g. a validation loss every 100 steps).
  static void record_curve(std::string_view name, const std::vector<std::int64_t>& steps,
                           const std::vector<double>& values);
  /// Records a curve and gates it against the baseline's reference curve (promote stores one,
  /// downsampled to at most 1,000 points, under baselines/<binary>/curves/): the run reports the
  /// first step where it leaves the band on the worse side and the largest excursion, and that
  /// is a REGRESSION like any metric's. A policy that cannot gate throws std::invalid_argument.
  /// (Templates only so that a braced list is never taken for a policy: record_curve("loss",
  /// {0, 10}, {0.9, 0.5}) stays steps and values.)
  template <std::same_as<CurvePolicy> Policy>
  static void record_curve(std::string_view name, const std::vector<double>& values,
                           const Policy& policy) {
    std::vector<std::int64_t> steps(values.size());
    for (std::size_t i = 0; i < steps.size(); ++i) steps[i] = static_cast<std::int64_t>(i);
    record_gated_curve(name, steps, values, policy);
  }
  template <std::same_as<CurvePolicy> Policy>
  static void record_curve(std::string_view name, const std::vector<std::int64_t>& steps,
                           const std::vector<double>& values, const Policy& policy) {
    record_gated_curve(name, steps, values, policy);
  }
  /// What the two above call.
  static void record_gated_curve(std::string_view name, const std::vector<std::int64_t>& steps,
                                 const std::vector<double>& values, const CurvePolicy& policy);

  /// Records a classifier's predictions on a frozen evaluation set: example i has the stable id
  /// ids[i], predicted class predicted[i] and true class target[i] (class indices >= 0, ids
  /// unique). Stored in the run folder (predictions/<test>.<name>.csv) and, by promote, beside
  /// the baseline; a later run is compared example by example: the flips correct -> wrong and
  /// wrong -> correct, by class, and McNemar's exact test on them decides the verdict. Plain
  /// ML_TESTs only (each seed of a seeded test would evaluate another model). Malformed input
  /// throws std::invalid_argument. Tensors work too (mlregress/torch/predictions.h).
  static void record_predictions(std::string_view name, const std::vector<std::int64_t>& ids,
                                 const std::vector<std::int64_t>& predicted,
                                 const std::vector<std::int64_t>& target);
  /// The same for any type ClassIndices<T> converts (torch::Tensor: any integer dtype, any
  /// device, one dimension).
  template <typename T>
  requires requires(const T& t) { ClassIndices<T>::to_vector(t); }
  static void record_predictions(std::string_view name, const T& ids, const T& predicted,
                                 const T& target) {
    record_predictions(name, ClassIndices<T>::to_vector(ids), ClassIndices<T>::to_vector(predicted),
                       ClassIndices<T>::to_vector(target));
  }
  /// The same with an attribute per example (a sequence's length, a token's position, an
  /// image's size, a label's frequency): stored as extra columns of the predictions file, and a
  /// later run's flips are also sliced by each attribute (one slice per value for at most 12
  /// integer values, else quartiles; examples without a value in the slice "missing"), each
  /// slice with McNemar's exact test, Holm-adjusted across the attribute's slices. An attribute
  /// needs one value per id and a name of letters, digits, '_', '.' or '-', used once
  /// (std::invalid_argument).
  static void record_predictions(std::string_view name, const std::vector<std::int64_t>& ids,
                                 const std::vector<std::int64_t>& predicted,
                                 const std::vector<std::int64_t>& target,
                                 const ExampleAttributes& attributes);
  /// The same for tensors: ids and classes as above, each attribute a 1-D tensor of any numeric
  /// dtype (ExampleValues<T>).
  template <typename T>
  requires requires(const T& t) {
    ClassIndices<T>::to_vector(t);
    ExampleValues<T>::to_vector(t);
  }
  static void record_predictions(std::string_view name, const T& ids, const T& predicted,
                                 const T& target,
                                 const std::vector<std::pair<std::string, T>>& attributes) {
    ExampleAttributes values;
    for (const auto& [attribute, tensor] : attributes) {
      values.emplace_back(attribute, ExampleValues<T>::to_vector(tensor));
    }
    record_predictions(name, ClassIndices<T>::to_vector(ids), ClassIndices<T>::to_vector(predicted),
                       ClassIndices<T>::to_vector(target), values);
  }

  /// Records a batch as the model receives it, for a person to look at: images as a grid,
  /// decoded text, tabular rows, each example beside its label (mlregress/torch/batch_view.h
  /// makes one from tensors: image_batch, text_batch, table_batch). Stored in the run folder
  /// (batches/<test>.<name>.json) and drawn in report.html's "Batches" block; not gated.
  /// Recording a name twice keeps the later batch. A seeded test keeps its first seed's batch
  /// (the first variant's), as it keeps its datasets. The name holds only letters, digits, '_',
  /// '.' and '-'; a name or a view that cannot be stored (batch_view_problem) throws
  /// std::invalid_argument.
  static void record_batch(std::string_view name, const BatchView& view);

  /// Records which data the test measured on (a content hash: fingerprint_files, or
  /// fingerprint_tensors from mlregress/torch/dataset.h). Promote keeps it in the baseline; when
  /// a later run's hash differs, every metric of the test is NOT_COMPARABLE ("the dataset 'eval'
  /// changed (sha256:ab12… → sha256:cd34…)") instead of being compared with values measured on
  /// other data.
  static void record_dataset(std::string_view name, const DatasetFingerprint& fingerprint);
  /// Records the order in which examples are served (e.g. the dataset indices of the first N
  /// batches) as a fingerprint. Promote keeps it; when a later run's order differs, the test's
  /// report says "the data order 'train' changed" beside its verdicts (which stay as judged: an
  /// order change is a cause to look at, not a reason to stop comparing).
  static void record_data_order(std::string_view name, const std::vector<std::int64_t>& indices);
  /// The same for files, hashed by content in the order given.
  static void record_dataset_files(std::string_view name, const std::vector<std::string>& files) {
    record_dataset(name, fingerprint_files(files));
  }
  /// Records the checkpoint the test LOADS and evaluates (pretrained weights, a resumed run's
  /// starting point), fingerprinted by its file's content (SHA-256). Promote keeps it; when a
  /// later run loads another checkpoint, every metric of the test is NOT_COMPARABLE ("the
  /// checkpoint 'pretrained' changed (sha256:ab12… → sha256:cd34…)"), as for a dataset. Do not
  /// record a checkpoint the test itself writes: its bytes follow the numerics. Throws like
  /// record_dataset_files when the file cannot be read.
  static void record_checkpoint(std::string_view name, const std::string& path);

  /// Marks that this test evaluated the held-out set `name` (a test set meant to be touched once,
  /// when the work is done) with the data whose fingerprint is given (fingerprint_files, or
  /// fingerprint_tensors from mlregress/torch/dataset.h). The run counts its evaluations, in this
  /// run and in the earlier runs of its runs folder (the same name and fingerprint); past the
  /// first, the console, results.json and notes.md say "held-out set 'test' (sha256:…)
  /// evaluated 2 times: …; past the first it no longer estimates generalisation". A warning
  /// only: it never fails the run. In a seeded test the seeds of one variant count as one
  /// evaluation, each variant as one more. It records no dataset fingerprint (record_dataset
  /// does that). The name is not empty; the fingerprint is "sha256:" and 64 hex digits, or
  /// std::invalid_argument names what is wrong.
  static void record_held_out_evaluation(std::string_view name,
                                         const DatasetFingerprint& fingerprint);

  /// Records a fact about what the test ran on that a reader needs months later and that is not
  /// a metric, as GoogleTest's RecordProperty: "sequence_length" = "16", "dtype" = "float32",
  /// "tokenizer" = "sentencepiece bpe, 40 pieces". A property is not gated: promote keeps the
  /// test's properties in its baseline, and a later run whose properties differ from the
  /// baseline's gets a note naming them beside its verdicts ("properties changed:
  /// sequence_length 16 → 32"), which stay as judged. Recording a key twice keeps the last value.
  /// A key is not empty and holds only letters, digits, '_', '.' and '-'; another throws
  /// std::invalid_argument naming it. A seeded test keeps the properties of its first seed in
  /// plan order, as it keeps its datasets.
  static void record_property(std::string_view key, std::string_view value);
  /// The same for a number: an integer in decimal ("16"), a bool as "true" or "false", a double in
  /// the shortest form that reads back as the same value ("0.001", "1e-07").
  template <std::integral T>
  static void record_property(std::string_view key, T value) {
    if constexpr (std::same_as<T, bool>) {
      record_property(key, std::string_view(value ? "true" : "false"));
    } else {
      record_property(key, std::string_view(std::to_string(value)));
    }
  }
  static void record_property(std::string_view key, double value);

  /// Declares a constraint on one of the test's metrics, checked against the baseline's value
  /// whenever the test is compared (`run --baselines`, `compare`): "METRIC OP VALUE", OP one of
  /// <=, >=, <, >, VALUE a ratio to the baseline ("peak_bytes_per_step <= 1.10x"), a change
  /// relative to it ("val_loss <= +0.5%") or a number in the metric's units ("nonfinite_count
  /// <= 0"). A broken constraint, or one on a metric the test did not record, fails the run with
  /// exit code 12 (constraint_violated) when nothing worse happened; results.json keeps the
  /// texts. A text that does not parse throws std::invalid_argument naming it, the file and the
  /// line of the call. Declaring a text twice keeps it once.
  static void constrain(std::string_view text, const char* file = __builtin_FILE(),
                        int line = __builtin_LINE());

  /// The resolved value of a declared parameter. T is bool, an integer type, double or
  /// std::string and must match the declared type (ints may be read as double).
  template <typename T>
  static T param(std::string_view key);

  /// The seed this test started from (the RNGs were seeded with it before the body ran). In a
  /// seeded test: this run's seed.
  static std::uint64_t seed();
  /// The seed of one source of randomness (mlregress/seeds.h): derived from seed(), a different
  /// one per stream, so that seeding the weights, the data and the order each from its own
  /// stream keeps them independent. In a variant of Seeds(n).randomness_study() that holds the
  /// stream, it is derived from the test's first seed instead, the same for every seed.
  static std::uint64_t seed(SeedStream stream);
  /// The intra-op thread count fixed for this test.
  static int threads();
  /// The variant a seeded test runs under ("" when it declares none).
  static std::string variant();
  /// The method of Seeds(n).random_search(METHOD, ...) whose trial the variant is ("adam" for
  /// the variant "adam-3"); "" for a variant declared by hand and outside seeded tests.
  static std::string search_method();
  /// The determinism this test runs under: its own "determinism" parameter ({"determinism",
  /// "strict"}, changed by --set T.determinism=off) when it declares one, else `run
  /// --determinism` (default warn). The framework layer applies it before the body.
  static DeterminismMode determinism();

 protected:
  virtual void body() = 0;

 private:
  void TestBody() final { body(); }
};

namespace internal {
[[noreturn]] void throw_param_type_error(std::string_view key, const ParamValue& value,
                                         std::string_view asked);
}  // namespace internal

template <typename T>
T MlTest::param(std::string_view key) {
  const ParamValue& value = internal::resolved_param(key);
  if constexpr (std::is_same_v<T, bool>) {
    if (const bool* b = std::get_if<bool>(&value)) return *b;
    internal::throw_param_type_error(key, value, "bool");
  } else if constexpr (std::is_integral_v<T>) {
    if (const std::int64_t* i = std::get_if<std::int64_t>(&value)) {
      if (std::in_range<T>(*i)) return static_cast<T>(*i);
    }
    internal::throw_param_type_error(key, value, "an integer of the requested width");
  } else if constexpr (std::is_floating_point_v<T>) {
    if (const double* d = std::get_if<double>(&value)) return static_cast<T>(*d);
    if (const std::int64_t* i = std::get_if<std::int64_t>(&value)) return static_cast<T>(*i);
    internal::throw_param_type_error(key, value, "double");
  } else {
    static_assert(std::is_same_v<T, std::string>,
                  "param<T>: T must be bool, integer, double or std::string");
    if (const std::string* s = std::get_if<std::string>(&value)) return *s;
    internal::throw_param_type_error(key, value, "string");
  }
}

}  // namespace mlregress

#define MLREGRESS_TEST_CLASS_(tier, name) MlregressTest_##tier##_##name

// One definition behind the three macros: the test class, its registration (whose last argument
// says what kind of test it is) and the start of the body.
#define MLREGRESS_DEFINE_TEST_(tier, name, kind, ...)                                            \
  class MLREGRESS_TEST_CLASS_(tier, name) final : public ::mlregress::MlTest {                   \
    void body() override;                                                                        \
  };                                                                                             \
  [[maybe_unused]] static const bool mlregress_registered_##tier##_##name =                      \
      ::mlregress::internal::register_ml_test(                                                   \
          ::mlregress::Tier::tier, #name, __FILE__, __LINE__,                                    \
          ::mlregress::ParamSpecs{__VA_ARGS__},                                                  \
          []() -> ::mlregress::MlTest* { return new MLREGRESS_TEST_CLASS_(tier, name); }, kind); \
  void MLREGRESS_TEST_CLASS_(tier, name)::body()

/// Declares an ML test in a tier (Fast, Medium or Full) with optional parameters given as
/// {"name", default} pairs. The body follows as a block, as with TEST.
#define ML_TEST(tier, name, ...) \
  MLREGRESS_DEFINE_TEST_(tier, name, ::mlregress::internal::PlainTestTag{}, __VA_ARGS__)

/// Declares a seeded ML test: `seeds` is a Seeds(n) expression, optionally with .variants(...);
/// parameters follow as in ML_TEST. The body runs once per seed in worker processes
/// (`run --jobs N`) and its metrics are compared as distributions (see mlregress/seeds.h).
#define ML_SEED_TEST(tier, name, seeds, ...) \
  MLREGRESS_DEFINE_TEST_(tier, name, ::mlregress::seeds, __VA_ARGS__)

/// Declares a flaky-aware test: `attempts` is an Attempts(block) expression, optionally with
/// .up_to(cap) and .detect(rate); parameters follow as in ML_TEST. A failed attempt does not fail
/// the test; a failure rate significantly above the baseline's does (mlregress/attempts.h).
#define ML_FLAKY_TEST(tier, name, attempts, ...) \
  MLREGRESS_DEFINE_TEST_(tier, name, ::mlregress::attempts, __VA_ARGS__)

/// Declares a capability test: an ML_TEST whose targets (record_target) say what the model
/// should reach, reported MET or NOT MET without failing the run; ctest labels it `capability`.
#define ML_CAPABILITY_TEST(tier, name, ...) \
  MLREGRESS_DEFINE_TEST_(tier, name, ::mlregress::internal::CapabilityTestTag{}, __VA_ARGS__)

/// Declares a timing test: an ML_TEST whose metrics are timings (record_throughput). Apart from
/// running with the others, it is what `run --ab OTHER_BINARY` interleaves with another build.
#define ML_TIMING_TEST(tier, name, ...) \
  MLREGRESS_DEFINE_TEST_(tier, name, ::mlregress::internal::TimingTestTag{}, __VA_ARGS__)
