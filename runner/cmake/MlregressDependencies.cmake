# The packages mlregress builds against. A parent project that already found one (and so defined
# its target) keeps its own: each is looked for only when its target is missing. Found GLOBAL so
# that every directory of the build, and a parent project linking mlregress, sees the targets.
# mlregressConfig.cmake asks for the same list with find_dependency().
macro(_mlregress_require package target)
  if(NOT TARGET ${target})
    find_package(${package} REQUIRED GLOBAL ${ARGN})
  endif()
endmacro()

_mlregress_require(GTest GTest::gtest)
_mlregress_require(fmt fmt::fmt)
_mlregress_require(nlohmann_json nlohmann_json::nlohmann_json)
_mlregress_require(CLI11 CLI11::CLI11)
_mlregress_require(pugixml pugixml::pugixml)
_mlregress_require(tomlplusplus tomlplusplus::tomlplusplus)
_mlregress_require(Boost Boost::boost)            # Boost.Math distributions (header-only)
_mlregress_require(benchmark benchmark::benchmark)  # the timing machinery of measure_throughput
_mlregress_require(OpenSSL OpenSSL::Crypto)       # SHA-256 of datasets (record_dataset)
if(MLREGRESS_WITH_TORCH)
  # Which LibTorch: the first one on CMAKE_PREFIX_PATH (ci/configure-and-build.sh puts the one
  # MLREGRESS_LIBTORCH names there), else the system's. MlregressCheckTorch.cmake refuses a mix of
  # two installs and a LibTorch built with the other C++ ABI.
  _mlregress_require(Torch torch)
  include(MlregressCheckTorch)
  mlregress_check_torch()
endif()
