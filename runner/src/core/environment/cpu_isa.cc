#include "environment/cpu_isa.h"

#include <algorithm>
#include <fstream>
#include <iterator>
#include <set>
#include <sstream>

namespace mlregress::internal {
namespace {

// The extensions the math libraries choose kernels by, in the order they are reported. Others
// (virtualisation, security, power flags) change no result and would split profiles for nothing.
constexpr const char* kMathExtensions[] = {
    "sse4_1",      "sse4_2",      "avx",      "avx2",     "fma",        "f16c",       "avx512f",
    "avx512dq",    "avx512cd",    "avx512bw", "avx512vl", "avx512ifma", "avx512vbmi", "avx512_vnni",
    "avx512_bf16", "avx512_fp16", "avx_vnni", "amx_tile", "amx_bf16",   "amx_int8",   "asimd",
    "asimddp",     "sve",         "sve2",     "bf16",     "i8mm"};

// "flags\t\t: fpu vme ..." -> the words after the colon.
std::set<std::string> words_after_colon(const std::string& line) {
  std::set<std::string> words;
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) return words;
  std::istringstream in(line.substr(colon + 1));
  for (std::string word; in >> word;) words.insert(word);
  return words;
}

std::string value_after_colon(const std::string& line) {
  const std::size_t colon = line.find(':');
  if (colon == std::string::npos) return "";
  const std::size_t begin = line.find_first_not_of(" \t", colon + 1);
  return begin == std::string::npos ? "" : line.substr(begin);
}

}  // namespace

CpuIsa parse_cpu_isa(const std::string& cpuinfo) {
  CpuIsa result;
  std::set<std::string> flags;
  bool have_flags = false;
  std::istringstream in(cpuinfo);
  for (std::string line; std::getline(in, line);) {
    if (result.vendor.empty() && line.rfind("vendor_id", 0) == 0) {
      result.vendor = value_after_colon(line);
    } else if (!have_flags && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) {
      flags = words_after_colon(line);  // the first processor's: they are all the same
      have_flags = true;
    }
  }
  for (const char* extension : kMathExtensions) {
    if (flags.contains(extension)) result.isa.emplace_back(extension);
  }
  return result;
}

CpuIsa probe_cpu_isa() {
  std::ifstream file("/proc/cpuinfo");
  const std::string text{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  return parse_cpu_isa(text);
}

}  // namespace mlregress::internal
