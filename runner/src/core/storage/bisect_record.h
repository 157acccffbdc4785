// <bisect folder>/bisect.json: what `bisect` found, for a person, for `report` and for scripts:
// the culprit (the first bad commit), the good and bad ends, the number of commits in the range,
// and every commit it tried, in the order it tried them, with the verdict there and the run
// folder it left. Written atomically when the bisect ends (also when it names no culprit, with
// the reason), so a reader never sees half a record.
//
//   {"schema_version": 1, "test": "Fast.Step", "metric": "loss", "repo": "/src/model",
//    "good": {"commit": "…", "subject": "…"}, "bad": {…}, "commits": 12,
//    "culprit": {"commit": "…", "subject": "…"},  // null when none could be named
//    "candidates": [],                              // only skipped commits left: these
//    "error": "",                                   // why no culprit was named
//    "builds": 7, "tried": [{"commit", "subject", "role", "answer", "verdict", "reason",
//                            "metric", "value", "baseline", "built", "run"}, …]}
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace mlregress::internal {

struct BisectCommit {
  std::string commit;  ///< the full id
  std::string subject;
};

/// One commit the bisect measured.
struct BisectTry {
  BisectCommit commit;
  std::string role;     ///< "good" (GOOD, the baseline), "bad" (BAD, checked to regress), "step"
  std::string answer;   ///< what git was told: "good", "bad" or "skip"
  std::string verdict;  ///< the metric's verdict against GOOD (PASS, REGRESSION, …); empty when
                        ///< there is none (GOOD itself, a failed build)
  std::string reason;   ///< why this answer, in words
  std::string metric;   ///< the metric shown; empty when none was measured
  std::optional<double> value, baseline;
  bool built = false;  ///< false: the outcome came from an earlier bisect of the range (cached)
  std::string run;     ///< the run folder, relative to the bisect folder; empty when none
};

struct BisectRecord {
  std::string test, metric, repo;
  BisectCommit good, bad;
  int commits = 0;  ///< N: the commits of the range, GOOD and BAD included
  std::optional<BisectCommit> culprit;
  std::vector<BisectCommit> candidates;  ///< no culprit, only skipped commits left: one of these
  std::string error;                     ///< no culprit: why
  std::vector<BisectTry> tried;          ///< in the order they were measured, GOOD and BAD too
  /// The builds this bisect ran: the tried commits that were not cached.
  int builds() const;
};

/// The record's JSON text (schema_version 1).
std::string bisect_record_text(const BisectRecord& record);
/// Writes `folder`/bisect.json atomically. Throws OutputError.
void write_bisect_record(const std::string& folder, const BisectRecord& record);
/// Reads `folder`/bisect.json. Throws RunFolderError naming the file and, for malformed JSON,
/// the line and column, or the field that is missing or wrong.
BisectRecord read_bisect_record(const std::string& folder);
/// Whether `folder` holds a bisect record.
bool is_bisect_folder(const std::string& folder);

}  // namespace mlregress::internal
