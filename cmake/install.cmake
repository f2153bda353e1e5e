# `cmake --install build --prefix P`: the CLI (P/bin), every layer's static library
# and headers (P/lib, P/include/allocsim/<layer>/), the CMake package that gives
# find_package(allocsim CONFIG) the target allocsim::allocsim (P/lib/cmake/allocsim),
# the schemas, example scenarios and conformance drivers (P/share/allocsim) and the
# licence. The Python package installs itself (python/CMakeLists.txt).
include(CMakePackageConfigHelpers)

get_property(allocsim_installed_layers GLOBAL PROPERTY ALLOCSIM_LAYERS)
set(allocsim_exported allocsim_external allocsim_core)
foreach(layer IN LISTS allocsim_installed_layers)
  list(APPEND allocsim_exported allocsim_${layer})
  set_target_properties(allocsim_${layer} PROPERTIES EXPORT_NAME ${layer})
  install(DIRECTORY src/allocsim/${layer}/ DESTINATION include/allocsim/${layer} FILES_MATCHING PATTERN "*.h")
endforeach()
set_target_properties(allocsim_external PROPERTIES EXPORT_NAME external)
set_target_properties(allocsim_core PROPERTIES EXPORT_NAME allocsim)

install(TARGETS ${allocsim_exported} EXPORT allocsimTargets ARCHIVE DESTINATION lib)
install(EXPORT allocsimTargets NAMESPACE allocsim:: DESTINATION lib/cmake/allocsim)
configure_package_config_file(cmake/allocsimConfig.cmake.in ${CMAKE_BINARY_DIR}/allocsimConfig.cmake
                              INSTALL_DESTINATION lib/cmake/allocsim)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/allocsimConfigVersion.cmake COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/allocsimConfig.cmake ${CMAKE_BINARY_DIR}/allocsimConfigVersion.cmake
        DESTINATION lib/cmake/allocsim)

install(TARGETS allocsim RUNTIME DESTINATION bin)
install(DIRECTORY schema/ DESTINATION share/allocsim/schema)
install(DIRECTORY scenarios/examples/ DESTINATION share/allocsim/scenarios/examples)
install(DIRECTORY conformance/ DESTINATION share/allocsim/conformance)
install(FILES LICENSE README.md DESTINATION share/doc/allocsim)
