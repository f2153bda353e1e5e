# allocsim_layer(NAME [LOWER_LAYER ...]) defines the library target allocsim_NAME from
# src/allocsim/NAME/ and links the layers it builds on. Each layer gets an include
# directory of its own under the build tree that holds only allocsim/NAME (a link to
# the source folder); a target sees the include directories of the layers it links,
# so it can include exactly its own headers and those of the layers below it.
set(ALLOCSIM_LAYER_ROOT ${CMAKE_BINARY_DIR}/layers)
set_property(GLOBAL PROPERTY ALLOCSIM_LAYERS "")

function(allocsim_layer name)
  set(folder ${PROJECT_SOURCE_DIR}/src/allocsim/${name})
  set(include_root ${ALLOCSIM_LAYER_ROOT}/${name})
  file(MAKE_DIRECTORY ${include_root}/allocsim)
  file(CREATE_LINK ${folder} ${include_root}/allocsim/${name} SYMBOLIC)

  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${folder}/*.cpp)
  set(target allocsim_${name})
  if(sources)
    allocsim_unity_batches(compiled ${folder} allocsim/${name}/ ${sources})
    add_library(${target} STATIC ${compiled})
    # Position-independent, so the Python module (a shared object) can link it.
    set_target_properties(${target} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    # The other projects' headers most files parse (ALLOCSIM_PRECOMPILED_HEADERS),
    # precompiled once by the first layer and used by every layer: they are not
    # allocsim's headers, so the layers' boundaries stay as they are.
    get_property(precompiled_by GLOBAL PROPERTY ALLOCSIM_PRECOMPILED_BY)
    if(precompiled_by)
      target_precompile_headers(${target} REUSE_FROM ${precompiled_by})
    else()
      target_precompile_headers(${target} PRIVATE ${ALLOCSIM_PRECOMPILED_HEADERS})
      set_property(GLOBAL PROPERTY ALLOCSIM_PRECOMPILED_BY ${target})
    endif()
    set(scope PUBLIC)
  else()
    add_library(${target} INTERFACE)
    set(scope INTERFACE)
  endif()
  target_include_directories(${target} ${scope} $<BUILD_INTERFACE:${include_root}>
                             $<INSTALL_INTERFACE:include>)
  target_link_libraries(${target} ${scope} allocsim_external)
  foreach(lower IN LISTS ARGN)
    if(NOT TARGET allocsim_${lower})
      message(FATAL_ERROR "layer ${name} names ${lower}, which is not defined below it")
    endif()
    target_link_libraries(${target} ${scope} allocsim_${lower})
  endforeach()
  set_property(GLOBAL APPEND PROPERTY ALLOCSIM_LAYERS ${name})
endfunction()

# Every folder of src/allocsim is a layer: a new folder must be placed in the order.
function(allocsim_check_layers_cover_sources)
  get_property(layers GLOBAL PROPERTY ALLOCSIM_LAYERS)
  file(GLOB entries LIST_DIRECTORIES true RELATIVE ${PROJECT_SOURCE_DIR}/src/allocsim
       ${PROJECT_SOURCE_DIR}/src/allocsim/*)
  foreach(entry IN LISTS entries)
    if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/src/allocsim/${entry} AND NOT entry IN_LIST layers)
      message(FATAL_ERROR "src/allocsim/${entry} is not a layer: add allocsim_layer(${entry} ...) in order")
    endif()
  endforeach()
endfunction()
