#pragma once
// --jemalloc-unbias on|off, for every command that reads heap profiles (profile, diff,
// aggregate): jemalloc 5.3 writes prof_unbias values (its default) or raw counts, and
// the file does not say which (profile::ReadOptions::jemalloc_unbias).
#include <CLI/CLI.hpp>

#include "allocsim/profile/read_profile.h"

namespace allocsim::cli {

// Adds the option to `command`; it sets `read.jemalloc_unbias` (which must outlive the
// parse) and refuses any value but on and off in one line (exit 2).
void add_jemalloc_unbias_option(CLI::App& command, profile::ReadOptions& read);

}  // namespace allocsim::cli
