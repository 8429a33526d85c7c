# Warnings for every target of the project, and the sanitizer option.
set(PMTRACE_C_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
    -Wstrict-prototypes -Wmissing-prototypes -Wundef -Wcast-qual -Wformat=2)
set(PMTRACE_CXX_WARNINGS -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wundef
    -Wformat=2)
if(PMTRACE_WERROR)
  list(APPEND PMTRACE_C_WARNINGS -Werror)
  list(APPEND PMTRACE_CXX_WARNINGS -Werror)
endif()

add_library(pmtrace_warnings INTERFACE)
target_compile_options(pmtrace_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:C>:${PMTRACE_C_WARNINGS}>
  $<$<COMPILE_LANGUAGE:CXX>:${PMTRACE_CXX_WARNINGS}>)

if(PMTRACE_SANITIZE)
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
