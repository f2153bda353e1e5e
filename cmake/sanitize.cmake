# The sanitizer build (-DALLOCSIM_SANITIZE=ON, clang only; scripts/build-sanitize.sh):
# AddressSanitizer and UndefinedBehaviorSanitizer on every target, any report fatal,
# and the coverage instrumentation libFuzzer needs, so this one build also holds the
# fuzz targets of fuzz/. -O1 keeps the instrumented tests fast enough to run.
option(ALLOCSIM_SANITIZE "ASan + UBSan build with the libFuzzer targets (clang)" OFF)
if(ALLOCSIM_SANITIZE)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ALLOCSIM_SANITIZE needs clang (CMAKE_CXX_COMPILER=clang++)")
  endif()
  add_compile_options(-O1 -gline-tables-only -fno-omit-frame-pointer -fsanitize=address,undefined
                      -fno-sanitize-recover=all -fsanitize=fuzzer-no-link)
  add_link_options(-fsanitize=address,undefined)
  # No precompiled headers: clang's are given as -Xclang options naming the build
  # tree's absolute paths, and the header it writes records those paths, so ccache could
  # serve no file of this build to another checkout (a fresh clone's sanitizer build ran
  # cold with a warm cache, 12.7 min; now 0.4 min).
  set(CMAKE_DISABLE_PRECOMPILE_HEADERS ON)
  # Instead the library's, the command line's and the tests' files are compiled eight to
  # a translation unit (cmake/unity.cmake), so the headers they share are parsed and
  # their templates compiled once per batch: with an empty cache this build took 9.7 min
  # instead of 17.5 (13.2 with precompiled headers), on a 2-core machine.
  set(ALLOCSIM_UNITY_BATCH 8)
  # The command line's files unoptimised: they instantiate the most templates (CLI11,
  # json), and optimising them under the sanitizers took a third of this build
  # (command_flaky.cpp: 46 s at -O1, 24 s at -O0); the command-line tests spend their
  # time in the library, at -O1. Not the test files: their copies of the library's
  # inline templates are the ones linked, and at -O0 the engine's determinism tests
  # took 216 s instead of 12.
  set(ALLOCSIM_SANITIZE_CLI_OPTIONS -O0)
  # The unit tests built here: those of the code that outside input reaches (scenario
  # and trace readers, the command line, results written and replaced, the engine on
  # those traces). Compiling all ~50 test files under the sanitizers takes longer than
  # ./test.sh can spend on a 2-core machine; the fuzz targets cover the readers beyond.
  set(ALLOCSIM_SANITIZE_TESTS
      "csv_reader|csv_trace|file_text|heaptrack_reader|native_trace|scenario_validation|synthetic_trace|skip_ahead|engine_determinism|cli|trace_cli|bad_input|results_directory|partial_state|profile_readers|profile_cli|profile_hostile_input|printable")
endif()
