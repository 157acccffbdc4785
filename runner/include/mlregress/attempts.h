// How a flaky-aware test (ML_FLAKY_TEST) repeats, and the failure rate its gate must catch.
//
//   ML_FLAKY_TEST(Medium, LoaderSurvivesWorkerRestarts, Attempts(4).up_to(200)) { ... }
//
// The body runs as attempts, each in its own worker process with the run's --threads (`run
// --jobs N` runs up to N attempts of a block at once), attempt k with seed S + k (S is `run
// --seed`), so a failure that depends on the seed is sampled as well as one that does not; each
// attempt has the test's timeout. A failed attempt does not fail the test: the failure rate
// does. After every `block` attempts the gate looks at the failures so far against the rate its
// baseline holds, with a sequential test whose error rates are computed exactly
// (runner/docs/flaky-tests.md): REGRESSION when the rate is significantly higher, PASS when the
// outcomes rule out a rise to `detect`, and the next block while undecided, at most `cap`
// attempts (INCONCLUSIVE there). Without a baseline every attempt runs, so that one promotion
// stores the rate from all of them. The metrics the body records are those of the first attempt
// (seed S), gated as in ML_TEST.
#pragma once

namespace mlregress {

class Attempts {
 public:
  /// The attempts run between two looks of the gate (at least 1).
  explicit Attempts(int block) : block_(block), cap_(block) {}

  /// Runs blocks while the gate is undecided, at most `cap` attempts in all.
  Attempts& up_to(int cap) {
    cap_ = cap;
    return *this;
  }

  /// The failure rate the gate must catch with 90% power (default 0.2); in (0, 1).
  Attempts& detect(double rate) {
    detect_ = rate;
    return *this;
  }

  int block() const { return block_; }
  int cap() const { return cap_; }
  double detect_rate() const { return detect_; }

 private:
  int block_ = 0;
  int cap_ = 0;
  double detect_ = 0.2;
};

}  // namespace mlregress
