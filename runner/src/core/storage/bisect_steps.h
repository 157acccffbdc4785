// The files a bisect keeps for its steps in its folder <out>/<good>..<bad>
// (commands/bisect_command.h), where the bisect and the step processes `git bisect run` starts
// pass what they know to each other:
//
//   settings.json               what every step needs (BisectState), written once by the bisect
//   commits/<sha>/outcome.json  what one commit gave (BisectOutcome): the cache that spares a
//                               second bisect over the same range every build
//   tried.jsonl                 one line per commit measured (its outcome and "built"), appended
//                               by whichever process measured it, so the record can list them in
//                               the order they were tried and count the builds exactly
//
// The record a bisect ends with, bisect.json, is storage/bisect_record.h.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mlregress::internal {

/// What a bisect needs at every step, kept in <folder>/settings.json for the step processes.
struct BisectState {
  std::string folder;  ///< <out>/<good>..<bad>, absolute (not written: the folder it is read from)
  std::string repo;    ///< absolute
  std::string build;
  std::string binary;  ///< absolute
  std::string test, metric;
  std::vector<std::string> run_args;
  std::string good, bad;  ///< full commit ids
};

/// What `git bisect run` is told about a commit; the values are the step's exit codes.
enum class BisectAnswer { kGood = 0, kBad = 1, kSkip = 125 };

/// "good", "bad" or "skip": the answer as the files, the record and the console spell it.
std::string_view bisect_answer_name(BisectAnswer answer);

/// What one commit gave.
struct BisectOutcome {
  std::string commit;
  BisectAnswer answer = BisectAnswer::kSkip;
  std::string reason;  ///< why (the verdict and its note, or what failed)
  std::string metric;  ///< the metric shown for this commit
  std::optional<double> value, baseline;
  std::string verdict;
  bool built = false;  ///< this step ran the build (false: from the cache); in tried.jsonl only
};

/// Writes `state.folder`/settings.json atomically. Throws OutputError.
void write_bisect_settings(const BisectState& state);
/// Reads `folder`/settings.json. Throws RunFolderError naming the file when it cannot be read,
/// is not valid JSON, or lacks a field.
BisectState read_bisect_settings(const std::string& folder);

/// Writes `commit_folder`/outcome.json atomically. Throws OutputError.
void write_outcome(const std::string& commit_folder, const BisectOutcome& outcome);
/// The cached outcome in `commit_folder`/outcome.json; nullopt when there is none or it is
/// damaged (the commit is measured again). `built` is false.
std::optional<BisectOutcome> read_outcome(const std::string& commit_folder);

/// Removes `folder`/tried.jsonl: an earlier bisect's order is not this one's.
void clear_tried(const std::string& folder);
/// Appends `outcome` as one line of `folder`/tried.jsonl. Throws OutputError.
void append_tried(const std::string& folder, const BisectOutcome& outcome);
/// Every line of `folder`/tried.jsonl, in order; none when there is no file. Throws BisectFailed
/// naming the file and the line that is not a measured commit.
std::vector<BisectOutcome> read_tried(const std::string& folder);

}  // namespace mlregress::internal
