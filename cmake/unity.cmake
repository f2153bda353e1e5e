# allocsim_unity_batches(RESULT SOURCE_DIR INCLUDE_PREFIX SOURCES...) sets RESULT to the
# files a target compiles for SOURCES. When ALLOCSIM_UNITY_BATCH is set (the sanitizer
# build, cmake/sanitize.cmake) those are batches of that many sources, each batch one
# translation unit that includes them, so the headers they share (json, CLI11, Boost,
# allocsim's own) are parsed and their templates compiled once per batch instead of
# once per file. Otherwise RESULT is SOURCES.
#
# A batch includes each source by its path under one of the target's include
# directories (INCLUDE_PREFIX, then the path under SOURCE_DIR), not by an absolute path
# as CMake's UNITY_BUILD does, so a batch reads the same in every checkout and ccache
# serves it across checkouts (scripts/build.sh). The sources share one translation unit,
# so names in their anonymous namespaces must differ: a redefinition fails to compile, an
# overload does not (src/allocsim/README.md).
function(allocsim_unity_batches result source_dir include_prefix)
  set(sources ${ARGN})
  if(NOT ALLOCSIM_UNITY_BATCH)
    set(${result} ${sources} PARENT_SCOPE)
    return()
  endif()
  file(RELATIVE_PATH name ${PROJECT_SOURCE_DIR} ${source_dir})
  string(REPLACE "/" "_" name "${name}")
  set(batches "")
  set(text "")
  set(in_batch 0)
  list(LENGTH sources remaining)
  foreach(source IN LISTS sources)
    file(RELATIVE_PATH path ${source_dir} ${source})
    string(APPEND text "#include \"${include_prefix}${path}\"\n")
    math(EXPR in_batch "${in_batch} + 1")
    math(EXPR remaining "${remaining} - 1")
    if(in_batch EQUAL ALLOCSIM_UNITY_BATCH OR remaining EQUAL 0)
      list(LENGTH batches index)
      set(batch ${CMAKE_BINARY_DIR}/unity/${name}_${index}.cpp)
      # Rewritten only when its list changes, so an unchanged batch is not recompiled.
      file(GENERATE OUTPUT ${batch} CONTENT "// A unity batch (cmake/unity.cmake).\n${text}")
      list(APPEND batches ${batch})
      set(text "")
      set(in_batch 0)
    endif()
  endforeach()
  set(${result} ${batches} PARENT_SCOPE)
endfunction()
