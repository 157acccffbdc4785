# mlregress_check_torch(): run right after find_package(Torch). Two mistakes that otherwise end in a
# wall of link errors, or worse in a binary that mixes two LibTorch versions, stop the configure
# with a message that names them:
#
#  - Two LibTorch installs mixed. TorchConfig.cmake looks for its libraries with find_library,
#    which searches the system folders before its own; with Debian's libtorch-dev installed and
#    CMAKE_PREFIX_PATH set to torch.utils.cmake_prefix_path (…/torch/share/cmake), the headers
#    come from the wheel and libtorch.so from /usr/lib.
#  - The other C++ ABI. A LibTorch built with _GLIBCXX_USE_CXX11_ABI=0 (the "pre-cxx11" archives of
#    pytorch.org up to 2.6) cannot link with mlregress's dependencies, which Debian builds with the
#    C++11 ABI. The ABI is read from libc10's exported symbols, not from TORCH_CXX_FLAGS, which
#    LibTorch 2.7 and later no longer set.
#
# It also leaves, in the caller's scope, what identifies the LibTorch found: MLREGRESS_TORCH_VERSION,
# MLREGRESS_TORCH_CXX11_ABI (0 or 1), MLREGRESS_TORCH_BUILD (cpu or cuda) and MLREGRESS_TORCH_PREFIX
# (its folder). The installed package records those of the build (mlregressConfig.cmake), and
# mlregress_check_torch_matches() stops a consumer's configure that found another LibTorch.
function(mlregress_check_torch)
  if(NOT TORCH_INSTALL_PREFIX OR NOT TORCH_LIBRARY)
    return()
  endif()
  get_filename_component(prefix "${TORCH_INSTALL_PREFIX}" REALPATH)
  set(build cpu)
  if(CAFFE2_USE_CUDA OR TARGET c10_cuda OR TARGET torch_cuda)
    set(build cuda)
  endif()
  set(MLREGRESS_TORCH_VERSION "${Torch_VERSION}" PARENT_SCOPE)
  set(MLREGRESS_TORCH_BUILD "${build}" PARENT_SCOPE)
  set(MLREGRESS_TORCH_PREFIX "${prefix}" PARENT_SCOPE)
  set(mixed)
  foreach(library IN ITEMS TORCH_LIBRARY c10_LIBRARY)
    if(NOT ${library})
      continue()
    endif()
    get_filename_component(location "${${library}}" REALPATH)
    string(FIND "${location}" "${prefix}/" at)
    if(NOT at EQUAL 0)
      list(APPEND mixed "${${library}}")
    endif()
  endforeach()
  if(mixed)
    list(JOIN mixed ", " mixed)
    message(FATAL_ERROR
      "Two LibTorch installs are mixed: the CMake package ${Torch_DIR} belongs to the LibTorch in "
      "${prefix}, but its libraries were found elsewhere (${mixed}), because another LibTorch is "
      "installed in a system folder. Put the LibTorch folder itself on CMAKE_PREFIX_PATH: for the "
      "PyTorch wheel the folder holding lib/ and share/ (torch.utils.cmake_prefix_path without "
      "/share/cmake), for a pytorch.org archive its libtorch/ folder. Then configure a fresh "
      "build folder (TORCH_LIBRARY is cached).")
  endif()

  set(c10 "${c10_LIBRARY}")
  if(NOT c10)
    set(c10 "${prefix}/lib/libc10.so")
  endif()
  if(NOT EXISTS "${c10}")
    return()
  endif()
  # Every C++11-ABI build exports functions taking std::string, mangled with std::__cxx11.
  file(STRINGS "${c10}" cxx11_symbols REGEX "__cxx11" LIMIT_COUNT 1)
  if(cxx11_symbols)
    set(torch_abi 1)
  else()
    set(torch_abi 0)
  endif()
  set(MLREGRESS_TORCH_CXX11_ABI "${torch_abi}" PARENT_SCOPE)
  set(build_abi 1)
  if("${CMAKE_CXX_FLAGS}" MATCHES "_GLIBCXX_USE_CXX11_ABI=0")
    set(build_abi 0)
  endif()
  if(NOT torch_abi EQUAL build_abi)
    message(FATAL_ERROR
      "C++ ABI mismatch: the LibTorch in ${prefix} was built with _GLIBCXX_USE_CXX11_ABI=${torch_abi} "
      "(read from ${c10}), this build and mlregress's dependencies (GoogleTest, fmt, Google "
      "Benchmark, … from Debian) use _GLIBCXX_USE_CXX11_ABI=${build_abi}. Linking the two fails "
      "on every function that takes a std::string. Use a LibTorch built with the C++11 ABI: the "
      "PyTorch wheel (2.7 and later), pytorch.org's libtorch-cxx11-abi-shared-with-deps archive, or "
      "the distribution's libtorch-dev.")
  endif()
endfunction()

# mlregress_check_torch_matches(VERSION ABI BUILD PREFIX): for a consumer of the installed package,
# right after mlregress_check_torch(). The package's static libraries were compiled against one
# LibTorch (the arguments, recorded at its build); found another, the link fails with undefined
# references inside libmlregress_torch.a, or a binary mixes two versions. A different folder alone
# is fine (the same LibTorch copied or installed elsewhere).
function(mlregress_check_torch_matches version abi build prefix)
  set(differs)
  if(NOT "${MLREGRESS_TORCH_VERSION}" STREQUAL "${version}")
    list(APPEND differs "version")
  endif()
  if(NOT "${abi}" STREQUAL "" AND NOT "${MLREGRESS_TORCH_CXX11_ABI}" STREQUAL "${abi}")
    list(APPEND differs "C++ ABI")
  endif()
  if(NOT "${MLREGRESS_TORCH_BUILD}" STREQUAL "${build}")
    list(APPEND differs "build")
  endif()
  if(NOT differs)
    return()
  endif()
  list(JOIN differs ", " differs)
  message(FATAL_ERROR
    "mlregress was built against another LibTorch than the one this project found (${differs} "
    "differ):\n"
    "  mlregress's build: LibTorch ${version}, _GLIBCXX_USE_CXX11_ABI=${abi}, ${build}, in ${prefix}\n"
    "  this project:      LibTorch ${MLREGRESS_TORCH_VERSION}, "
    "_GLIBCXX_USE_CXX11_ABI=${MLREGRESS_TORCH_CXX11_ABI}, ${MLREGRESS_TORCH_BUILD}, in "
    "${MLREGRESS_TORCH_PREFIX} (${Torch_DIR})\n"
    "Its static libraries would not link with this one. Put mlregress's LibTorch on "
    "CMAKE_PREFIX_PATH (for the PyTorch wheel, the torch package folder: README, 'Your LibTorch'), "
    "or build mlregress against this one, and configure a fresh build folder.")
endfunction()
