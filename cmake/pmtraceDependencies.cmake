# pmtraceDependencies.cmake - the libraries pmtrace's SystemC layer and platform use, found on the
# machine at hand: by the build, and by find_package(pmtrace) for the components that need them,
# so the installed package names targets (PkgConfig::SYSTEMC, pmtrace_deps::opencsd ...), never a
# path of the machine that built it.

# SystemC 2.3.4 with TLM-2.0: PkgConfig::SYSTEMC.
macro(pmtrace_find_systemc)
  find_package(PkgConfig REQUIRED)
  if(NOT TARGET PkgConfig::SYSTEMC)
    pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc tlm)
  endif()
endmacro()

# The platform's: Unicorn 2 (the AArch64 CPU's engine), OpenCSD (the trace decoder; Debian ships
# a pkg-config file for libopencsd only, not for its C API library, so both are found by name)
# and libfdt (the device tree).
macro(pmtrace_find_platform_dependencies)
  find_package(PkgConfig REQUIRED)
  if(NOT TARGET PkgConfig::UNICORN)
    pkg_check_modules(UNICORN REQUIRED IMPORTED_TARGET unicorn>=2.0)
  endif()
  if(NOT TARGET pmtrace_deps::opencsd)
    find_path(PMTRACE_OPENCSD_INCLUDE_DIR opencsd/c_api/opencsd_c_api.h)
    find_library(PMTRACE_OPENCSD_C_API_LIBRARY opencsd_c_api)
    find_library(PMTRACE_OPENCSD_LIBRARY opencsd)
    if(NOT PMTRACE_OPENCSD_INCLUDE_DIR OR NOT PMTRACE_OPENCSD_C_API_LIBRARY OR
       NOT PMTRACE_OPENCSD_LIBRARY)
      message(FATAL_ERROR "OpenCSD not found (headers: ${PMTRACE_OPENCSD_INCLUDE_DIR}, "
                          "libopencsd_c_api: ${PMTRACE_OPENCSD_C_API_LIBRARY}, libopencsd: "
                          "${PMTRACE_OPENCSD_LIBRARY}); install libopencsd-dev "
                          "(scripts/install-deps.sh)")
    endif()
    add_library(pmtrace_deps::opencsd INTERFACE IMPORTED)
    set_target_properties(pmtrace_deps::opencsd PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${PMTRACE_OPENCSD_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${PMTRACE_OPENCSD_C_API_LIBRARY};${PMTRACE_OPENCSD_LIBRARY}")
  endif()
  if(NOT TARGET pmtrace_deps::fdt)
    find_path(PMTRACE_FDT_INCLUDE_DIR libfdt.h)
    find_library(PMTRACE_FDT_LIBRARY fdt)
    if(NOT PMTRACE_FDT_INCLUDE_DIR OR NOT PMTRACE_FDT_LIBRARY)
      message(FATAL_ERROR "libfdt not found (header: ${PMTRACE_FDT_INCLUDE_DIR}, library: "
                          "${PMTRACE_FDT_LIBRARY}); install libfdt-dev (scripts/install-deps.sh)")
    endif()
    add_library(pmtrace_deps::fdt INTERFACE IMPORTED)
    set_target_properties(pmtrace_deps::fdt PROPERTIES
      INTERFACE_INCLUDE_DIRECTORIES "${PMTRACE_FDT_INCLUDE_DIR}"
      INTERFACE_LINK_LIBRARIES "${PMTRACE_FDT_LIBRARY}")
  endif()
endmacro()
