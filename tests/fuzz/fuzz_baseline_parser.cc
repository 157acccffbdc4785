// libFuzzer target: the baseline TOML reader, and the writer's round trip.
//
// Every input is fed as text to parse_baseline(). Rejecting it with BaselineError is the only
// allowed failure; any other exception, a crash or a sanitizer report is a finding. When the
// input parses, render_baseline() must write text that parses again to an equal BaselineFile
// (promotion rewrites files through exactly this path, so a lossy round trip silently changes a
// reviewed baseline).
//
// NaN: a baseline may legitimately hold `value = nan` (the comparator answers INCONCLUSIVE for
// it). NaN != NaN, so operator== cannot confirm such a round trip; for those files the check is
// that rendering is a fixed point: render(parse(render(parsed))) == render(parsed). The sign of a
// NaN is not kept ("-nan" is written "nan"), which is fine: no verdict depends on it.
//
// Built by ci/fuzz.sh.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "baselines/baseline_toml.h"

namespace {

using mlregress::internal::BaselineError;
using mlregress::internal::BaselineFile;
using mlregress::internal::parse_baseline;
using mlregress::internal::render_baseline;

[[noreturn]] void finding(const char* what, const std::string& input, const std::string& detail) {
  std::fprintf(
      stderr,
      "\n=== fuzz_baseline_parser finding: %s\n--- input (%zu bytes):\n%s\n--- detail:\n%s\n", what,
      input.size(), input.c_str(), detail.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  BaselineFile parsed;
  try {
    parsed = parse_baseline(std::string_view(input), "fuzz.toml");
  } catch (const BaselineError&) {
    return 0;  // rejected, with a message: the expected way to fail
  }
  // Any other exception propagates out of this function; libFuzzer reports it as a crash
  // ("uncaught exception" -> std::terminate -> abort), which is what we want.

  const std::string rendered = render_baseline(parsed);
  BaselineFile reparsed;
  try {
    reparsed = parse_baseline(rendered, "rendered.toml");
  } catch (const BaselineError& error) {
    finding("render_baseline wrote a file parse_baseline rejects", input,
            std::string(error.what()) + "\n--- rendered:\n" + rendered);
  }
  if (reparsed == parsed) return 0;

  // Unequal. Either a real loss, or NaN values (NaN != NaN): if the parsed file is not even equal
  // to itself it holds a NaN, and then rendering must at least be a fixed point.
  const bool holds_nan = !(parsed == parsed);
  if (!holds_nan) {
    finding("round trip changed the baseline (parse(render(x)) != x)", input,
            "--- rendered:\n" + rendered + "\n--- rendered again:\n" + render_baseline(reparsed));
  }
  const std::string rendered_again = render_baseline(reparsed);
  if (rendered_again != rendered) {
    finding("round trip of a file holding NaN is not a fixed point", input,
            "--- rendered:\n" + rendered + "\n--- rendered again:\n" + rendered_again);
  }
  return 0;
}
