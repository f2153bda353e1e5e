#include "allocsim/conformance/driver_output.h"

#include <charconv>
#include <fstream>
#include <string_view>

#include "allocsim/util/error.h"

namespace allocsim {
namespace {

std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> fields;
  while (true) {
    const std::size_t comma = line.find(',');
    fields.push_back(line.substr(0, comma));
    if (comma == std::string_view::npos) return fields;
    line.remove_prefix(comma + 1);
  }
}

template <class T>
T number(std::string_view text, const std::string& where) {
  T value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    throw InputError(where + ": \"" + std::string(text) + "\" is not a number");
  }
  return value;
}

}  // namespace

DriverRun read_driver_output(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError(path + ": cannot read the driver's output");
  DriverRun run;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n) {
    const std::string where = path + ": line " + std::to_string(n);
    const auto f = split(line);
    auto expect = [&](std::size_t count) {
      if (f.size() != count) throw InputError(where + ": expected " + std::to_string(count) + " fields");
    };
    if (f[0] == "meta") {
      expect(3);
      run.meta[std::string(f[1])] = std::string(f[2]);
    } else if (f[0] == "sample") {
      expect(5);
      run.samples.push_back({std::string(f[1]), number<std::uint64_t>(f[2], where), number<std::uint64_t>(f[3], where),
                             number<int>(f[4], where) != 0});
    } else if (f[0] == "profile" || f[0] == "estimate") {
      expect(4);
      auto& list = f[0] == "profile" ? run.profile : run.estimates;
      list.push_back({std::string(f[1]), number<double>(f[2], where), number<double>(f[3], where)});
    } else if (f[0] == "size") {
      expect(3);
      run.sizes[number<std::uint64_t>(f[1], where)] = number<std::uint64_t>(f[2], where);
    } else {
      throw InputError(where + ": unknown record \"" + std::string(f[0]) + "\"");
    }
  }
  return run;
}

}  // namespace allocsim
