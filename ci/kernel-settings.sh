# The CPU code paths LibTorch can be made to take on one machine, shared by the numerics study
# (ci/study-numerics.sh) and the kernel-path guard (ci/kernel-path-guard.sh). Sourced, not run.
#
# kernel_settings: name|intra-op threads|environment (space-separated NAME=VALUE). The first is
# the natural dispatch every other setting is compared with; the second repeats it (run-to-run
# repeatability). D pins all three libraries low; D-isa pins MKL with MKL_ENABLE_INSTRUCTIONS
# instead of MKL_CBWR; D-glibc also hides AVX/AVX2/FMA/AVX-512 from glibc's libm dispatch (a CPU
# without them, as far as glibc can tell), the one ISA choice the three variables do not cover.
# E* keep ATen's natural capability and pin one library at a time, to tell which one moves a
# value. F is the natural dispatch on two intra-op threads.
kernel_settings=(
  "A|1|"
  "A2|1|"
  "B|1|ATEN_CPU_CAPABILITY=avx2"
  "C|1|ATEN_CPU_CAPABILITY=default"
  "D|1|ATEN_CPU_CAPABILITY=default ONEDNN_MAX_CPU_ISA=SSE41 MKL_CBWR=COMPATIBLE"
  "D-isa|1|ATEN_CPU_CAPABILITY=default ONEDNN_MAX_CPU_ISA=SSE41 MKL_ENABLE_INSTRUCTIONS=SSE4_2"
  "D-glibc|1|ATEN_CPU_CAPABILITY=default ONEDNN_MAX_CPU_ISA=SSE41 MKL_CBWR=COMPATIBLE GLIBC_TUNABLES=glibc.cpu.hwcaps=-AVX512F,-AVX2,-FMA,-AVX"
  "E|1|ONEDNN_MAX_CPU_ISA=SSE41 MKL_CBWR=COMPATIBLE"
  "E-onednn|1|ONEDNN_MAX_CPU_ISA=SSE41"
  "E-cbwr|1|MKL_CBWR=COMPATIBLE"
  "E-isa|1|MKL_ENABLE_INSTRUCTIONS=SSE4_2"
  "F|2|"
)

# Every variable a setting may set, and the ones that would change its meaning if inherited:
# each setting runs under `env -u` of all of them, so a caller's environment cannot leak in.
kernel_controlled=(ATEN_CPU_CAPABILITY ONEDNN_MAX_CPU_ISA DNNL_MAX_CPU_ISA MKL_ENABLE_INSTRUCTIONS
  MKL_CBWR GLIBC_TUNABLES OMP_NUM_THREADS MKL_NUM_THREADS MKL_VERBOSE ONEDNN_VERBOSE)
kernel_unset_args=()
for kernel_variable in "${kernel_controlled[@]}"; do kernel_unset_args+=(-u "$kernel_variable"); done
unset kernel_variable

# The spec line of setting NAME, or nothing.
kernel_setting_spec() {
  local s
  for s in "${kernel_settings[@]}"; do [ "${s%%|*}" = "$1" ] && echo "$s"; done
  return 0
}
