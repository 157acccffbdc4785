# mlregress as a package, the way GoogleTest, Google Benchmark and fmt ship: the libraries and
# headers, mlregressConfig.cmake (+ version) that finds every dependency, the CMake functions, a
# build-tree export (find_package straight from a build folder), and a .deb through CPack.
#
#   cmake --install build --prefix /opt/mlregress      then find_package(mlregress CONFIG REQUIRED)
#   cpack --config build/CPackConfig.cmake             then apt install ./mlregress-dev_*.deb
include(CMakePackageConfigHelpers)

set(MLREGRESS_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/mlregress"
    CACHE STRING "Where mlregressConfig.cmake is installed, relative to the prefix")
set(_mlregress_modules
    "${PROJECT_SOURCE_DIR}/runner/cmake/MlregressDiscoverTests.cmake"
    "${PROJECT_SOURCE_DIR}/runner/cmake/MlregressAddTests.cmake"
    "${PROJECT_SOURCE_DIR}/runner/cmake/MlregressCheckTorch.cmake"
    "${PROJECT_SOURCE_DIR}/runner/cmake/MlregressPrecompileTorch.cmake")

install(TARGETS ${MLREGRESS_EXPORTED_TARGETS} EXPORT mlregressTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
set(_mlregress_header_excludes)
if(NOT MLREGRESS_WITH_TORCH)
  set(_mlregress_header_excludes PATTERN "checks" EXCLUDE PATTERN "torch" EXCLUDE PATTERN "mlregress.h" EXCLUDE)
endif()
install(DIRECTORY "${PROJECT_SOURCE_DIR}/runner/include/mlregress" DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        ${_mlregress_header_excludes})
install(EXPORT mlregressTargets NAMESPACE mlregress:: DESTINATION ${MLREGRESS_INSTALL_CMAKEDIR})

configure_package_config_file("${PROJECT_SOURCE_DIR}/runner/cmake/mlregressConfig.cmake.in"
                              "${PROJECT_BINARY_DIR}/mlregressConfig.cmake"
                              INSTALL_DESTINATION ${MLREGRESS_INSTALL_CMAKEDIR})
# 0.x: a new minor version may change the interface.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/mlregressConfigVersion.cmake"
                                 COMPATIBILITY SameMinorVersion)
install(FILES "${PROJECT_BINARY_DIR}/mlregressConfig.cmake" "${PROJECT_BINARY_DIR}/mlregressConfigVersion.cmake"
              ${_mlregress_modules}
        DESTINATION ${MLREGRESS_INSTALL_CMAKEDIR})

# The build tree as a package too: find_package(mlregress CONFIG) with mlregress_DIR=<build>.
export(EXPORT mlregressTargets NAMESPACE mlregress:: FILE "${PROJECT_BINARY_DIR}/mlregressTargets.cmake")
foreach(module IN LISTS _mlregress_modules)
  configure_file("${module}" "${PROJECT_BINARY_DIR}" COPYONLY)
endforeach()

# A .deb of the installed files, for a team's CI images: cpack --config build/CPackConfig.cmake
set(CPACK_GENERATOR "DEB")
set(CPACK_PACKAGE_NAME "mlregress-dev")
set(CPACK_PACKAGE_VENDOR "mlregress")
set(CPACK_PACKAGE_CONTACT "mlregress maintainers <mlregress@users.noreply.github.com>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION "devel")
# The static libraries link these; mlregressConfig.cmake finds them with find_dependency.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "cmake (>= 3.25), libgtest-dev, libgmock-dev, libbenchmark-dev, libtomlplusplus-dev, libpugixml-dev, libcli11-dev, nlohmann-json3-dev, libfmt-dev, libboost-math-dev, libssl-dev")
# Built against Debian's LibTorch, the package needs it; built against another (the PyTorch wheel, a
# pytorch.org archive), the consumer's CMAKE_PREFIX_PATH names that LibTorch and no package can.
if(MLREGRESS_WITH_TORCH AND TORCH_INSTALL_PREFIX STREQUAL "/usr")
  string(APPEND CPACK_DEBIAN_PACKAGE_DEPENDS ", libtorch-dev")
endif()
include(CPack)
