# FP_SANITIZE selects sanitizers for every target of this project:
#   address -> AddressSanitizer + UndefinedBehaviorSanitizer (+ float-cast-overflow, which
#              GCC's -fsanitize=undefined leaves out: a double too big for an int is UB)
#   thread  -> ThreadSanitizer
# The run-time options (and the LeakSanitizer suppressions for Mesa / the Vulkan loader,
# cmake/lsan.supp) are set on every test in tests/CMakeLists.txt.
if(FP_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined,float-cast-overflow)
  add_link_options(-fsanitize=address,undefined,float-cast-overflow)
elseif(FP_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT FP_SANITIZE STREQUAL "")
  message(FATAL_ERROR "FP_SANITIZE must be '', 'address' or 'thread' (got '${FP_SANITIZE}')")
endif()
