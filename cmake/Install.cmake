# Install rules (FRAMEPACER_INSTALL, on at top level): the libraries, their headers, the
# CMake package (find_package(framepacer CONFIG) -> framepacer::pacer, ::sim, ::formats,
# ::engine_core, ::renderer, ::engine) and framepacer.pc for the pure core.
#
#   <prefix>/include/pacer/*.hpp            core, sim, formats, generated version.hpp
#   <prefix>/include/engine/, renderer/     with the engine and the graphics
#   <prefix>/lib/libframepacer_*.a
#   <prefix>/lib/cmake/framepacer/          framepacerConfig.cmake, ...ConfigVersion.cmake, targets
#   <prefix>/lib/pkgconfig/framepacer.pc    the core: framepacer_pacer, _sim, _formats
#
# Headers go to include/ exactly: the targets' $<INSTALL_INTERFACE:include>.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)
set(FP_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/framepacer)

# The pure core (and engine_core, standard library only too): one export set.
set(fp_core_targets framepacer_pacer framepacer_sim framepacer_formats)
if(TARGET framepacer_engine_core)
  list(APPEND fp_core_targets framepacer_engine_core)
endif()
install(TARGETS ${fp_core_targets} EXPORT framepacerTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(part core sim formats)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/pacer/${part}/include/ DESTINATION include)
endforeach()
install(FILES ${PROJECT_BINARY_DIR}/generated/include/pacer/version.hpp
        DESTINATION include/pacer)
if(TARGET framepacer_engine_core)
  # engine/cli.hpp is framepacer_cli's (internal: CLI11, the programs' flag conventions), not installed.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/engine/include/ DESTINATION include PATTERN "cli.hpp" EXCLUDE)
endif()
install(EXPORT framepacerTargets NAMESPACE framepacer:: DESTINATION ${FP_CMAKE_DIR})

# The graphics (Vulkan through volk, GLFW, spdlog): a second export set, loaded by the
# package only where those are found (framepacerConfig.cmake).
set(FP_INSTALLED_GRAPHICS OFF)
if(TARGET framepacer_engine)
  set(FP_INSTALLED_GRAPHICS ON)
  install(TARGETS framepacer_volk framepacer_renderer framepacer_engine EXPORT framepacerGraphicsTargets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/renderer/include/ DESTINATION include)
  install(EXPORT framepacerGraphicsTargets NAMESPACE framepacer:: DESTINATION ${FP_CMAKE_DIR})
endif()

# The programs, when built.
foreach(tool pacer-sim pacer-report)
  if(TARGET ${tool})
    install(TARGETS ${tool} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/framepacerConfig.cmake.in
  ${PROJECT_BINARY_DIR}/framepacerConfig.cmake
  INSTALL_DESTINATION ${FP_CMAKE_DIR})
# 0.x: a minor version may change the API, so only the same minor version is compatible.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/framepacerConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/framepacerConfig.cmake ${PROJECT_BINARY_DIR}/framepacerConfigVersion.cmake
        DESTINATION ${FP_CMAKE_DIR})

# framepacer.pc: relocatable (prefix found from the file's own place), so an install with
# `cmake --install --prefix DIR` works without reconfiguring.
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  message(WARNING "framepacer.pc: CMAKE_INSTALL_LIBDIR is absolute; the file is not relocatable")
  set(FP_PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
else()
  file(RELATIVE_PATH fp_pc_up "/${CMAKE_INSTALL_LIBDIR}/pkgconfig" "/")
  string(REGEX REPLACE "/$" "" fp_pc_up "${fp_pc_up}")
  set(FP_PC_PREFIX "\${pcfiledir}/${fp_pc_up}")
endif()
configure_file(${PROJECT_SOURCE_DIR}/cmake/framepacer.pc.in ${PROJECT_BINARY_DIR}/framepacer.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/framepacer.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
