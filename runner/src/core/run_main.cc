#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include "ab_command.h"
#include "cli_options.h"
#include "list_command.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"
#include "ablation_table.h"
#include "baseline_toml.h"
#include "output_error.h"
#include "baselines_check_command.h"
#include "compare_command.h"
#include "promote_command.h"
#include "promotion.h"
#include "run_record.h"
#include "param_overrides.h"
#include "run_command.h"
#include "test_registry.h"
#include "test_selection.h"

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

  if (cl.command == internal::Command::kList) {
    const auto tests = internal::select_tests(registry, cl.list.tiers, cl.list.filter, gtest_filter);
    const std::string text = cl.list.format == "json" ? internal::render_list_json(tests, binary)
                                                      : internal::render_list_text(tests);
    std::fputs(text.c_str(), stdout);
    return ExitCode::kPassed;
  }
  switch (cl.command) {
    case internal::Command::kPromote: return internal::promote_command(cl.promote);
    case internal::Command::kCompare: return internal::compare_command(cl.compare);
    case internal::Command::kAblation: {
      const std::string ledger = cl.ablation.run + "/seeds.jsonl";
      const std::string table = internal::render_ablation_tables(internal::read_seed_ledger(ledger), cl.ablation.test);
      if (table.empty()) {
        std::fprintf(stderr, "%s: error: %s has no seeded test with variants%s\n", binary.c_str(), ledger.c_str(),
                     cl.ablation.test.empty() ? "" : (" named " + cl.ablation.test).c_str());
        return ExitCode::kNoTestsMatched;
      }
      std::fputs(table.c_str(), stdout);
      return ExitCode::kPassed;
    }
    case internal::Command::kBaselinesCheck:
      return internal::baselines_check_command(cl.baselines_check, hooks, binary);
    default:
      if (!cl.run.ab_binary.empty()) return internal::ab_command(cl.run, hooks, binary, gtest_filter);
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
      const bool is_help = i > 0 && (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0);
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
  } catch (const std::exception& error) {
    // The user's mistakes map to their named exit codes; anything else is a bug of ours.
    const auto report = [&](const char* kind, ExitCode code) {
      std::fprintf(stderr, "%s: %s: %s\n", binary.c_str(), kind, error.what());
      return static_cast<int>(code);
    };
    if (dynamic_cast<const internal::ConfigError*>(&error)) return report("error", ExitCode::kUsageError);
    if (dynamic_cast<const internal::BaselineError*>(&error)) return report("error", ExitCode::kBaselineError);
    if (dynamic_cast<const internal::RunFolderError*>(&error)) return report("error", ExitCode::kRunFolderError);
    if (dynamic_cast<const internal::PromotionRefused*>(&error)) {
      return report("error", ExitCode::kPromotionRefused);
    }
    if (dynamic_cast<const internal::OutputError*>(&error)) return report("error", ExitCode::kOutputError);
    return report("internal error", ExitCode::kInternalError);
  }
}

}  // namespace mlregress
