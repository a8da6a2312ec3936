# framepacer_warnings: an interface target carrying the project's warning flags.
# Link it PRIVATE (libraries: $<BUILD_INTERFACE:framepacer_warnings>, so that no installed
# target refers to it) and the flags never leak into a game's targets.
add_library(framepacer_warnings INTERFACE)
target_compile_options(framepacer_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wconversion -Wsign-conversion -Wshadow>)
