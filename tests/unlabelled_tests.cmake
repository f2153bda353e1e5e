cmake_minimum_required(VERSION 3.25)  # IN_LIST
# cmake -DTESTS=BINARY -DFILTER=-SUITES -DSLOW=TESTS -P unlabelled_tests.cmake: fails
# listing the tests of the gtest BINARY that FILTER (every labelled suite, negated)
# leaves, the tests test_labels.cmake gave no label to; and listing the tests SLOW
# names that the binary does not have.
execute_process(COMMAND ${TESTS} --gtest_list_tests "--gtest_filter=${FILTER}"
                OUTPUT_VARIABLE listing RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TESTS} --gtest_list_tests failed (${status})")
endif()
string(REGEX MATCHALL "\n  [^\n]+" tests "\n${listing}")
if(tests)
  message(FATAL_ERROR "tests with no label (their suites are not found in tests/*_test.cpp):\n${listing}")
endif()

# Every test's full name, Suite.Name, from the listing's "Suite." and "  Name" lines.
execute_process(COMMAND ${TESTS} --gtest_list_tests OUTPUT_VARIABLE listing RESULT_VARIABLE status)
string(REPLACE "\n" ";" lines "${listing}")
set(names "")
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ ].*\\.)")
    set(suite "${CMAKE_MATCH_1}")
  elseif(line MATCHES "^  ([^ ]+)")
    list(APPEND names "${suite}${CMAKE_MATCH_1}")
  endif()
endforeach()
set(missing "")
foreach(test IN LISTS SLOW)
  if(NOT test IN_LIST names)
    list(APPEND missing ${test})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "ALLOCSIM_SLOW_TESTS (tests/CMakeLists.txt) names tests that do not exist: ${missing}")
endif()
