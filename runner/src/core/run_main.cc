#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <string>

#include "cli_options.h"
#include "list_command.h"
#include "mlregress/exit_code.h"
#include "mlregress/runner_hooks.h"
#include "output_error.h"
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
  return internal::run_command(cl.run, hooks, binary, gtest_filter);
}

}  // namespace

int run_main(int argc, char** argv, const RunnerHooks& hooks) {
  const std::string binary = argc > 0 ? base_name(argv[0]) : "mlregress";
  try {
    ::testing::InitGoogleTest(&argc, argv);  // removes the --gtest_* flags it knows
    return static_cast<int>(dispatch(argc, argv, hooks));
  } catch (const internal::ConfigError& error) {
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.what());
    return static_cast<int>(ExitCode::kUsageError);
  } catch (const internal::OutputError& error) {
    std::fprintf(stderr, "%s: error: %s\n", binary.c_str(), error.what());
    return static_cast<int>(ExitCode::kOutputError);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "%s: internal error: %s\n", binary.c_str(), error.what());
    return static_cast<int>(ExitCode::kInternalError);
  }
}

}  // namespace mlregress
