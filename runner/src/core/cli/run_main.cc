#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "commands/ab_command.h"
#include "commands/ablation_command.h"
#include "commands/baselines_adopt_command.h"
#include "commands/baselines_check_command.h"
#include "commands/bisect_command.h"
#include "commands/calibrate_command.h"
#include "commands/cli_options.h"
#include "commands/compare_command.h"
#include "commands/graduate_command.h"
#include "commands/history_command.h"
#include "commands/list_command.h"
#include "commands/merge_command.h"
#include "commands/notes_command.h"
#include "commands/promote_command.h"
#include "commands/report_command.h"
#include "commands/rerun_command.h"
#include "commands/run_command.h"
#include "mlregress/exit_code.h"
#include "mlregress/ml_test.h"
#include "mlregress/runner_hooks.h"
#include "registry/test_registry.h"
#include "support/errors.h"

namespace mlregress {
namespace {

std::string base_name(const char* path) {
  const char* slash = std::strrchr(path, '/');
  return slash != nullptr ? slash + 1 : path;
}

void register_with_googletest(const internal::TestRegistry& registry) {
  for (const internal::RegisteredTest& test : registry.tests()) {
    ::testing::RegisterTest(test.tier_token.c_str(), test.name.c_str(), nullptr, nullptr,
                            test.file.c_str(), test.line,
                            [factory = test.factory]() -> MlTest* { return factory(); });
  }
}

ExitCode dispatch(int argc, char** argv, const RunnerHooks& hooks) {
  const std::string binary = base_name(argv[0]);
  internal::TestRegistry& registry = internal::TestRegistry::instance();
  if (!registry.errors().empty()) {
    for (const std::string& error : registry.errors()) {
      std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.c_str());
    }
    return ExitCode::kUsageError;
  }
  register_with_googletest(registry);

  // GoogleTest's own listing keeps IDE test explorers and gtest_discover_tests working.
  if (GTEST_FLAG_GET(list_tests)) return static_cast<ExitCode>(RUN_ALL_TESTS());

  const internal::ParsedCommandLine parsed = internal::parse_command_line(argc, argv, binary);
  if (parsed.exit_now) return static_cast<ExitCode>(parsed.exit_code);
  const internal::CommandLine& cl = parsed.command_line;
  const std::string gtest_filter = GTEST_FLAG_GET(filter);

  switch (cl.command) {
    case internal::Command::kList:
      return internal::list_command(cl.list, binary, gtest_filter);
    case internal::Command::kPromote:
      return internal::promote_command(cl.promote);
    case internal::Command::kCalibrate:
      return internal::calibrate_command(cl.calibrate, binary, gtest_filter);
    case internal::Command::kCompare:
      return internal::compare_command(cl.compare);
    case internal::Command::kReport:
      return internal::report_command(cl.report);
    case internal::Command::kMerge:
      return internal::merge_command(cl.merge);
    case internal::Command::kNotes:
      return internal::notes_command(cl.notes);
    case internal::Command::kLedger:
      return internal::ledger_command(cl.ledger);
    case internal::Command::kHistory:
      return internal::history_command(cl.history);
    case internal::Command::kBisect:
      return internal::bisect_command(cl.bisect);
    case internal::Command::kRerun:
      return internal::rerun_command(cl.rerun, hooks, binary);
    case internal::Command::kGraduate:
      return internal::graduate_command(cl.graduate, binary);
    case internal::Command::kAblation:
      return internal::ablation_command(cl.ablation, binary);
    case internal::Command::kBaselinesCheck:
      return internal::baselines_check_command(cl.baselines_check, hooks, binary);
    case internal::Command::kBaselinesAdopt:
      return internal::baselines_adopt_command(cl.baselines_adopt);
    default:
      if (!cl.run.ab_binary.empty())
        return internal::ab_command(cl.run, hooks, binary, gtest_filter);
      return internal::run_command(cl.run, hooks, binary, gtest_filter);
  }
}

}  // namespace

int run_main(int argc, char** argv, const RunnerHooks& hooks) {
  const std::string binary = argc > 0 ? base_name(argv[0]) : "mlregress";
  try {
    // GoogleTest answers --help itself; keep it for our own help, which lists both.
    std::vector<char*> args;
    bool help = false;
    for (int i = 0; i < argc; ++i) {
      const bool is_help =
          i > 0 && (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0);
      help = help || is_help;
      if (!is_help) args.push_back(argv[i]);
    }
    int count = static_cast<int>(args.size());
    args.push_back(nullptr);  // GoogleTest shifts argv up to argv[argc], which must be nullptr
    ::testing::InitGoogleTest(&count, args.data());  // removes the --gtest_* flags it knows
    args.resize(static_cast<std::size_t>(count));
    static char help_flag[] = "--help";
    if (help) args.push_back(help_flag);
    const int remaining = static_cast<int>(args.size());
    args.push_back(nullptr);
    return static_cast<int>(dispatch(remaining, args.data(), hooks));
  } catch (const internal::Error& error) {
    // The user's mistakes carry their named exit code.
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.what());
    return static_cast<int>(error.exit_code());
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: internal error: %s\n", binary.c_str(), error.what());
    return static_cast<int>(ExitCode::kInternalError);
  }
}

}  // namespace mlregress
