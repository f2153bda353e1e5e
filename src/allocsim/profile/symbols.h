#pragma once
// Function names for a text heap profile's addresses (jemalloc, gperftools, tcmalloc
// dumps hold only addresses and the memory map of the process), resolved from the
// files the map names, where they exist on this machine, by llvm-symbolizer run as a
// process ($ALLOCSIM_SYMBOLIZER, else llvm-symbolizer on the PATH: Debian's `llvm`).
// A file is used only if it is the one the process mapped: the inode the map
// names. A library of the same path on another machine, or after an upgrade, would
// give wrong names; its frames stay addresses.
//
// An address a in a mapping [start, limit) at file offset o is, in the file, the
// ELF virtual address a for a fixed-address executable (ET_EXEC) and
// a - start + o for a position-independent one or a shared library (ET_DYN), which
// holds where each loadable segment's p_vaddr equals its p_offset (what GNU ld and
// lld lay out). Return addresses (every frame but the leaf) are taken less 1, inside
// the call, as pprof does (legacy_profile.go).
//
// Each resolved location gets a function and a line in HeapProfile::pprof_message
// (so the annotated pprof carries the names), and each entry's frames the names. An
// entry's allocator frames, the leading ones inside the allocator (a mapping of
// libjemalloc, libtcmalloc, or a function such as malloc, je_*, tc_*, operator new),
// are counted in ProfileEntry::allocator_frames, so that tables start each stack at
// its first frame in the program.
#include <string>

#include "allocsim/profile/heap_profile.h"

namespace allocsim::profile {

// Resolves what it can; returns one line on where the names came from and what
// could not be named ("" when the profile has no memory map).
std::string symbolize(HeapProfile& profile);

}  // namespace allocsim::profile
