# mlregress_discover_tests(TARGET
#     [BASELINES dir]
#     [TIMEOUT_FAST seconds] [TIMEOUT_MEDIUM seconds] [TIMEOUT_FULL seconds]
#     [RUNS_DIR dir] [GPUS n] [EXTRA_ARGS args...])
#
# Registers every ML test of TARGET as a ctest test, from one `TARGET list --format json` call
# made after each build (like Catch2's catch_discover_tests). Each test gets:
#   LABELS            its tier (fast / medium / full), so `ctest -L fast` runs exactly that tier,
#                     and the labels `list` gives it (`flaky` for ML_FLAKY_TEST, `capability` for
#                     ML_CAPABILITY_TEST: `ctest -L capability` runs the capabilities, which report
#                     MET / NOT MET and never fail; their history is RUNS_DIR)
#   TIMEOUT           per tier (defaults 120 / 900 / 3600 s)
#   SKIP_RETURN_CODE  77, the binary's exit code when every selected test skipped itself
# Each ctest test runs `TARGET run --filter Tier.Name --out RUNS_DIR` (default
# ${CMAKE_BINARY_DIR}/ctest-runs), so it leaves a run folder like any other run. With BASELINES
# (e.g. ${PROJECT_SOURCE_DIR}/baselines) every test is compared with its baseline there: a
# regression fails it. EXTRA_ARGS go to every run as they are.
# With GPUS n, each test of TARGET takes n GPUs: RESOURCE_GROUPS "n,gpus:1", so that
# `ctest --resource-spec-file spec.json -j N` never runs two of them on one device at once; the
# runner makes the devices ctest chose its test processes' CUDA_VISIBLE_DEVICES, and each test
# also gets the label `gpu`. Keep GPU tests in a target of their own (the others need no device).
set(_MLREGRESS_ADD_TESTS_SCRIPT "${CMAKE_CURRENT_LIST_DIR}/MlregressAddTests.cmake" CACHE INTERNAL "")

function(mlregress_discover_tests target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "BASELINES;TIMEOUT_FAST;TIMEOUT_MEDIUM;TIMEOUT_FULL;RUNS_DIR;GPUS"
                        "EXTRA_ARGS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mlregress_discover_tests: unknown arguments ${arg_UNPARSED_ARGUMENTS}")
  endif()
  foreach(tier_default IN ITEMS "FAST;120" "MEDIUM;900" "FULL;3600")
    list(GET tier_default 0 tier)
    list(GET tier_default 1 default)
    if(NOT DEFINED arg_TIMEOUT_${tier})
      set(arg_TIMEOUT_${tier} ${default})
    endif()
  endforeach()
  if(arg_BASELINES)
    list(PREPEND arg_EXTRA_ARGS --baselines "${arg_BASELINES}")
  endif()
  if(NOT arg_RUNS_DIR)
    set(arg_RUNS_DIR "${CMAKE_BINARY_DIR}/ctest-runs")
  endif()

  set(ctest_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_mlregress_tests.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_mlregress_include.cmake")
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS "${ctest_file}"
    COMMAND "${CMAKE_COMMAND}"
            -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>"
            -D "CTEST_FILE=${ctest_file}"
            -D "TIMEOUT_FAST=${arg_TIMEOUT_FAST}"
            -D "TIMEOUT_MEDIUM=${arg_TIMEOUT_MEDIUM}"
            -D "TIMEOUT_FULL=${arg_TIMEOUT_FULL}"
            -D "RUNS_DIR=${arg_RUNS_DIR}"
            -D "GPUS=${arg_GPUS}"
            -D "EXTRA_ARGS=${arg_EXTRA_ARGS}"
            -P "${_MLREGRESS_ADD_TESTS_SCRIPT}"
    VERBATIM)

  file(WRITE "${include_file}"
    "if(EXISTS \"${ctest_file}\")\n"
    "  include(\"${ctest_file}\")\n"
    "else()\n"
    "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
