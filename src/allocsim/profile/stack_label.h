#pragma once
// A stack as every table shows it (`allocsim profile`'s terminal and HTML tables,
// `allocsim diff`'s and `allocsim aggregate`'s): leaf first from the first frame in
// the program, past the allocator's leading frames (symbols.h; from the leaf when
// that leaves none), each frame followed by its caller after " < ", at most `depth`
// frames and " < ..." when more follow, control characters escaped (printable_name).
// CSV, JSON and pprof outputs keep the stack as matched instead (entry_match.h): it
// is their key.
#include <cstddef>
#include <string>
#include <vector>

namespace allocsim::profile {

// Frames a terminal table shows, so that a row fits a line.
inline constexpr std::size_t kTableFrames = 3;

// kNoFrames for a stack of no frames.
std::string stack_label(const std::vector<std::string>& frames, std::size_t allocator_frames, std::size_t depth);

}  // namespace allocsim::profile
