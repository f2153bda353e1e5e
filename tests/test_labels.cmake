# allocsim_discover_tests_by_label(TARGET SOURCES): the gtest tests of TARGET, built
# from SOURCES (tests/*_test.cpp), discovered with the labels ALLOCSIM_TEST_LABELS
# gives each file (tests/CMakeLists.txt). A file's tests are found by their suites
# (the first argument of TEST, TEST_F and TEST_P): one discovery per set of labels,
# filtered to its suites. The labels are set from a file ctest includes after the
# discovered tests (gtest_discover_tests's PROPERTIES cannot carry a list).
#
# Configuring fails when a file has no labels, an entry names no file or an unknown
# label, a file defines no suite, or one suite is split over files with different
# labels. The test EveryTestHasALabel fails when the binary has a test outside every
# filter (a TEST the pattern here does not see), or a test ALLOCSIM_SLOW_TESTS names
# is not in the binary.

# The gtest filter of a suite: TEST and TEST_F (Suite.Name), TEST_P instantiations
# (Prefix/Suite.Name/N) and typed tests (Suite/N.Name).
function(allocsim_suite_filter suite out)
  set(${out} "${suite}.*:*/${suite}.*:${suite}/*" PARENT_SCOPE)
endfunction()

# Reads ALLOCSIM_TEST_LABELS into labels_of_<file> in the caller's scope.
macro(allocsim_read_test_labels)
  foreach(entry IN LISTS ALLOCSIM_TEST_LABELS)
    if(NOT entry MATCHES "^([a-z0-9_]+)=([a-z,]+)$")
      message(FATAL_ERROR "ALLOCSIM_TEST_LABELS: \"${entry}\" is not file=label,label")
    endif()
    set(_file ${CMAKE_MATCH_1})
    string(REPLACE "," ";" _labels "${CMAKE_MATCH_2}")
    foreach(_label IN LISTS _labels)
      if(NOT _label IN_LIST ALLOCSIM_TEST_LABEL_NAMES)
        message(FATAL_ERROR "ALLOCSIM_TEST_LABELS: ${_file}: unknown label ${_label} "
                            "(known: ${ALLOCSIM_TEST_LABEL_NAMES})")
      endif()
    endforeach()
    if(NOT EXISTS ${CMAKE_CURRENT_SOURCE_DIR}/${_file}_test.cpp)
      message(FATAL_ERROR "ALLOCSIM_TEST_LABELS: ${_file}: there is no tests/${_file}_test.cpp")
    endif()
    list(SORT _labels)
    set(labels_of_${_file} "${_labels}")
  endforeach()
endmacro()

function(allocsim_discover_tests_by_label target sources)
  allocsim_read_test_labels()
  set(groups "")
  set(every_suite "")
  foreach(source IN LISTS sources)
    get_filename_component(name ${source} NAME_WE)
    string(REGEX REPLACE "_test$" "" file ${name})
    if(NOT DEFINED labels_of_${file})
      message(FATAL_ERROR "tests/${name}.cpp has no labels: add ${file}=LABEL,... to ALLOCSIM_TEST_LABELS "
                          "in tests/CMakeLists.txt (labels: ${ALLOCSIM_TEST_LABEL_NAMES})")
    endif()
    string(REPLACE ";" "_" group "${labels_of_${file}}")
    set(group_labels_${group} "${labels_of_${file}}")
    list(APPEND groups ${group})
    file(STRINGS ${source} lines REGEX "^(TEST|TEST_F|TEST_P|TYPED_TEST|TYPED_TEST_P)\\(")
    if(NOT lines)
      message(FATAL_ERROR "tests/${name}.cpp: no TEST, TEST_F or TEST_P at the start of a line")
    endif()
    foreach(line IN LISTS lines)
      string(REGEX REPLACE "^[A-Z_]+\\(([A-Za-z0-9_]+),.*$" "\\1" suite "${line}")
      if(DEFINED group_of_${suite} AND NOT group_of_${suite} STREQUAL group)
        message(FATAL_ERROR "test suite ${suite} is in tests/${name}.cpp and in a file with other labels; "
                            "give one of them another suite name")
      endif()
      if(NOT DEFINED group_of_${suite})
        set(group_of_${suite} ${group})
        list(APPEND suites_of_${group} ${suite})
        list(APPEND every_suite ${suite})
      endif()
    endforeach()
  endforeach()
  list(REMOVE_DUPLICATES groups)

  set(label_script "# Written by tests/test_labels.cmake: the labels of each group of tests.\n")
  foreach(group IN LISTS groups)
    set(filters "")
    foreach(suite IN LISTS suites_of_${group})
      allocsim_suite_filter(${suite} filter)
      list(APPEND filters "${filter}")
    endforeach()
    string(JOIN ":" filter ${filters})
    gtest_discover_tests(${target} TEST_FILTER "${filter}" TEST_LIST ${target}_${group} DISCOVERY_TIMEOUT 60)
    string(APPEND label_script "if(${target}_${group})\n"
                               "  set_tests_properties(\${${target}_${group}} PROPERTIES LABELS \"${group_labels_${group}}\")\n"
                               "endif()\n")
  endforeach()
  # The slow tests: their file's labels and slow. A test's ctest name may carry its
  # parameter after its gtest name ("Prefix/Suite.Name/param  # GetParam() = ...").
  set(slow_in_build "")
  foreach(test IN LISTS ALLOCSIM_SLOW_TESTS)
    if(NOT test MATCHES "^([A-Za-z0-9_]+/)?([A-Za-z0-9_]+)[./]")
      message(FATAL_ERROR "ALLOCSIM_SLOW_TESTS: ${test} is not a gtest name (Suite.Name)")
    endif()
    set(suite ${CMAKE_MATCH_2})
    if(DEFINED group_of_${suite})  # else its file is left out of this build (ALLOCSIM_SANITIZE)
      list(APPEND slow_of_${group_of_${suite}} ${test})
      list(APPEND slow_in_build ${test})
    endif()
  endforeach()
  foreach(group IN LISTS groups)
    if(NOT slow_of_${group})
      continue()
    endif()
    set(conditions "")
    foreach(test IN LISTS slow_of_${group})
      list(APPEND conditions "_name STREQUAL [==[${test}]==]")
    endforeach()
    string(JOIN " OR " condition ${conditions})
    set(labels ${group_labels_${group}} slow)
    string(APPEND label_script "foreach(_test IN LISTS ${target}_${group})\n"
                               "  string(REGEX REPLACE \"  # .*$\" \"\" _name \"\${_test}\")\n"
                               "  if(${condition})\n"
                               "    set_tests_properties(\"\${_test}\" PROPERTIES LABELS \"${labels}\")\n"
                               "  endif()\n"
                               "endforeach()\n")
  endforeach()
  set(label_file ${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake)
  file(WRITE ${label_file} "${label_script}")
  # After the include files of the discoveries above, so their test lists are defined.
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES ${label_file})

  set(filters "")
  foreach(suite IN LISTS every_suite)
    allocsim_suite_filter(${suite} filter)
    list(APPEND filters "${filter}")
  endforeach()
  string(JOIN ":" every_filter ${filters})
  add_test(NAME EveryTestHasALabel
           COMMAND ${CMAKE_COMMAND} -DTESTS=$<TARGET_FILE:${target}> "-DFILTER=-${every_filter}"
                   "-DSLOW=${slow_in_build}"
                   -P ${CMAKE_CURRENT_SOURCE_DIR}/unlabelled_tests.cmake)
  set_tests_properties(EveryTestHasALabel PROPERTIES LABELS exact)
endfunction()
