#include "allocsim/trace/format/csv_trace.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "allocsim/format/csv.h"
#include "allocsim/json/json_reader.h"
#include "allocsim/trace/format/atomic_output.h"
#include "allocsim/trace/format/line_reader.h"
#include "allocsim/util/error.h"
#include "allocsim/util/printable.h"

namespace allocsim {

namespace {

enum class CsvColumn : std::size_t { thread, op, size, stack, type, time, id, allocated };
constexpr std::size_t kColumns = 8;
constexpr std::size_t kRequiredColumns = 7;  // all but allocated
constexpr std::array<std::string_view, kColumns> kColumnNames = {"thread", "op",   "size", "stack",
                                                                 "type",   "time", "id",   "allocated"};

constexpr std::size_t index(CsvColumn c) { return static_cast<std::size_t>(c); }
std::string name_of(CsvColumn c) { return std::string(kColumnNames[index(c)]); }

std::string known_columns() {
  std::string out;
  for (auto name : kColumnNames) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

// Which column each header field is; nullopt if the line is no header of this format.
std::optional<std::vector<CsvColumn>> parse_header(std::string_view line, std::string* error) {
  std::vector<CsvColumn> columns;
  std::array<bool, kColumns> seen{};
  while (true) {
    const std::size_t comma = line.find(',');
    const std::string_view name = line.substr(0, comma);
    const auto it = std::find(kColumnNames.begin(), kColumnNames.end(), name);
    if (it == kColumnNames.end()) {
      if (error) *error = "unknown column " + printable(name) + " (known: " + known_columns() + ")";
      return std::nullopt;
    }
    const auto column = static_cast<CsvColumn>(it - kColumnNames.begin());
    if (seen[index(column)]) {
      if (error) *error = "column " + printable(name) + " appears twice";
      return std::nullopt;
    }
    seen[index(column)] = true;
    columns.push_back(column);
    if (comma == std::string_view::npos) break;
    line.remove_prefix(comma + 1);
  }
  for (std::size_t c = 0; c < kRequiredColumns; ++c) {
    if (!seen[c]) {
      if (error) *error = "missing column \"" + std::string(kColumnNames[c]) + "\"";
      return std::nullopt;
    }
  }
  return columns;
}

// Splits one line into RFC 4180 fields (quoted fields cannot span lines here).
void split_fields(std::string_view line, std::vector<std::string>& fields, const LineReader& reader) {
  fields.clear();
  std::size_t at = 0;
  while (true) {
    std::string& field = fields.emplace_back();
    if (at < line.size() && line[at] == '"') {
      for (++at;; ++at) {
        if (at >= line.size()) reader.fail("unterminated quoted field");
        if (line[at] == '"') {
          if (at + 1 < line.size() && line[at + 1] == '"') {
            field += '"';
            ++at;
          } else {
            ++at;
            break;
          }
        } else {
          field += line[at];
        }
      }
      if (at < line.size() && line[at] != ',') reader.fail("text after a closing quote");
    } else {
      const std::size_t comma = line.find(',', at);
      field.assign(line.substr(at, comma == std::string_view::npos ? std::string_view::npos : comma - at));
      at = comma == std::string_view::npos ? line.size() : comma;
    }
    if (at >= line.size()) return;
    ++at;  // the comma
  }
}

std::optional<std::uint64_t> parse_decimal(std::string_view text, bool* overflow = nullptr) {
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (overflow) *overflow = ec == std::errc::result_out_of_range;
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Distinct values of a column, each with a dense id in order of first appearance.
class ValueIds {
 public:
  std::uint32_t id(const std::string& value, const LineReader& reader) {
    auto [it, inserted] = ids_.try_emplace(value, static_cast<std::uint32_t>(values_.size()));
    if (inserted) {
      if (values_.size() == kMaxIds) reader.fail("more than " + std::to_string(kMaxIds) + " distinct values");
      values_.push_back(value);
    }
    return it->second;
  }

  // Renumbers `ids` as csv_trace.h says; returns the names to keep (none when the
  // values were the dense numbers 0..k-1 already).
  std::vector<std::string> finish(allocsim::Column<std::uint32_t>& ids, std::uint32_t& count) const {
    count = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(values_.size()));
    std::vector<std::pair<std::uint64_t, std::uint32_t>> numbers;  // (value, first-appearance id)
    for (std::uint32_t k = 0; k < values_.size(); ++k) {
      const auto number = parse_decimal(values_[k]);
      if (!number) return values_;
      numbers.emplace_back(*number, k);
    }
    std::sort(numbers.begin(), numbers.end());
    std::vector<std::uint32_t> rank(values_.size());
    std::vector<std::string> names(values_.size());
    bool dense = true;
    for (std::uint32_t r = 0; r < numbers.size(); ++r) {
      rank[numbers[r].second] = r;
      names[r] = values_[numbers[r].second];
      dense = dense && numbers[r].first == r;
    }
    std::uint32_t* id = ids.mutable_data();
    for (std::size_t i = 0; i < ids.size(); ++i) id[i] = rank[id[i]];
    return dense ? std::vector<std::string>{} : names;
  }

 private:
  static constexpr std::size_t kMaxIds = std::size_t{1} << 31;
  std::unordered_map<std::string, std::uint32_t> ids_;
  std::vector<std::string> values_;
};

class CsvTraceReader {
 public:
  explicit CsvTraceReader(const std::string& path) : reader_(path) {}

  Trace read() {
    std::string_view line;
    if (!reader_.next(line)) throw InputError(reader_.path() + ": empty file, not a CSV trace");
    std::string error;
    const auto columns = parse_header(line, &error);
    if (!columns) reader_.fail("not a CSV trace header: " + error);
    position_.fill(kColumns);
    width_ = columns->size();
    for (std::size_t f = 0; f < width_; ++f) position_[index((*columns)[f])] = f;
    while (reader_.next(line)) event(line);
    return finish();
  }

 private:
  const std::string& field(CsvColumn c) const { return fields_[position_[index(c)]]; }
  bool has(CsvColumn c) const { return position_[index(c)] != kColumns; }

  std::uint64_t number(CsvColumn c) const {
    bool overflow = false;
    const auto value = parse_decimal(field(c), &overflow);
    if (overflow) reader_.fail(name_of(c) + " " + field(c) + " overflows 64 bits");
    if (!value) {
      reader_.fail(name_of(c) + ": expected a non-negative integer, got " + printable(field(c)));
    }
    return *value;
  }

  void event(std::string_view line) {
    split_fields(line, fields_, reader_);
    if (fields_.size() != width_) {
      reader_.fail("expected " + std::to_string(width_) + " fields, got " + std::to_string(fields_.size()));
    }
    const std::uint64_t at = number(CsvColumn::time);
    if (at == kNeverFreed) reader_.fail("time 2^64-1 is reserved");
    if (at < last_time_) reader_.fail("time goes backwards");
    last_time_ = at;
    const std::string& kind = field(CsvColumn::op);
    if (kind == "alloc") {
      allocation(at);
    } else if (kind == "free") {
      deallocation(at);
    } else {
      reader_.fail("unknown op " + printable(kind) + " (known: alloc, free)");
    }
  }

  void allocation(std::uint64_t at) {
    const std::uint64_t bytes = number(CsvColumn::size);
    if (__builtin_add_overflow(total_bytes_, bytes, &total_bytes_)) {
      reader_.fail("the total allocated bytes overflow 64 bits");
    }
    const std::uint64_t event = trace_.requested.size();
    const std::uint64_t key = number(CsvColumn::id);
    if (!live_.try_emplace(key, event).second) reader_.fail("id " + field(CsvColumn::id) + " is already live");
    if (has(CsvColumn::allocated)) {
      const std::uint64_t given = number(CsvColumn::allocated);
      if (given < bytes) reader_.fail("allocated size is smaller than the requested size");
      trace_.allocated.push_back(given);
    }
    raw_threads_.push_back(number(CsvColumn::thread));
    trace_.requested.push_back(bytes);
    trace_.stack.push_back(stacks_.id(field(CsvColumn::stack), reader_));
    trace_.type.push_back(types_.id(field(CsvColumn::type), reader_));
    trace_.time.push_back(at);
    trace_.free_time.push_back(kNeverFreed);
  }

  void deallocation(std::uint64_t at) {
    const std::uint64_t key = number(CsvColumn::id);
    const auto it = live_.find(key);
    if (it == live_.end()) reader_.fail("free of id " + field(CsvColumn::id) + ", which is not a live allocation");
    if (!field(CsvColumn::size).empty() && number(CsvColumn::size) != trace_.requested[it->second]) {
      reader_.fail("free of id " + field(CsvColumn::id) + " gives size " + field(CsvColumn::size) +
                   ", the allocation has " + std::to_string(trace_.requested[it->second]));
    }
    trace_.free_time.mutable_data()[it->second] = at;
    live_.erase(it);
  }

  Trace finish() {
    std::vector<std::uint64_t> distinct = raw_threads_;
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
    trace_.thread.reserve(raw_threads_.size());
    for (std::uint64_t t : raw_threads_) {
      trace_.thread.push_back(
          static_cast<std::uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), t) - distinct.begin()));
    }
    trace_.thread_count = std::max<std::uint32_t>(1, static_cast<std::uint32_t>(distinct.size()));
    trace_.stack_names = stacks_.finish(trace_.stack, trace_.stack_count);
    trace_.type_names = types_.finish(trace_.type, trace_.type_count);
    trace_.validate(reader_.path());
    return std::move(trace_);
  }

  LineReader reader_;
  std::size_t width_ = 0;
  std::array<std::size_t, kColumns> position_{};  // field index of each column; kColumns = absent
  std::vector<std::string> fields_;
  Trace trace_;
  std::vector<std::uint64_t> raw_threads_;
  ValueIds stacks_;
  ValueIds types_;
  std::unordered_map<std::uint64_t, std::uint64_t> live_;  // id -> event
  std::uint64_t last_time_ = 0;
  std::uint64_t total_bytes_ = 0;
};

// One distinct label per id, so that reading the CSV back keeps every id apart: a
// name goes as it is the first time it is seen; a missing name becomes
// "<what>-<id>", and a repeated name or a fallback that a real name already holds
// gets " #<id>" appended until it is free.
std::vector<std::string> labels(const std::vector<std::string>& names, std::uint32_t count, const char* what) {
  std::vector<std::string> out(count);
  if (names.empty()) {
    for (std::uint32_t id = 0; id < count; ++id) out[id] = std::to_string(id);
    return out;
  }
  std::set<std::string> taken;
  std::vector<std::uint32_t> unlabelled;
  for (std::uint32_t id = 0; id < count; ++id) {
    const std::string name = id < names.size() ? names[id] : std::string();
    if (name.find_first_of("\r\n") != std::string::npos) {
      throw InputError(std::string(what) + " name " + printable(name) +
                       " has a line break, which a CSV trace cannot hold");
    }
    if (!name.empty() && taken.insert(name).second) {
      out[id] = name;
    } else {
      unlabelled.push_back(id);
    }
  }
  for (const std::uint32_t id : unlabelled) {
    std::string label = id < names.size() ? names[id] : std::string();
    if (label.empty()) label.append(what).append("-").append(std::to_string(id));
    while (!taken.insert(label).second) label += " #" + std::to_string(id);
    out[id] = label;
  }
  for (auto& label : out) label = csv_field(label);
  return out;
}

// Writes the CSV text in time order, handing `flush` about a megabyte at a time.
template <typename Flush>
void encode(const Trace& trace, Flush&& flush) {
  constexpr std::size_t kChunk = 1 << 20;
  const bool with_allocated = trace.has_allocated_sizes();
  const auto stacks = labels(trace.stack_names, trace.stack_count, "stack");
  const auto types = labels(trace.type_names, trace.type_count, "type");
  std::string out = "thread,op,size,stack,type,time,id";
  out.append(with_allocated ? ",allocated\n" : "\n");
  std::vector<std::pair<std::uint64_t, std::uint64_t>> frees;  // (time, event)
  for (std::size_t i = 0; i < trace.size(); ++i) {
    if (!trace.live_at_end(i)) frees.emplace_back(trace.free_time[i], i);
  }
  std::sort(frees.begin(), frees.end());
  auto end_line = [&] {
    out.append("\n");
    if (out.size() >= kChunk) {
      flush(out);
      out.clear();
    }
  };
  std::size_t next_free = 0;
  auto write_frees_before = [&](std::uint64_t time) {
    for (; next_free < frees.size() && frees[next_free].first < time; ++next_free) {
      const auto [at, event] = frees[next_free];
      out.append(",free,").append(std::to_string(trace.requested[event])).append(",,,");
      out.append(std::to_string(at)).append(",").append(std::to_string(event));
      if (with_allocated) out.append(",");
      end_line();
    }
  };
  for (std::size_t i = 0; i < trace.size(); ++i) {
    write_frees_before(trace.time[i]);
    out.append(std::to_string(trace.thread[i])).append(",alloc,").append(std::to_string(trace.requested[i]));
    out.append(",").append(stacks[trace.stack[i]]).append(",").append(types[trace.type[i]]);
    out.append(",").append(std::to_string(trace.time[i])).append(",").append(std::to_string(i));
    if (with_allocated) out.append(",").append(std::to_string(trace.allocated[i]));
    end_line();
  }
  write_frees_before(kNeverFreed);
  flush(out);
}

}  // namespace

bool is_csv_trace_header(std::string_view line) {
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return parse_header(line, nullptr).has_value();
}

std::string encode_csv_trace(const Trace& trace) {
  std::string text;
  encode(trace, [&](const std::string& chunk) { text += chunk; });
  return text;
}

void write_csv_trace(const Trace& trace, const std::string& path) {
  AtomicOutput output(path);
  encode(trace, [&](const std::string& chunk) { output.write(chunk); });
  output.commit();
}

Trace read_csv_trace(const std::string& path) { return CsvTraceReader(path).read(); }

}  // namespace allocsim
