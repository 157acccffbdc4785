#include "commands/bisect_command.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <sstream>

#include "baselines/promotion.h"
#include "commands/bisect_git.h"
#include "renderers/bisect_report.h"
#include "storage/bisect_record.h"
#include "storage/bisect_steps.h"
#include "storage/run_record.h"
#include "support/atomic_file.h"
#include "support/child_process.h"
#include "support/errors.h"
#include "support/number_format.h"

namespace mlregress::internal {
namespace {

namespace fs = std::filesystem;

// git bisect run's answers: kGood, kBad and kSkip.
using enum BisectAnswer;
constexpr int kAbortBisect = 128;  // any code above 127 stops `git bisect run`

// Single quotes for sh: 'it'\''s'.
std::string shell_quoted(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A folder of the bisect's own; one that cannot be made is an output error, not a bug of ours.
void create_folder(const std::string& path) {
  std::error_code error;
  fs::create_directories(path, error);
  if (error)
    throw OutputError(fmt::format("bisect: cannot create '{}': {}", path, error.message()));
}

// The answer for git from the test's result: its verdicts against GOOD (or, for GOOD itself,
// whether it passed at all).
void judge(const TestResult& test, const BisectState& state, bool against_good, BisectOutcome& o) {
  if (is_test_failure(test.status)) {
    o.answer = kSkip;
    o.reason = fmt::format("the test {}", test_status_name(test.status));
    return;
  }
  if (test.status == TestStatus::kSkipped) {
    o.answer = kSkip;
    o.reason = "the test skipped itself";
    return;
  }
  if (!against_good) {
    o.answer = kGood;
    o.reason = "measured as the baseline";
    for (const MetricRecord& m : test.metrics) {
      if (state.metric.empty() || m.name == state.metric) {
        o.metric = m.name;
        o.value = m.value;
        break;
      }
    }
    if (!state.metric.empty() && o.metric.empty()) {
      o.answer = kSkip;
      o.reason = fmt::format("the test records no metric '{}'", state.metric);
    }
    return;
  }
  const MetricComparison* shown = nullptr;
  bool regression = false, undecided = false, found = false;
  for (const MetricComparison& c : test.comparisons) {
    if (!state.metric.empty() && c.metric != state.metric) continue;
    found = true;
    if (c.verdict == Verdict::kRegression) {
      if (!regression) shown = &c;
      regression = true;
    } else if (c.verdict != Verdict::kPass && c.verdict != Verdict::kImproved) {
      if (!regression && !undecided) shown = &c;
      undecided = true;
    } else if (shown == nullptr) {
      shown = &c;
    }
  }
  if (!found) {
    o.answer = kSkip;
    o.reason = state.metric.empty() ? "the test recorded no metric"
                                    : fmt::format("the test records no metric '{}'", state.metric);
    return;
  }
  o.metric = shown->metric;
  o.value = shown->observed;
  o.baseline = shown->baseline;
  o.verdict = std::string(verdict_name(shown->verdict));
  o.reason = shown->note.empty() ? o.verdict : o.verdict + ": " + shown->note;
  // A regression anywhere decides; an undecided metric beside passing ones says nothing.
  o.answer = regression ? kBad : undecided ? kSkip : kGood;
}

// Builds the checked-out commit, runs the test and judges it; cached per commit.
BisectOutcome measure_head(const BisectState& state, bool against_good) {
  const auto head = git(state.repo, {"rev-parse", "HEAD"});
  if (!head) throw BisectFailed("git rev-parse HEAD failed in " + state.repo);
  const std::string dir = state.folder + "/commits/" + *head;
  if (std::optional<BisectOutcome> cached = read_outcome(dir)) return *cached;
  create_folder(dir);
  BisectOutcome o;
  o.commit = *head;
  o.built = true;
  const ChildExit build =
      run_child_process({"/bin/sh", "-c", "cd " + shell_quoted(state.repo) + " && " + state.build},
                        dir + "/build.log");
  if (build.exit_code != 0) {
    o.reason = fmt::format("the build failed ({}; {}/build.log)", build.describe(), dir);
  } else if (const std::string why = why_not_executable(state.binary); !why.empty()) {
    o.reason = fmt::format("the build made no test binary: {}", why);
  } else {
    std::vector<std::string> argv = {state.binary,  "run",    "--filter", state.test, "--out",
                                     dir + "/runs", "--repo", state.repo, "--color",  "never"};
    if (against_good) argv.insert(argv.end(), {"--baselines", state.folder + "/baselines"});
    argv.insert(argv.end(), state.run_args.begin(), state.run_args.end());
    ChildExit run;
    try {
      run = run_child_process(argv, dir + "/run.log");
    } catch (const Error&) {
      throw;                                     // a log that cannot be written, a stop signal
    } catch (const std::runtime_error& error) {  // exec refused it: a commit without a binary
      o.reason = fmt::format("the test binary cannot be started: {}", error.what());
      write_outcome(dir, o);
      return o;
    }
    try {
      const RunRecord record = read_run_record(dir + "/runs/latest");
      const TestResult* test = nullptr;
      for (const TestResult& t : record.run.tests) {
        if (t.name == state.test || t.full_name == state.test) test = &t;
      }
      if (test == nullptr) {
        o.reason = fmt::format("no test {} at this commit ({})", state.test, run.describe());
      } else {
        judge(*test, state, against_good, o);
      }
    } catch (const Error& error) {
      o.reason = fmt::format("the run left no readable results ({}; {}/run.log): {}",
                             run.describe(), dir, error.what());
    }
  }
  write_outcome(dir, o);
  return o;
}

std::vector<std::string> split_words(const std::string& text) {
  std::vector<std::string> words;
  std::istringstream in(text);
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

std::string absolute(const std::string& path) {
  return fs::absolute(path).lexically_normal().string();
}

std::string line_for(const BisectOutcome& o) {
  const std::string_view answer = bisect_answer_name(o.answer);
  std::string values = "-";
  if (o.value) {
    values = format_value(*o.value);
    if (o.baseline) values += " (GOOD " + format_value(*o.baseline) + ")";
  }
  return fmt::format("{:<5} {:<28} {}", answer, values, o.reason);
}

// A few words of why a commit was skipped, for the table ("the build failed", "the test crashed").
std::string short_reason(const BisectOutcome& o) {
  std::string text = o.reason.substr(0, o.reason.find(" ("));
  if (text.starts_with("the ")) text = text.substr(4);
  return text.size() > 16 ? text.substr(0, 15) + "~" : text;
}

// One `git bisect run` step. Its exit code is git's answer, so a step that cannot measure the
// commit (an error of ours or of the environment) must not answer "bad": it exits 128, which
// makes git stop the bisect, and bisect_command reports git-bisect.log.
ExitCode bisect_step(const BisectOptions& options) {
  try {
    const BisectState state = read_bisect_settings(options.step);
    const BisectOutcome o = measure_head(state, /*against_good=*/true);
    append_tried(state.folder, o);
    std::printf("mlregress bisect: %s %s\n", o.commit.substr(0, 12).c_str(), line_for(o).c_str());
    return static_cast<ExitCode>(o.answer);
  } catch (const std::exception& error) {
    std::printf("mlregress bisect: the step failed, stopping the bisect: %s\n", error.what());
    return static_cast<ExitCode>(kAbortBisect);
  }
}

// The bisect's state from the command line: the repository, GOOD and BAD as commit ids, the
// binary, and the folder <out>/<good>..<bad> with settings.json for the steps.
BisectState prepare_bisect(const BisectOptions& options) {
  for (const auto& [value, name] :
       {std::pair{&options.good, "GOOD"}, std::pair{&options.bad, "BAD"},
        std::pair{&options.test, "--test"}, std::pair{&options.build, "--build"}}) {
    if (value->empty()) throw ConfigError(fmt::format("bisect needs {}", name));
  }
  BisectState state;
  const auto top = git(options.repo.empty() ? "." : options.repo, {"rev-parse", "--show-toplevel"});
  if (!top) {
    throw ConfigError(fmt::format("bisect: {} is not in a git work tree",
                                  options.repo.empty() ? "the current directory" : options.repo));
  }
  state.repo = *top;
  check_repository(state.repo);
  state.good = commit_id(state.repo, options.good);
  state.bad = commit_id(state.repo, options.bad);
  if (state.good == state.bad) throw ConfigError("bisect: GOOD and BAD are the same commit");
  if (!git(state.repo, {"merge-base", "--is-ancestor", state.good, state.bad})) {
    throw ConfigError(fmt::format("bisect: GOOD {} is not an ancestor of BAD {}",
                                  state.good.substr(0, 12), state.bad.substr(0, 12)));
  }
  std::error_code error;
  state.binary = options.binary.empty() ? fs::read_symlink("/proc/self/exe", error).string()
                                        : absolute(options.binary);
  state.build = options.build;
  state.test = options.test;
  state.metric = options.metric;
  state.run_args = split_words(options.run_args);
  state.folder =
      absolute(options.out + "/" + state.good.substr(0, 12) + ".." + state.bad.substr(0, 12));
  create_folder(state.folder);
  write_bisect_settings(state);
  clear_tried(state.folder);  // an earlier bisect's order is not this one's
  return state;
}

// The step script runs a copy of this binary: the build may replace the binary itself.
void write_step_script(const BisectState& state) {
  const std::string driver = state.folder + "/mlregress-bisect";
  std::error_code error;
  fs::copy_file("/proc/self/exe", driver, fs::copy_options::overwrite_existing, error);
  if (!error) {
    fs::permissions(driver, fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec,
                    error);
  }
  if (error)
    throw OutputError(fmt::format("bisect: cannot write '{}': {}", driver, error.message()));
  const std::string script = state.folder + "/step.sh";
  write_file_atomically(
      script, "#!/bin/sh\n# One `git bisect run` step of mlregress bisect.\nexec " +
                  shell_quoted(driver) + " bisect --step " + shell_quoted(state.folder) + "\n");
  fs::permissions(script, fs::perms::owner_all, error);
  if (error)
    throw OutputError(fmt::format("bisect: cannot write '{}': {}", script, error.message()));
}

// Checks out `commit`, measures it (or reads its cached outcome) and logs it in tried.jsonl.
BisectOutcome measure(const BisectState& state, const std::string& commit, bool against_good) {
  if (!git(state.repo, {"checkout", "--quiet", "--detach", commit})) {
    throw ConfigError(fmt::format("bisect: git checkout {} failed in {}", commit, state.repo));
  }
  BisectOutcome o = measure_head(state, against_good);
  append_tried(state.folder, o);
  std::printf("mlregress bisect: %s %s\n", commit.substr(0, 12).c_str(), line_for(o).c_str());
  std::fflush(stdout);
  return o;
}

// GOOD first: its result, promoted into the bisect's folder, is the baseline every other commit
// is judged against. Then BAD, which must be a regression against it.
BisectOutcome measure_the_ends(const BisectState& state) {
  const BisectOutcome good = measure(state, state.good, /*against_good=*/false);
  if (good.answer != kGood)
    throw BisectFailed(fmt::format("GOOD {} cannot be measured: {}", state.good, good.reason));
  const RunRecord good_run =
      read_run_record(state.folder + "/commits/" + state.good + "/runs/latest");
  promote_run(good_run, {.baselines_dir = state.folder + "/baselines",
                         .reason = "bisect: GOOD " + state.good,
                         .force = true,
                         .now = good_run.run.info.started_at});

  const BisectOutcome bad = measure(state, state.bad, /*against_good=*/true);
  if (bad.answer != kBad) {
    throw BisectFailed(fmt::format("BAD {} is no regression against GOOD on {}: {}", state.bad,
                                   state.test, bad.reason));
  }
  return good;
}

// The commits between GOOD and BAD by `git bisect run` and the step script: the first bad one,
// or the candidates when only skipped commits remain.
std::vector<std::string> run_git_bisect(const BisectState& state, RepositoryRestorer& restorer) {
  const auto between = git(state.repo, {"rev-list", "--count", state.good + ".." + state.bad});
  if (between && *between == "1") return {state.bad};  // BAD is GOOD's child: nothing in between
  restorer.bisecting();
  if (!git(state.repo, {"bisect", "start", state.bad, state.good})) {
    throw ConfigError("bisect: git bisect start failed in " + state.repo);
  }
  const ChildExit run =
      run_child_process({"/bin/sh", "-c",
                         "cd " + shell_quoted(state.repo) + " && git bisect run " +
                             shell_quoted(state.folder + "/step.sh")},
                        state.folder + "/git-bisect.log");
  std::ifstream in(state.folder + "/git-bisect.log");
  const std::string log{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::string> first_bad = first_bad_commits(log);
  if (run.exit_code != 0 && first_bad.empty()) {
    throw BisectFailed(fmt::format("git bisect run failed ({}):\n{}", run.describe(), log));
  }
  return first_bad;
}

// The commits of the range with what was measured where it was.
void print_range(const BisectState& state, const std::vector<BisectOutcome>& tried,
                 const std::vector<std::string>& range, const std::vector<std::string>& first_bad) {
  std::map<std::string, const BisectOutcome*> measured;
  for (const BisectOutcome& o : tried) measured[o.commit] = &o;
  const auto good = measured.find(state.good);
  const std::string metric_title = !state.metric.empty() ? state.metric
                                   : good != measured.end() && !good->second->metric.empty()
                                       ? good->second->metric
                                       : "value";
  std::printf("\n%-12s  %-6s %-12s %-16s %s\n", "commit", "answer", metric_title.c_str(), "verdict",
              "subject");
  for (const std::string& commit : range) {
    const auto it = measured.find(commit);
    const bool is_first_bad = first_bad.size() == 1 && first_bad[0] == commit;
    std::string answer = "-", value = "-", label = "not tested";
    if (it != measured.end()) {
      const BisectOutcome& o = *it->second;
      answer = bisect_answer_name(o.answer);
      if (o.value) value = format_value(*o.value);
      label = !o.verdict.empty() ? o.verdict : o.answer == kGood ? "baseline" : short_reason(o);
    }
    std::printf("%-12s  %-6s %-12s %-16s %s%s\n", commit.substr(0, 12).c_str(), answer.c_str(),
                value.c_str(), label.c_str(), commit_subject(state.repo, commit).c_str(),
                is_first_bad ? "   <- first bad commit" : "");
  }
}

// The run folder a commit's measurement left, relative to the bisect folder; "" when none.
std::string run_folder_of(const BisectState& state, const std::string& commit) {
  const std::string runs = "commits/" + commit + "/runs";
  std::error_code error;
  const fs::path target = fs::read_symlink(state.folder + "/" + runs + "/latest", error);
  if (error) return "";
  const std::string run = runs + "/" + target.filename().string();
  return fs::is_directory(state.folder + "/" + run, error) ? run : "";
}

// The record of what this bisect tried; the caller adds the culprit or why there is none.
BisectRecord make_record(const BisectState& state, const std::vector<BisectOutcome>& tried,
                         std::size_t commits) {
  BisectRecord r;
  r.test = state.test;
  r.metric = state.metric;
  r.repo = state.repo;
  r.good = {state.good, commit_subject(state.repo, state.good)};
  r.bad = {state.bad, commit_subject(state.repo, state.bad)};
  r.commits = static_cast<int>(commits);
  for (const BisectOutcome& o : tried) {
    r.tried.push_back(BisectTry{
        .commit = {o.commit, commit_subject(state.repo, o.commit)},
        .role = o.commit == state.good  ? "good"
                : o.commit == state.bad ? "bad"
                                        : "step",
        .answer = std::string(bisect_answer_name(o.answer)),
        .verdict = o.verdict,
        .reason = o.reason,
        .metric = o.metric,
        .value = o.value,
        .baseline = o.baseline,
        .built = o.built,
        .run = run_folder_of(state, o.commit),
    });
  }
  return r;
}

// bisect.json and its page, report.html, in the bisect's folder.
void write_record(const BisectState& state, const BisectRecord& record) {
  write_bisect_record(state.folder, record);
  write_file_atomically(state.folder + "/report.html",
                        render_bisect_html_report(record, state.folder, ""));
}

// The culprit, or why none can be named: only skipped commits are left (the candidates).
void name_culprit(const BisectState& state, const std::vector<std::string>& first_bad,
                  BisectRecord& record) {
  if (first_bad.size() == 1) {
    record.culprit = BisectCommit{first_bad[0], commit_subject(state.repo, first_bad[0])};
    return;
  }
  std::string candidates;
  for (const std::string& c : first_bad) {
    record.candidates.push_back({c, commit_subject(state.repo, c)});
    candidates += "\n  " + c + " " + record.candidates.back().subject;
  }
  record.error = fmt::format(
      "only skipped commits are left between the last good and the first bad one; the first "
      "bad commit is one of:{}",
      candidates.empty() ? std::string(" (git bisect named none; see git-bisect.log)")
                         : candidates);
}

// The record and its page, then the starting commit built again so that the build folder
// matches it.
void finish_bisect(const BisectOptions& options, const BisectState& state,
                   const BisectRecord& record, const std::string& start) {
  write_record(state, record);
  const int builds = record.builds();
  std::printf("\n%d build%s for %d commits", builds, builds == 1 ? "" : "s", record.commits);
  if (!options.no_rebuild) {
    const ChildExit rebuild = run_child_process(
        {"/bin/sh", "-c", "cd " + shell_quoted(state.repo) + " && " + state.build},
        state.folder + "/rebuild.log");
    std::printf(" (+1 to rebuild %s%s)", start.c_str(),
                rebuild.exit_code == 0 ? "" : ", which failed: see rebuild.log");
  }
  std::printf("\nbisect record: %s/bisect.json, its page: %s/report.html\n", state.folder.c_str(),
              state.folder.c_str());
}

}  // namespace

ExitCode bisect_command(const BisectOptions& options) {
  if (!options.step.empty()) return bisect_step(options);
  const BisectState state = prepare_bisect(options);
  write_step_script(state);
  const std::string start = starting_point(state.repo);
  RepositoryRestorer restorer(state.repo, start);
  std::printf("mlregress bisect: %s in %s, GOOD %s, BAD %s (%s)\n", state.test.c_str(),
              state.repo.c_str(), state.good.substr(0, 12).c_str(), state.bad.substr(0, 12).c_str(),
              state.folder.c_str());
  const std::vector<std::string> range = range_commits(state.repo, state.good, state.bad);
  std::vector<std::string> first_bad;
  try {
    measure_the_ends(state);
    first_bad = run_git_bisect(state, restorer);
  } catch (const BisectFailed& failure) {
    // The record says why, with the commits tried so far.
    restorer.restore();
    BisectRecord record = make_record(state, read_tried(state.folder), range.size());
    record.error = failure.what();
    write_record(state, record);
    throw;
  }
  restorer.restore();
  const std::vector<BisectOutcome> tried = read_tried(state.folder);
  print_range(state, tried, range, first_bad);
  BisectRecord record = make_record(state, tried, range.size());
  name_culprit(state, first_bad, record);
  finish_bisect(options, state, record, start);
  if (!record.culprit) throw BisectFailed(record.error);
  std::printf("first bad commit: %s %s\n", record.culprit->commit.c_str(),
              record.culprit->subject.c_str());
  return ExitCode::kPassed;
}

}  // namespace mlregress::internal
