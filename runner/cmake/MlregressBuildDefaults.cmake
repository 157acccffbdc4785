# Build defaults for a top-level mlregress build: C++20, Release unless told otherwise (training
# loops in Debug are an order of magnitude slower), ccache when it is installed.
if(NOT PROJECT_IS_TOP_LEVEL)
  return()
endif()

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)

if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

find_program(MLREGRESS_CCACHE ccache)
if(MLREGRESS_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  # Precompiled headers need these sloppiness settings, or ccache never hits on torch TUs. (No
  # CCACHE_BASEDIR: it would hand the compiler relative paths, and a run finds the git work tree of
  # its test sources through their compiled-in absolute paths.)
  set(CMAKE_CXX_COMPILER_LAUNCHER
      ${CMAKE_COMMAND} -E env
      "CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime"
      ${MLREGRESS_CCACHE})
endif()
