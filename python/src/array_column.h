#pragma once
// NumPy integer arrays into trace columns, copied once: each element is read in
// its own dtype (any integer width, signed or not, either byte order, any stride or
// alignment) and converted as it is stored, so no intermediate array is made.
#include <pybind11/numpy.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "allocsim/util/error.h"
#include "arguments.h"

namespace allocsim::python {

// The element at `address`, which may be unaligned and, when `swap`, is stored in
// the byte order opposite to this machine's.
template <typename Source>
Source read_element(const char* address, bool swap) {
  unsigned char bytes[sizeof(Source)];
  std::memcpy(bytes, address, sizeof bytes);
  if (swap) std::reverse(bytes, bytes + sizeof bytes);
  Source value;
  std::memcpy(&value, bytes, sizeof value);
  return value;
}

template <typename Target, typename Source>
std::vector<Target> convert_column(const pybind11::array& array, const std::string& name, bool minus_one_is_max) {
  const auto n = static_cast<std::size_t>(array.shape(0));
  const auto stride = array.strides(0);
  const auto* base = static_cast<const char*>(array.data());
  const bool swap = !array.dtype().attr("isnative").cast<bool>();
  std::vector<Target> column(n);
  for (std::size_t i = 0; i < n; ++i) {
    const auto value = read_element<Source>(base + static_cast<std::ptrdiff_t>(i) * stride, swap);
    if constexpr (std::numeric_limits<Source>::is_signed) {
      if (value == -1 && minus_one_is_max) {
        column[i] = std::numeric_limits<Target>::max();
        continue;
      }
      if (value < 0) throw InputError(name + "[" + std::to_string(i) + "] is negative (" + std::to_string(value) + ")");
    }
    if (static_cast<std::uint64_t>(value) > std::numeric_limits<Target>::max()) {
      throw InputError(name + "[" + std::to_string(i) + "] = " + std::to_string(value) + " does not fit " +
                       std::to_string(8 * sizeof(Target)) + " bits");
    }
    column[i] = static_cast<Target>(value);
  }
  return column;
}

// `array` must be one-dimensional with `length` integer elements (length -1: any).
// minus_one_is_max: -1 in a signed array stands for the largest Target (the frees
// column's "never freed").
template <typename Target>
std::vector<Target> array_column(const pybind11::array& array, const std::string& name, long long length,
                                 bool minus_one_is_max = false) {
  if (array.ndim() != 1)
    throw InputError(name + " must be a one-dimensional array, got " + std::to_string(array.ndim()) + " dimensions");
  if (length >= 0 && array.shape(0) != length) {
    throw InputError(name + " has " + std::to_string(array.shape(0)) + " elements, sizes has " +
                     std::to_string(length));
  }
  const char kind = array.dtype().kind();
  const auto width = array.dtype().itemsize();
  if (kind == 'i') {
    if (width == 1) return convert_column<Target, std::int8_t>(array, name, minus_one_is_max);
    if (width == 2) return convert_column<Target, std::int16_t>(array, name, minus_one_is_max);
    if (width == 4) return convert_column<Target, std::int32_t>(array, name, minus_one_is_max);
    if (width == 8) return convert_column<Target, std::int64_t>(array, name, minus_one_is_max);
  }
  if (kind == 'u' || kind == 'b') {
    if (width == 1) return convert_column<Target, std::uint8_t>(array, name, minus_one_is_max);
    if (width == 2) return convert_column<Target, std::uint16_t>(array, name, minus_one_is_max);
    if (width == 4) return convert_column<Target, std::uint32_t>(array, name, minus_one_is_max);
    if (width == 8) return convert_column<Target, std::uint64_t>(array, name, minus_one_is_max);
  }
  throw_type_error(name + " must be an integer array, got dtype " + std::string(pybind11::str(array.dtype())));
}

}  // namespace allocsim::python
