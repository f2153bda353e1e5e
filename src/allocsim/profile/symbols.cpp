#include "allocsim/profile/symbols.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "allocsim/profile/pprof_strings.h"
#include "allocsim/profile/profile.pb.h"
#include "allocsim/util/child_process.h"

namespace allocsim::profile {
namespace {

// Addresses per llvm-symbolizer run: its command line stays far below ARG_MAX.
constexpr std::size_t kAddressesPerRun = 2000;

std::string symbolizer_program() {
  const char* program = std::getenv("ALLOCSIM_SYMBOLIZER");
  return program != nullptr && *program != '\0' ? program : "llvm-symbolizer";
}

enum class ElfKind { missing, replaced, fixed, relocatable };

// What the mapped file's ELF header says (e_type at byte 16: 2 = ET_EXEC, 3 =
// ET_DYN); `replaced` when the file at that path is not the one the process mapped
// (another inode: a different machine, or an upgrade since), whose names would be
// wrong.
ElfKind elf_kind(const MappedRange& range) {
  const std::string& file = range.file;
  struct stat status {};
  if (file.empty() || file[0] != '/' || ::stat(file.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) {
    return ElfKind::missing;
  }
  if (range.inode != 0 && status.st_ino != range.inode) return ElfKind::replaced;
  std::ifstream in(file, std::ios::binary);
  unsigned char header[18] = {};
  if (!in.read(reinterpret_cast<char*>(header), sizeof header)) return ElfKind::missing;
  if (header[0] != 0x7f || header[1] != 'E' || header[2] != 'L' || header[3] != 'F') return ElfKind::missing;
  const unsigned type = header[5] == 2 ? (header[16] << 8u) | header[17] : header[16] | (header[17] << 8u);
  return type == 2 ? ElfKind::fixed : type == 3 ? ElfKind::relocatable : ElfKind::missing;
}

struct Resolved {
  std::string function;
  std::string file;
  std::int64_t line = 0;
};

// llvm-symbolizer's answer for each address, in order: "function\nfile:line:column\n\n"
// per address, "??" where it knows nothing. Empty when it cannot run.
std::optional<std::vector<Resolved>> run_symbolizer(const std::string& program, const std::string& file,
                                                    const std::vector<std::uint64_t>& addresses) {
  std::vector<std::string> argv = {program, "--obj=" + file, "--no-inlines", "--functions=linkage", "--demangle"};
  for (const std::uint64_t address : addresses) {
    char text[24];
    std::snprintf(text, sizeof text, "0x%llx", static_cast<unsigned long long>(address));
    argv.emplace_back(text);
  }
  const std::optional<ProgramOutput> run = run_program(argv);
  if (!run || !run->exited || run->exit_code != 0) return std::nullopt;
  std::vector<Resolved> answers;
  std::string_view rest = run->output;
  std::vector<std::string_view> block;
  const auto finish = [&] {
    if (block.empty()) return;
    Resolved resolved;
    if (block[0] != "??") resolved.function = std::string(block[0]);
    if (block.size() > 1) {
      const std::string_view where = block[1];
      const std::size_t colon = where.find(':');
      if (colon != std::string_view::npos && where.substr(0, colon) != "??") {
        resolved.file = std::string(where.substr(0, colon));
        resolved.line = std::atoll(std::string(where.substr(colon + 1)).c_str());
      }
    }
    answers.push_back(std::move(resolved));
    block.clear();
  };
  while (!rest.empty()) {
    const std::size_t end = std::min(rest.find('\n'), rest.size());
    const std::string_view line = rest.substr(0, end);
    rest.remove_prefix(std::min(end + 1, rest.size()));
    if (line.empty()) {
      finish();
    } else {
      block.push_back(line);
    }
  }
  finish();
  if (answers.size() != addresses.size()) return std::nullopt;
  return answers;
}

std::string_view base_name(std::string_view path) {
  const std::size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

// Whether a frame is the allocator's own: in an allocator library, or a function of
// the allocation path (the entry points pprof drops too, legacy_profile.go allocRxStr,
// and jemalloc's and tcmalloc's internal prefixes).
bool allocator_frame(std::string_view mapped_file, std::string_view function) {
  const std::string_view library = base_name(mapped_file);
  for (const std::string_view prefix : {"libjemalloc", "libtcmalloc", "libmimalloc"}) {
    if (library.substr(0, prefix.size()) == prefix) return true;
  }
  if (function.empty()) return false;
  for (const std::string_view name :
       {"malloc", "calloc", "realloc", "free", "memalign", "posix_memalign", "aligned_alloc", "valloc", "pvalloc",
        "__libc_malloc", "operator new", "operator new[]"}) {
    if (function == name || function.substr(0, name.size() + 1) == std::string(name) + "(") return true;
  }
  for (const std::string_view prefix : {"je_", "prof_", "imalloc", "tc_", "tcmalloc::"}) {
    if (function.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

}  // namespace

std::string symbolize(HeapProfile& profile) {
  pprof::Profile message;
  if (profile.pprof_message.empty() || !message.ParseFromString(profile.pprof_message) || message.mapping_size() == 0) {
    return "";
  }
  PprofStrings strings(message);
  const auto file_of = [&](std::uint64_t mapping_id) -> std::string {
    if (mapping_id == 0 || mapping_id > static_cast<std::uint64_t>(message.mapping_size())) return "";
    return message.string_table(static_cast<int>(message.mapping(static_cast<int>(mapping_id - 1)).filename()));
  };
  // Addresses to resolve, by mapping, in the file's own address space.
  std::map<std::uint64_t, std::vector<int>> locations_of;  // mapping id -> location indexes
  for (int l = 0; l < message.location_size(); ++l) {
    const auto& location = message.location(l);
    if (location.line_size() == 0 && location.mapping_id() != 0) locations_of[location.mapping_id()].push_back(l);
  }
  const std::string program = symbolizer_program();
  std::vector<std::string> missing_files, replaced_files;
  bool ran = false, no_program = false;
  std::map<std::pair<std::string, std::string>, std::uint64_t> function_ids;
  std::vector<std::string> names(static_cast<std::size_t>(message.location_size()));
  for (const auto& [mapping_id, locations] : locations_of) {
    const auto& mapping = message.mapping(static_cast<int>(mapping_id - 1));
    if (mapping_id > profile.memory_map.size()) continue;
    const std::string& file = profile.memory_map[mapping_id - 1].file;  // as the map wrote it, not made UTF-8
    const ElfKind kind = elf_kind(profile.memory_map[mapping_id - 1]);
    if (kind == ElfKind::missing || kind == ElfKind::replaced) {
      if (!file.empty() && file[0] == '/') (kind == ElfKind::missing ? missing_files : replaced_files).push_back(file);
      continue;
    }
    if (no_program) continue;
    for (std::size_t first = 0; first < locations.size(); first += kAddressesPerRun) {
      const std::size_t last = std::min(locations.size(), first + kAddressesPerRun);
      std::vector<std::uint64_t> addresses;
      for (std::size_t i = first; i < last; ++i) {
        const std::uint64_t address = message.location(locations[i]).address();
        addresses.push_back(kind == ElfKind::fixed ? address
                                                   : address - mapping.memory_start() + mapping.file_offset());
      }
      const auto answers = run_symbolizer(program, file, addresses);
      if (!answers) {
        no_program = !run_program({program, "--version"}).has_value();
        break;
      }
      ran = true;
      for (std::size_t i = first; i < last; ++i) {
        const Resolved& resolved = (*answers)[i - first];
        if (resolved.function.empty()) continue;
        auto* location = message.mutable_location(locations[i]);
        const auto key = std::make_pair(resolved.function, resolved.file);
        auto [it, added] = function_ids.emplace(key, message.function_size() + 1);
        if (added) {
          auto* function = message.add_function();
          function->set_id(it->second);
          function->set_name(strings(resolved.function));
          function->set_system_name(function->name());
          function->set_filename(strings(resolved.file));
        }
        auto* line = location->add_line();
        line->set_function_id(it->second);
        line->set_line(resolved.line);
        names[static_cast<std::size_t>(locations[i])] = resolved.function;
      }
    }
  }
  // Entries: names for their frames (one frame per location in a text profile), and
  // their leading allocator frames.
  std::map<std::uint64_t, int> location_index;
  for (int l = 0; l < message.location_size(); ++l) location_index.emplace(message.location(l).id(), l);
  for (ProfileEntry& entry : profile.entries) {
    const auto& sample = message.sample(static_cast<int>(entry.source_sample));
    if (static_cast<std::size_t>(sample.location_id_size()) != entry.frames.size()) continue;
    bool in_allocator = true;
    for (std::size_t f = 0; f < entry.frames.size(); ++f) {
      const int l = location_index.at(sample.location_id(static_cast<int>(f)));
      const std::string& name = names[static_cast<std::size_t>(l)];
      if (!name.empty()) entry.frames[f] = name;
      in_allocator = in_allocator && allocator_frame(file_of(message.location(l).mapping_id()), name);
      if (in_allocator && f + 1 < entry.frames.size()) entry.allocator_frames = f + 1;
    }
  }
  profile.pprof_message = message.SerializeAsString();
  std::string note;
  if (ran) note = "function names from the mapped files by " + program;
  if (no_program) note = program + " not found (Debian package llvm): frames are addresses";
  const auto add = [&note](const std::vector<std::string>& files, const char* what) {
    if (files.empty()) return;
    if (!note.empty()) note += "; ";
    note += std::to_string(files.size()) + " mapped file" + (files.size() == 1 ? " is" : "s are") + what + " (" +
            files.front() + (files.size() > 1 ? ", ..." : "") + "): their frames are addresses";
  };
  add(missing_files, " not on this machine");
  add(replaced_files, " not the file the process mapped (another inode)");
  return note;
}

}  // namespace allocsim::profile
