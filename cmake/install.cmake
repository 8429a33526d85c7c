# cmake --install: headers, libraries, a CMake package (find_package(pmtrace)) and pkg-config files.
# Three export sets, so a C user needs nothing of SystemC: core (pmtrace::core, pmtrace::sw,
# pmtrace::sw_hal_core), systemc (pmtrace::systemc) and platform (pmtrace::platform).
include(CMakePackageConfigHelpers)

set(PMTRACE_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pmtrace)
install(EXPORT pmtraceCoreTargets NAMESPACE pmtrace:: DESTINATION ${PMTRACE_CMAKE_DIR})
if(PMTRACE_BUILD_SYSTEMC)
  install(EXPORT pmtraceSystemcTargets NAMESPACE pmtrace:: DESTINATION ${PMTRACE_CMAKE_DIR})
  install(EXPORT pmtracePlatformTargets NAMESPACE pmtrace:: DESTINATION ${PMTRACE_CMAKE_DIR})
endif()
configure_package_config_file(cmake/pmtraceConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/pmtraceConfig.cmake INSTALL_DESTINATION ${PMTRACE_CMAKE_DIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/pmtraceConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pmtraceConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/pmtraceConfigVersion.cmake cmake/pmtraceDependencies.cmake
  DESTINATION ${PMTRACE_CMAKE_DIR})

configure_file(cmake/pmtrace-core.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pmtrace-core.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pmtrace-core.pc
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(PMTRACE_BUILD_SYSTEMC)
  configure_file(cmake/pmtrace-systemc.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pmtrace-systemc.pc @ONLY)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pmtrace-systemc.pc
    DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
endif()
