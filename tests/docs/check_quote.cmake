# cmake -DSRC=tests/engine/test_host_loop_example.cpp -DDOC=docs/host-loop.md -P check_quote.cmake: the code between the two
# "// [example]" lines of SRC appears word for word in DOC (the docs quote built code).
# With -DHEADER=ON, DOC is a public header and its opening comment (before #pragma once) must
# quote the code with each line as "//   CODE" and an empty line as "//" (tests/docs/example_*.cpp:
# a header's usage example cannot drift from code that builds).
file(READ "${SRC}" src)
file(READ "${DOC}" doc)
set(mark "// [example]\n")
string(FIND "${src}" "${mark}" first)
string(FIND "${src}" "${mark}" last REVERSE)
if(first EQUAL -1 OR first EQUAL last)
  message(FATAL_ERROR "${SRC}: no pair of '// [example]' lines")
endif()
string(LENGTH "${mark}" mark_length)
math(EXPR begin "${first} + ${mark_length}")
math(EXPR length "${last} - ${begin}")
string(SUBSTRING "${src}" ${begin} ${length} example)
if(HEADER)
  string(FIND "${doc}" "#pragma once" end)
  if(end EQUAL -1)
    message(FATAL_ERROR "${DOC}: no #pragma once")
  endif()
  string(SUBSTRING "${doc}" 0 ${end} doc)
  # "//   " before every line (the example ends with a newline: not after the last one).
  string(REPLACE "\n" "\n//   " example "//   ${example}")
  string(REGEX REPLACE "//   $" "" example "${example}")
  string(REPLACE "//   \n" "//\n" example "${example}")
endif()
string(FIND "${doc}" "${example}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${DOC} does not quote the example of ${SRC} as it is")
endif()
message(STATUS "${DOC} quotes ${SRC}")
