# FP_SANITIZE selects sanitizers for every target of this project:
#   address -> AddressSanitizer + UndefinedBehaviorSanitizer
#   thread  -> ThreadSanitizer
if(FP_SANITIZE STREQUAL "address")
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
elseif(FP_SANITIZE STREQUAL "thread")
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer)
  add_link_options(-fsanitize=thread)
elseif(NOT FP_SANITIZE STREQUAL "")
  message(FATAL_ERROR "FP_SANITIZE must be '', 'address' or 'thread' (got '${FP_SANITIZE}')")
endif()
