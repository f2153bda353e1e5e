#pragma once
// Runs gnuplot on a script, in a given directory, and reports failure with what
// gnuplot printed. A missing gnuplot binary is an InputError that says what to
// install.
#include <string>
#include <vector>

namespace allocsim {

// The gnuplot program: $ALLOCSIM_GNUPLOT if set, else "gnuplot" on the PATH.
std::string gnuplot_program();

// Runs `gnuplot -e <preamble> <script>` with `directory` as working directory.
// Throws InputError if it cannot start or exits non-zero.
void run_gnuplot(const std::string& directory, const std::string& preamble, const std::string& script);

}  // namespace allocsim
