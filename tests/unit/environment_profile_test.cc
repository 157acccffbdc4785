// The environment profile: which facts make two runs' exact values comparable. Planted: the GPU
// model left out of the profile (an H100 baseline would then gate an A100 run), or a CPU run's
// id changed by the GPU field it does not have (every committed baseline would turn
// NOT_COMPARABLE).
#include "environment/environment_profile.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "baselines/baseline_store.h"
#include "baselines/baseline_toml.h"
#include "comparison/baseline_gate.h"
#include "environment/cpu_isa.h"
#include "record/json_text.h"
#include "support/fnv1a.h"

namespace mlregress::internal {
namespace {

nlohmann::json cpu_environment() {
  return {{"framework", {{"name", "libtorch"}, {"version", "1.13.1"}, {"build", "cpu"}}},
          {"cpu", {{"model", "Some CPU @ 2.0GHz"}}},
          {"os", {{"machine", "x86_64"}}},
          {"run", {{"intra_op_threads", 1}}}};
}

nlohmann::json gpu_environment(const std::string& gpu) {
  nlohmann::json env = cpu_environment();
  env["framework"]["version"] = "2.5.1";
  env["framework"]["build"] = "cuda";
  env["framework"]["cuda"] = {{"devices", {{{"index", 0}, {"name", gpu}}}}};
  return env;
}

TEST(EnvironmentProfileTest, ACpuRunKeepsTheIdItHadBeforeGpusWereRecorded) {
  const EnvironmentProfile cpu = environment_profile(cpu_environment());
  EXPECT_EQ(cpu.gpu, "");
  // The id of this environment as every earlier version computed it (fnv1a of the five fields).
  const nlohmann::json five{"libtorch 1.13.1", "cpu", "Some CPU @ 2.0GHz", "x86_64", 1};
  EXPECT_EQ(cpu.id, fmt::format("cpu-{:08x}", fnv1a_64(json_text(five)) >> 32));
  nlohmann::json no_devices = cpu_environment();
  no_devices["framework"]["cuda"] = {{"built_with", false}, {"available", false}};
  EXPECT_EQ(environment_profile(no_devices).id, cpu.id);
  EXPECT_THAT(describe_environment_change(cpu, cpu), ::testing::Not(::testing::HasSubstr("GPU")));
}

TEST(EnvironmentProfileTest, TheGpuModelIsPartOfTheProfile) {
  const EnvironmentProfile h100 = environment_profile(gpu_environment("NVIDIA H100 80GB HBM3"));
  const EnvironmentProfile a100 = environment_profile(gpu_environment("NVIDIA A100-SXM4-40GB"));
  EXPECT_EQ(h100.gpu, "NVIDIA H100 80GB HBM3");
  EXPECT_NE(h100.id, a100.id);
  EXPECT_EQ(h100.id.rfind("cuda-", 0), 0u) << h100.id;
  EXPECT_EQ(environment_profile(gpu_environment("NVIDIA H100 80GB HBM3")).id, h100.id);
  EXPECT_THAT(describe_environment_change(h100, a100),
              ::testing::HasSubstr("GPU changed (NVIDIA H100 80GB HBM3 → NVIDIA A100-SXM4-40GB)"));
  EXPECT_THAT(describe_environment_change(h100, h100), ::testing::HasSubstr("GPU same"));
}

// The cause classifier splits a difference into the fields that choose the kernels and those of
// the machine around them, from one list: each field that differs lands in exactly one group.
// Planted: a field compared in neither group (a new field falling through the split) or in both.
TEST(EnvironmentProfileTest, EveryFieldThatDiffersLandsInExactlyOneGroup) {
  EnvironmentProfile base;
  base.framework = "libtorch 2.13.0";
  base.build = "cpu";
  base.cpu = "Some CPU";
  base.machine = "x86_64";
  base.threads = 1;
  base.gpu = "";
  base.capability = "AVX512";
  base.isa = "GenuineIntel avx avx2";
  base.pins = "";
  using enum ProfileFieldGroup;
  const std::vector<std::tuple<std::string, ProfileFieldGroup, void (*)(EnvironmentProfile&)>>
      fields = {
          {"framework", kKernels, [](EnvironmentProfile& p) { p.framework = "libtorch 1.13.1"; }},
          {"build", kKernels, [](EnvironmentProfile& p) { p.build = "cuda"; }},
          {"CPU", kMachine, [](EnvironmentProfile& p) { p.cpu = "Another CPU"; }},
          {"machine", kMachine, [](EnvironmentProfile& p) { p.machine = "aarch64"; }},
          {"threads", kMachine, [](EnvironmentProfile& p) { p.threads = 2; }},
          {"GPU", kKernels, [](EnvironmentProfile& p) { p.gpu = "NVIDIA H100"; }},
          {"capability", kKernels, [](EnvironmentProfile& p) { p.capability = "AVX2"; }},
          {"instruction sets", kKernels,
           [](EnvironmentProfile& p) { p.isa = "GenuineIntel avx avx2 avx512f"; }},
          {"kernel pins", kKernels, [](EnvironmentProfile& p) { p.pins = "MKL_CBWR=COMPATIBLE"; }},
      };
  for (const auto& [field, group, change] : fields) {
    EnvironmentProfile now = base;
    change(now);
    const std::vector<ProfileFieldDifference> differences = profile_field_differences(base, now);
    ASSERT_EQ(differences.size(), 1u) << field;
    EXPECT_EQ(differences[0].group, group) << field;
    EXPECT_THAT(differences[0].text, ::testing::StartsWith(field)) << field;
    const ProfileFieldGroup other = group == kKernels ? kMachine : kKernels;
    EXPECT_EQ(profile_differences(base, now, group), differences[0].text) << field;
    EXPECT_EQ(profile_differences(base, now, other), "") << field;
  }
}

// Two profile ids a character apart (threads 1 and 2) say nothing to a reader: the note of a value
// bound to another profile names the fields that differ. Planted: an unchanged field listed, or
// the difference left out of the NOT_COMPARABLE note.
TEST(EnvironmentProfileTest, ADifferenceIsShownAsTheFieldsThatDiffer) {
  const EnvironmentProfile one_thread = environment_profile(cpu_environment());
  nlohmann::json other = cpu_environment();
  other["run"]["intra_op_threads"] = 2;
  other["cpu"]["model"] = "Another CPU";
  const EnvironmentProfile two_threads = environment_profile(other);
  EXPECT_EQ(profile_differences(one_thread, one_thread), "");
  EXPECT_EQ(profile_differences(one_thread, two_threads),
            "CPU 'Some CPU @ 2.0GHz' → 'Another CPU'; threads 1 → 2");

  BaselineFile file;
  file.provenance.environment = one_thread.id;
  file.environments[one_thread.id] = one_thread;
  BaselineMetric& steps = file.tests["Clipping"].metrics["first_bad_step"];
  steps.direction = MustEqual;
  steps.policy = Exact{};
  steps.by_environment[one_thread.id] = 17;
  const BaselineSet baselines = BaselineSet::from_files({{"clipping_test.toml", file}});
  TestResult test;
  test.name = "Clipping";
  test.full_name = "Fast.Clipping";
  test.metrics.push_back({"first_bad_step", 17, MustEqual, Exact{}});
  BaselineGate(baselines, two_threads, 0.01).compare_test(test);
  ASSERT_EQ(test.comparisons.size(), 1u);
  EXPECT_EQ(test.comparisons[0].verdict, Verdict::kUngated);
  EXPECT_THAT(test.comparisons[0].note,
              ::testing::HasSubstr(fmt::format("{}: CPU 'Some CPU @ 2.0GHz' → 'Another CPU'; "
                                               "threads 1 → 2",
                                               one_thread.id)));
}

nlohmann::json with_capability(nlohmann::json environment, const std::string& capability) {
  environment["framework"]["build_config"] =
      "PyTorch built with:\n  - CPU capability usage: " + capability + "\n  - CUDA Runtime 12.1\n";
  environment["cpu"]["vendor"] = "GenuineIntel";
  environment["cpu"]["isa"] = {"avx", "avx2", "fma", "avx512f"};
  return environment;
}

// numerics values are keyed by what changes floating-point results, not by the CPU's name: two
// CPUs with the same ATen capability share the numerics id. Planted: the CPU model hashed into
// the numerics id (every new runner ungated), the capability left out (an AVX2 value gating an
// AVX512 run), or the machine id changed by the capability (every stored timing ungated).
TEST(EnvironmentProfileTest, TheNumericsIdIgnoresTheCpuNameButNotTheCapability) {
  const EnvironmentProfile here = environment_profile(with_capability(cpu_environment(), "AVX512"));
  nlohmann::json other_cpu = with_capability(cpu_environment(), "AVX512");
  other_cpu["cpu"]["model"] = "Another CPU";
  const EnvironmentProfile there = environment_profile(other_cpu);
  EXPECT_EQ(here.capability, "AVX512");
  EXPECT_EQ(here.numerics_id, there.numerics_id);
  EXPECT_NE(here.id, there.id);
  EXPECT_EQ(here.numerics_id.rfind("cpu-avx512-", 0), 0u) << here.numerics_id;
  EXPECT_EQ(here.id, environment_profile(cpu_environment()).id);

  const EnvironmentProfile avx2 = environment_profile(with_capability(cpu_environment(), "AVX2"));
  EXPECT_NE(avx2.numerics_id, here.numerics_id);
  EXPECT_EQ(profile_differences(numerics_profile(here), avx2), "capability 'AVX512' → 'AVX2'");
  nlohmann::json stated = with_capability(cpu_environment(), "AVX2");
  stated["framework"].erase("build_config");
  stated["framework"]["cpu_capability"] = "AVX2";
  EXPECT_EQ(environment_profile(stated).numerics_id, avx2.numerics_id);
  // Without the capability (or the instruction sets) only the machine says which kernels ran.
  EXPECT_EQ(environment_profile(cpu_environment()).numerics_id,
            environment_profile(cpu_environment()).id);
  nlohmann::json no_isa = with_capability(cpu_environment(), "AVX2");
  no_isa["cpu"].erase("isa");
  EXPECT_EQ(environment_profile(no_isa).numerics_id, environment_profile(no_isa).id);
  EXPECT_EQ(numerics_profile(here).cpu, "");
  EXPECT_EQ(numerics_profile(here).id, here.numerics_id);
}

// oneDNN and MKL choose kernels by the CPU's vendor and extensions, whatever ATen's capability:
// another vendor or a missing extension is another numerics profile, named by what moved.
// Planted: the instruction sets left out of the numerics id (an AMX machine's floats gating an
// AVX-512 one).
TEST(EnvironmentProfileTest, TheVendorAndMathExtensionsArePartOfTheNumericsProfile) {
  const EnvironmentProfile here = environment_profile(with_capability(cpu_environment(), "AVX512"));
  nlohmann::json amd = with_capability(cpu_environment(), "AVX512");
  amd["cpu"]["vendor"] = "AuthenticAMD";
  nlohmann::json no_avx512 = with_capability(cpu_environment(), "AVX512");
  no_avx512["cpu"]["isa"] = {"avx", "avx2", "fma", "amx_tile"};
  EXPECT_EQ(here.isa, "GenuineIntel avx avx2 fma avx512f");
  EXPECT_NE(environment_profile(amd).numerics_id, here.numerics_id);
  EXPECT_NE(environment_profile(no_avx512).numerics_id, here.numerics_id);
  EXPECT_EQ(environment_profile(amd).id, here.id);  // the machine id keeps its old hash
  EXPECT_EQ(profile_differences(numerics_profile(here), environment_profile(amd)),
            "instruction sets vendor 'GenuineIntel' → 'AuthenticAMD'");
  EXPECT_EQ(profile_differences(numerics_profile(here), environment_profile(no_avx512)),
            "instruction sets −avx512f +amx_tile");
}

// A variable that caps oneDNN's or MKL's kernels changes floats without changing the CPU: a run
// started with one is another numerics profile, named by it. Planted: pins left out of the id (a
// pinned run's values gating an unpinned run as a false REGRESSION).
TEST(EnvironmentProfileTest, KernelPinningVariablesArePartOfTheNumericsProfile) {
  const EnvironmentProfile natural =
      environment_profile(with_capability(cpu_environment(), "AVX512"));
  nlohmann::json pinned_environment = with_capability(cpu_environment(), "AVX512");
  pinned_environment["cpu"]["kernel_pins"] = {{"MKL_CBWR", "COMPATIBLE"},
                                              {"ONEDNN_MAX_CPU_ISA", "SSE41"}};
  const EnvironmentProfile pinned = environment_profile(pinned_environment);
  EXPECT_EQ(pinned.pins, "MKL_CBWR=COMPATIBLE ONEDNN_MAX_CPU_ISA=SSE41");
  EXPECT_NE(pinned.numerics_id, natural.numerics_id);
  EXPECT_EQ(pinned.id, natural.id);
  EXPECT_EQ(profile_differences(numerics_profile(natural), pinned),
            "kernel pins 'none' → 'MKL_CBWR=COMPATIBLE ONEDNN_MAX_CPU_ISA=SSE41'");
}

TEST(EnvironmentProfileTest, CpuInfoGivesTheVendorAndOnlyTheMathExtensions) {
  const CpuIsa x86 = parse_cpu_isa(
      "processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC\n"
      "flags\t\t: fpu vme avx2 sse4_2 hypervisor avx512f fma avx avx512_bf16 rdrand\n\n"
      "processor\t: 1\nvendor_id\t: AuthenticAMD\nflags\t\t: fpu\n");
  EXPECT_EQ(x86.vendor, "AuthenticAMD");
  EXPECT_EQ(x86.isa,
            (std::vector<std::string>{"sse4_2", "avx", "avx2", "fma", "avx512f", "avx512_bf16"}));
  const CpuIsa arm = parse_cpu_isa("processor\t: 0\nFeatures\t: fp asimd sve i8mm crc32\n");
  EXPECT_EQ(arm.vendor, "");
  EXPECT_EQ(arm.isa, (std::vector<std::string>{"asimd", "sve", "i8mm"}));
  EXPECT_TRUE(parse_cpu_isa("").isa.empty());
}

MetricComparison compare_on(const EnvironmentProfile& machine, const BaselineMetric& stored,
                            double observed) {
  BaselineFile file;
  file.tests["Clipping"].metrics["final_loss"] = stored;
  const BaselineSet baselines = BaselineSet::from_files({{"clipping_test.toml", file}});
  TestResult test;
  test.name = "Clipping";
  test.full_name = "Fast.Clipping";
  test.metrics.push_back({"final_loss", observed, MustEqual, stored.policy});
  BaselineGate(baselines, machine, 0.01).compare_test(test);
  return test.comparisons.at(0);
}

// Which of a run's two profiles a stored value is looked up by: numerics values gate on every CPU
// of the capability, machine values on this machine only; a numerics value promoted before
// numerics ids (under the machine id) still gates on that machine.
TEST(EnvironmentProfileTest, EachScopeIsLookedUpByItsOwnProfile) {
  const EnvironmentProfile here = environment_profile(with_capability(cpu_environment(), "AVX2"));
  nlohmann::json other_cpu = with_capability(cpu_environment(), "AVX2");
  other_cpu["cpu"]["model"] = "Another CPU";
  const EnvironmentProfile there = environment_profile(other_cpu);

  BaselineMetric numerics;
  numerics.direction = MustEqual;
  numerics.policy = Exact{.scope = Scope::Numerics};
  numerics.by_environment[here.numerics_id] = 0.25;
  EXPECT_EQ(compare_on(here, numerics, 0.25).verdict, Verdict::kPass);
  EXPECT_EQ(compare_on(there, numerics, 0.25).verdict, Verdict::kPass);
  EXPECT_EQ(compare_on(there, numerics, 0.5).verdict, Verdict::kRegression);

  BaselineMetric machine = numerics;
  machine.policy = Exact{.scope = Scope::Machine};
  machine.by_environment = {{here.id, 0.25}};
  EXPECT_EQ(compare_on(here, machine, 0.25).verdict, Verdict::kPass);
  const MetricComparison elsewhere = compare_on(there, machine, 0.25);
  EXPECT_EQ(elsewhere.verdict, Verdict::kUngated);
  EXPECT_THAT(elsewhere.note, ::testing::HasSubstr("machine profile " + there.id));

  BaselineMetric old_form = numerics;
  old_form.policy = Exact{};  // a file older than scopes
  old_form.by_environment = {{here.id, 0.25}};
  EXPECT_EQ(compare_on(here, old_form, 0.5).verdict, Verdict::kRegression);
  EXPECT_EQ(compare_on(there, old_form, 0.25).verdict, Verdict::kUngated);
  // A pinned run on that machine measured other kernels: the unpinned value does not gate it.
  nlohmann::json pinned = with_capability(cpu_environment(), "AVX2");
  pinned["cpu"]["kernel_pins"] = {{"MKL_CBWR", "COMPATIBLE"}};
  EXPECT_EQ(compare_on(environment_profile(pinned), old_form, 0.5).verdict, Verdict::kUngated);
}

// capability, isa and pins survive a write and a read of the baseline file; a numerics profile is
// written without a cpu key. Planted: a field dropped by render_baseline or by the reader.
TEST(EnvironmentProfileTest, TheNewProfileFieldsSurviveAWriteAndARead) {
  nlohmann::json pinned = with_capability(cpu_environment(), "AVX512");
  pinned["cpu"]["kernel_pins"] = {{"ONEDNN_MAX_CPU_ISA", "SSE41"}};
  const EnvironmentProfile run = environment_profile(pinned);
  BaselineFile file;
  file.provenance.environment = run.id;
  file.environments[run.id] = machine_profile(run);
  file.environments[run.numerics_id] = numerics_profile(run);
  BaselineMetric& loss = file.tests["Clipping"].metrics["final_loss"];
  loss.direction = MustEqual;
  loss.policy = Exact{Scope::Numerics};
  loss.by_environment[run.numerics_id] = 0.25;
  const std::string text = render_baseline(file);
  EXPECT_THAT(text, ::testing::HasSubstr("pins = \"ONEDNN_MAX_CPU_ISA=SSE41\""));
  EXPECT_THAT(text, ::testing::HasSubstr("isa = \"GenuineIntel avx avx2 fma avx512f\""));
  EXPECT_EQ(parse_baseline(text, "clipping_test.toml"), file);
  EXPECT_EQ(parse_baseline(text, "clipping_test.toml").environments.at(run.numerics_id).cpu, "");
}

}  // namespace
}  // namespace mlregress::internal
