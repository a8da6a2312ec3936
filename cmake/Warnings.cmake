# fp_warnings: an interface target carrying the project's warning flags.
# Link it PRIVATE so the flags never leak into users' targets.
add_library(fp_warnings INTERFACE)
target_compile_options(fp_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow>)
