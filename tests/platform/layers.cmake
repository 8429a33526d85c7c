# layers.cmake - checks that each subsystem of the platform includes only the subsystems below it
# (docs/platform.md, "Subsystems"). Run as `cmake -DPLATFORM_DIR=<platform/> -P layers.cmake`;
# fails (naming the file and the include) when a file of a subsystem includes a platform header
# of a subsystem it does not depend on.

cmake_minimum_required(VERSION 3.16)

# What each subsystem may include besides itself. vp (the assembly) may include everything.
set(allowed_bus "")
set(allowed_timer "bus")
set(allowed_interrupt "bus")
set(allowed_devices "bus")
set(allowed_boot "bus")
set(allowed_cpu "bus;timer;interrupt")
set(allowed_trace "bus;cpu")
set(subsystems bus timer interrupt devices boot cpu trace)

if(NOT PLATFORM_DIR)
  message(FATAL_ERROR "layers.cmake: set PLATFORM_DIR to the platform/ folder")
endif()

set(violations "")
set(checked 0)
foreach(subsystem IN LISTS subsystems)
  file(GLOB_RECURSE files
       "${PLATFORM_DIR}/src/${subsystem}/*"
       "${PLATFORM_DIR}/include/pmtrace/platform/${subsystem}/*")
  if(NOT files)
    message(FATAL_ERROR "layers.cmake: no files in subsystem ${subsystem}")
  endif()
  foreach(f IN LISTS files)
    math(EXPR checked "${checked} + 1")
    # Platform headers (<pmtrace/platform/...>) and the private headers of platform/src
    # ("bus/bus_access.h"); sw/'s headers ("hal/hal.h") are not the platform's.
    file(STRINGS "${f}" includes REGEX "^#include [<\"]")
    foreach(line IN LISTS includes)
      string(REGEX MATCH "^#include [<\"]pmtrace/platform/([a-z_0-9]+)(/?)" public "${line}")
      if(public)
        set(target "${CMAKE_MATCH_1}")
        if(NOT CMAKE_MATCH_2)
          list(APPEND violations "${f}: ${line} (vp is above every subsystem)")
          continue()
        endif()
      else()
        string(REGEX MATCH "^#include \"([a-z_0-9]+)/" private "${line}")
        if(NOT private OR NOT CMAKE_MATCH_1 IN_LIST subsystems)
          continue()
        endif()
        set(target "${CMAKE_MATCH_1}")
      endif()
      if(NOT target STREQUAL subsystem AND NOT target IN_LIST allowed_${subsystem})
        list(APPEND violations "${f}: ${line} (${subsystem}/ does not depend on ${target}/)")
      endif()
    endforeach()
  endforeach()
endforeach()

if(violations)
  list(JOIN violations "\n  " text)
  message(FATAL_ERROR "platform layers violated:\n  ${text}")
endif()
message(STATUS "platform layers: ${checked} files, every include within its subsystem's dependencies")
