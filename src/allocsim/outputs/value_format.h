#pragma once
// How chart axes and tables show a quantity: bytes as B/KiB/MiB/GiB, fractions as
// they are or as percentages, anything else as a plain number.
#include <optional>
#include <string>

namespace allocsim {

enum class Unit { none, bytes, fraction, percent };

// "bytes", "fraction", "percent", "none"; nullopt for anything else.
std::optional<Unit> parse_unit(const std::string& name);
const char* unit_names();  // for errors

// 1572864 -> "1.5 MiB", 4096 -> "4 KiB", 100 -> "100 B" (up to 4 significant digits).
std::string format_bytes(double bytes);
// A value for a table cell: bytes as above, percent as "95.02%", others with up to
// `digits` significant digits (whole numbers in full).
std::string format_value(double value, Unit unit, int digits = 4);
// `value` through one printf conversion, `format` holding it ("%.3g", "%.0f%%"), for
// text whose digits the caller chooses.
std::string format_printf(double value, const char* format);

}  // namespace allocsim
