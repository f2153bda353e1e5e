// `allocsim trace import|info|convert|generate`: reading, inspecting, converting
// and generating trace files (heaptrack, CSV, allocsim's native format).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>

#include "allocsim/json/json_reader.h"
#include "allocsim/trace/format/heaptrack_json.h"
#include "allocsim/trace/format/trace_format.h"
#include "allocsim/trace/synthetic.h"
#include "allocsim/trace/synthetic_file.h"
#include "allocsim/trace/trace_summary.h"
#include "allocsim/util/error.h"
#include "allocsim/util/interrupt_cleanup.h"
#include "allocsim/util/json_text.h"
#include "allocsim/util/output_path.h"
#include "allocsim/util/printable.h"
#include "commands.h"
#include "flag_checks.h"

namespace allocsim::cli {
namespace {

struct TraceOptions {
  std::string input;
  std::string output;
  std::string from = "auto";
  std::string to;  // empty: by the output file's name
  std::string pairing = "lifo";
  std::string clock = "events";
  std::string names_from;
  bool json = false;
  std::uint64_t seed = 1;
};

TraceFormat input_format(const TraceOptions& o) {
  const auto format = parse_trace_format(o.from);
  if (!format) throw InputError("--format must be auto, heaptrack, csv or native, got " + printable(o.from));
  return *format;
}

TraceFormat output_format(const TraceOptions& o) {
  if (o.to.empty()) return output_format_for(o.output);
  if (o.to == "csv") return TraceFormat::csv;
  if (o.to == "native") return TraceFormat::native;
  throw InputError("--to must be csv or native, got " + printable(o.to));
}

HeaptrackOptions heaptrack_options(const TraceOptions& o) {
  HeaptrackOptions options;
  options.pairing = o.pairing == "fifo" ? FreePairing::fifo : FreePairing::lifo;
  options.clock = o.clock == "milliseconds" ? HeaptrackClock::milliseconds : HeaptrackClock::events;
  options.names_from = o.names_from;
  return options;
}

void add_input_options(CLI::App& command, TraceOptions& o) {
  command.add_option("--format", o.from, "input format: auto (by content), heaptrack, csv, native");
  command
      .add_option("--pairing", o.pairing,
                  "heaptrack interpreted files: which live allocation of a (size, stack) a free releases")
      ->check(CLI::IsMember({"lifo", "fifo"}));
  command.add_option("--clock", o.clock, "heaptrack: time is the event order or the millisecond stamps")
      ->check(CLI::IsMember({"events", "milliseconds"}));
  command
      .add_option("--names-from", o.names_from,
                  "raw heaptrack file: frame names from the interpreted file of the same run (the command heaptrack -r "
                  "prints makes it)")
      ->check(CLI::ExistingFile);
}

// Refused before anything is read or written: an output that is its own input,
// lies in a missing directory or in a system directory (util/output_path.h).
void check_output_is_not_input(const TraceOptions& o, const std::string& output_name) {
  InputPaths inputs{o.input};
  if (!o.names_from.empty()) inputs.add(o.names_from);
  check_output_file(o.output, inputs, output_name);
}

TraceFile read_input(const TraceOptions& o) { return read_trace_file(o.input, input_format(o), heaptrack_options(o)); }

// One line on how frees were linked and what heaptrack did not record.
std::string heaptrack_note(const HeaptrackStats& h, const TraceOptions& o) {
  std::string note = "heaptrack " + std::string(to_string(h.kind)) + " file (heaptrack " + h.heaptrack_version +
                     ", format " + std::to_string(h.file_version) + "): ";
  if (h.kind == HeaptrackKind::raw) {
    note += "frees linked by pointer (exact lifetimes); no end mark, so a recording cut at a line boundary "
            "cannot be told from a whole one";
    if (h.unmatched_frees > 0) {
      note += ", " + std::to_string(h.unmatched_frees) + " frees of pointers allocated before tracking skipped";
    }
    note += o.names_from.empty() ? "; frames as module+offset (--names-from names them)"
                                 : "; frame names from " + printable_name(o.names_from);
  } else {
    note += "frees name only (size, stack): " + std::to_string(h.ambiguous_frees) + " ambiguous, paired " + o.pairing +
            " (live heap approximate)";
  }
  note += "; no thread ids recorded (all on thread 0)";
  if (h.attached) note += "; attached mid-run: earlier allocations unknown";
  return note;
}

void print_summary_text(const TraceFile& file, const TraceSummary& s, const TraceOptions& o) {
  std::printf("file         %s (%s)\n", o.input.c_str(), to_string(file.format));
  if (file.heaptrack) {
    std::printf("command      %s\n", file.heaptrack->command.c_str());
    std::printf("             %s\n", heaptrack_note(*file.heaptrack, o).c_str());
  }
  std::printf("allocations  %llu (%llu bytes requested)\n", static_cast<unsigned long long>(s.allocations),
              static_cast<unsigned long long>(s.bytes));
  std::printf("frees        %llu\n", static_cast<unsigned long long>(s.frees));
  std::printf("live at end  %llu (%llu bytes)\n", static_cast<unsigned long long>(s.live_allocations),
              static_cast<unsigned long long>(s.live_bytes));
  std::printf("live at peak %llu bytes at time %llu\n", static_cast<unsigned long long>(s.peak_live_bytes),
              static_cast<unsigned long long>(s.peak_time));
  std::printf("threads      %u   stacks %u   types %u\n", s.threads, s.stacks, s.types);
  std::printf("time         %llu .. %llu\n", static_cast<unsigned long long>(s.first_time),
              static_cast<unsigned long long>(s.last_time));
  std::printf("size histogram (requested bytes):\n");
  for (const auto& b : s.size_histogram) {
    std::printf("  %-22s %12llu allocations %16llu bytes\n", b.label.c_str(),
                static_cast<unsigned long long>(b.allocations), static_cast<unsigned long long>(b.bytes));
  }
  std::printf("top stacks by bytes:\n");
  for (const auto& st : s.top_stacks) {
    std::printf("  %14llu bytes %10llu allocations  %s\n", static_cast<unsigned long long>(st.bytes),
                static_cast<unsigned long long>(st.allocations), st.name.c_str());
  }
}

void add_info(CLI::App& trace, int& exit_code) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* command = trace.add_subcommand("info", "counts, bytes, size histogram and top stacks of a trace file");
  command->add_option("FILE", o->input, "trace file")->required();
  command->add_flag("--json", o->json, "machine-readable output");
  add_input_options(*command, *o);
  command->callback([o, &exit_code] {
    const TraceFile file = read_input(*o);
    const TraceSummary summary = summarize_trace(file.trace, o->input);
    if (o->json) {
      nlohmann::ordered_json out{{"file", o->input}, {"format", to_string(file.format)}};
      out.update(to_json(summary));
      if (file.heaptrack) out["heaptrack"] = to_json(*file.heaptrack, heaptrack_options(*o));
      // Names come from the file as they are; bytes that are not UTF-8 print as U+FFFD.
      std::printf("%s\n", json_text(out, 2).c_str());
    } else {
      print_summary_text(file, summary, *o);
    }
    exit_code = 0;
  });
}

// import and convert: read any format, write csv or native.
void add_conversion(CLI::App& trace, int& exit_code, const char* name, const char* help, bool output_flag) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* command = trace.add_subcommand(name, help);
  command->add_option(output_flag ? "FILE" : "IN", o->input, "trace file to read")->required();
  if (output_flag) {
    command->add_option("-o,--output", o->output, "file to write (.csv: CSV, else native)")->required();
  } else {
    command->add_option("OUT", o->output, "file to write (.csv: CSV, else native)")->required();
  }
  command->add_option("--to", o->to, "output format: csv or native (default: by the output name)");
  add_input_options(*command, *o);
  command->callback([o, &exit_code, output_name = std::string(output_flag ? "--output" : "OUT")] {
    handle_interrupts();
    check_output_is_not_input(*o, output_name);
    const TraceFormat to = output_format(*o);
    const TraceFile file = read_input(*o);
    write_trace_file(file.trace, o->output, to);
    if (file.heaptrack) std::printf("%s: %s\n", o->input.c_str(), heaptrack_note(*file.heaptrack, *o).c_str());
    std::printf("wrote %s (%s): %zu allocations, %u stacks, %u threads\n", o->output.c_str(), to_string(to),
                file.trace.size(), file.trace.stack_count, file.trace.thread_count);
    exit_code = 0;
  });
}

void add_generate(CLI::App& trace, int& exit_code) {
  auto o = std::make_shared<TraceOptions>();
  CLI::App* command = trace.add_subcommand("generate", "write the trace a synthetic spec (JSON) describes");
  command->add_option("SPEC", o->input, "synthetic trace spec, as a scenario's \"trace\" object")->required();
  command->add_option("-o,--output", o->output, "file to write (.csv: CSV, else native)")->required();
  command->add_option("--to", o->to, "output format: csv or native (default: by the output name)");
  command->add_option("--seed", o->seed, "seed, unless the spec fixes its own")->check(seed_number());
  command->callback([o, &exit_code] {
    handle_interrupts();
    check_output_is_not_input(*o, "--output");
    const TraceFormat to = output_format(*o);
    // A native file is written piece by piece, so its size is not bounded by memory.
    const SyntheticTarget target = to == TraceFormat::native ? SyntheticTarget::file : SyntheticTarget::memory;
    const nlohmann::json json = parse_json_file(o->input);
    SyntheticSpec spec;
    try {
      JsonObject root(json, "$");
      if (auto kind = root.maybe("kind"); kind && kind->string() != "synthetic") {
        kind->fail("only synthetic specs can be generated");
      }
      spec = parse_synthetic_spec(root, target);
    } catch (const InputError& e) {
      throw InputError(o->input + ": " + e.what());
    }
    SyntheticFileSummary written;
    if (target == SyntheticTarget::file) {
      written = write_synthetic_native(spec, o->seed, o->output, o->input + ": $");
    } else {
      const Trace trace = generate_synthetic(spec, o->seed, o->input + ": $");
      write_trace_file(trace, o->output, to);
      written = {trace.size(), trace.stack_count, trace.thread_count};
    }
    std::printf("wrote %s (%s): %llu allocations, %u stacks, %u threads\n", o->output.c_str(), to_string(to),
                static_cast<unsigned long long>(written.events), written.stacks, written.threads);
    exit_code = 0;
  });
}

}  // namespace

void add_trace_command(CLI::App& app, int& exit_code) {
  CLI::App* trace = app.add_subcommand("trace", "trace files: import, info (what one holds), convert, generate");
  trace->require_subcommand(1);
  add_conversion(*trace, exit_code, "import", "read a recorded trace (heaptrack) and write it as native or CSV", true);
  add_info(*trace, exit_code);
  add_conversion(*trace, exit_code, "convert", "convert a trace file to native or CSV", false);
  add_generate(*trace, exit_code);
}

}  // namespace allocsim::cli
