# mlregress_target_precompile_torch(TARGET)
#
# Compiles TARGET's sources with LibTorch's headers precompiled. Parsing <torch/torch.h> costs
# 20-60 s per source file on a small machine; with the precompiled header a test file compiles in
# seconds. Call it for every target whose sources include mlregress/mlregress.h or torch, a
# library of the team's own that links only LibTorch included (it gets the header's include folders
# and definitions; from CMake 3.27 without linking mlregress, before that by linking it).
#
#   add_executable(my_model_tests cnn_test.cc data_test.cc)
#   target_link_libraries(my_model_tests PRIVATE mlregress::torch_main)
#   mlregress_target_precompile_torch(my_model_tests)
#
# With mlregress in the same build (add_subdirectory, FetchContent) TARGET reuses the header
# mlregress itself compiled. With an installed mlregress, one header is compiled per project
# (target mlregress_torch_pch) and shared by every TARGET. Either way TARGET must be compiled with
# the same flags and definitions as the header: a target that adds its own compile definitions
# makes GCC ignore the header (it warns with -Winvalid-pch) and compile slowly but correctly.
#
# ccache: when the project compiles through ccache (CMAKE_CXX_COMPILER_LAUNCHER), TARGET and the
# header get the sloppiness settings ccache needs to cache precompiled-header builds at all.
set(_MLREGRESS_PCH_HEADER "mlregress/torch/precompiled.h" CACHE INTERNAL "")

function(_mlregress_ccache_for_pch target)
  if(NOT CMAKE_CXX_COMPILER_LAUNCHER)
    return()
  endif()
  list(GET CMAKE_CXX_COMPILER_LAUNCHER -1 launcher)
  get_filename_component(launcher_name "${launcher}" NAME)
  if(NOT launcher_name STREQUAL "ccache" OR "${CMAKE_CXX_COMPILER_LAUNCHER}" MATCHES "CCACHE_SLOPPINESS")
    return()
  endif()
  set_property(TARGET ${target} PROPERTY CXX_COMPILER_LAUNCHER
    ${CMAKE_COMMAND} -E env
    "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
    ${CMAKE_CXX_COMPILER_LAUNCHER})
endfunction()

function(mlregress_target_precompile_torch target)
  if(NOT TARGET mlregress::torch)
    message(FATAL_ERROR "mlregress_target_precompile_torch(${target}): mlregress was built without "
                        "LibTorch (MLREGRESS_WITH_TORCH=OFF)")
  endif()
  # MLREGRESS_PRECOMPILE_TORCH=OFF (in mlregress's build or in the consumer's): no header, about
  # 700 MB less in the build folder, every file compiled from LibTorch's headers.
  if(DEFINED MLREGRESS_PRECOMPILE_TORCH AND NOT MLREGRESS_PRECOMPILE_TORCH)
    return()
  endif()
  get_target_property(imported mlregress::torch IMPORTED)
  if(NOT imported)
    set(pch_target mlregress_torch)  # in this build: reuse the header mlregress compiles anyway
  else()
    set(pch_target mlregress_torch_pch)
    if(NOT TARGET ${pch_target})
      set(source "${CMAKE_BINARY_DIR}/mlregress_torch_pch.cc")
      file(CONFIGURE OUTPUT "${source}"
           CONTENT "// Compiles the precompiled LibTorch header that mlregress test targets share.\n")
      add_library(${pch_target} OBJECT "${source}")
      target_link_libraries(${pch_target} PRIVATE mlregress::torch)
      target_precompile_headers(${pch_target} PRIVATE "<${_MLREGRESS_PCH_HEADER}>")
      _mlregress_ccache_for_pch(${pch_target})
    endif()
  endif()
  target_precompile_headers(${target} REUSE_FROM ${pch_target})
  # The header includes mlregress's and GoogleTest's headers too, and is only used when TARGET is
  # compiled with the same include folders and definitions as the header: a target that does not
  # link mlregress (a team's model library, linking only ${TORCH_LIBRARIES}) gets them, without
  # linking anything more.
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.27)
    target_link_libraries(${target} PRIVATE $<COMPILE_ONLY:mlregress::torch>)
  else()
    target_link_libraries(${target} PRIVATE mlregress::torch)
  endif()
  _mlregress_ccache_for_pch(${target})
endfunction()
