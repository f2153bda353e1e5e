#pragma once
// Byte counts with units, wherever a byte count is accepted (JSON and the command
// line): 4096, "4096", "4k", "4KiB", "512KiB", "1.5MiB", "2G", "4 KiB" (one space
// may stand before the unit; no sign, exponent, "inf" or "nan").
//
// 'k', 'M', 'G' and 'T' (either case, with or without "i" and "B": "k", "Ki", "KiB")
// are binary, powers of 1024, because the sampling intervals of heap profilers are
// powers of two. "kB", "KB", "MB", "GB" and "TB" are rejected as ambiguous: the
// SI reading is 1000, the JEDEC one 1024; write "KiB" or the plain number.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "allocsim/json/json_reader.h"

namespace allocsim {

// The bytes `text` stands for (not necessarily an integer: "1.5k" is 1536, "0.5" is 0.5),
// or an InputError "<where>: <reason>".
double parse_byte_size(std::string_view text, const std::string& where);

// A byte count >= 0 from a JSON number or a string with a unit ("$.schemes[0].rate: ...").
std::uint64_t byte_count(const JsonValue& value);
std::uint64_t positive_byte_count(const JsonValue& value);  // >= 1
// A real-valued byte amount > 0 (a mean interval may be fractional).
double positive_byte_amount(const JsonValue& value);

}  // namespace allocsim
