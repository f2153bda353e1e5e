#pragma once
// Byte amounts as people read them, in binary units (as sizes are typed on the
// command line: "512KiB").
#include <string>

namespace allocsim {

// An amount read at a glance, three significant digits: "950 B", "412 KiB", "1.4 MiB".
std::string bytes_approx(double bytes);

// A setting as it can be typed back: "32 KiB" when it is a whole number of a unit, else
// the whole bytes: "14227 B" (never "13.9 KiB", which is not the value that ran).
std::string bytes_exact(double bytes);

}  // namespace allocsim
