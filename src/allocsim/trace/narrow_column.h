#pragma once
// A column of values of type T stored in a narrower type: each value below the
// narrow type's largest code is stored as is; that code (the escape) says "look
// the value up in the wide table", a list of (event, value) sorted by event. Exact
// for every value, and as narrow as the common case: sizes in 32 bits (a request
// of 4 GiB or more escapes), thread ids in 16 bits. Like Column, it owns its
// storage or views a mapped file.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include "allocsim/trace/column.h"

namespace allocsim {

// One escaped value: 16 bytes, the layout of a native file's wide table.
struct WideValue {
  std::uint64_t event;
  std::uint64_t value;
  friend bool operator==(const WideValue&, const WideValue&) = default;
};

template <class T, class Narrow>
class NarrowColumn {
  static_assert(sizeof(Narrow) < sizeof(T) && sizeof(T) <= sizeof(std::uint64_t));

 public:
  static constexpr Narrow kEscape = std::numeric_limits<Narrow>::max();
  using value_type = T;

  class const_iterator {
   public:
    using iterator_category = std::forward_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    const_iterator() = default;
    const_iterator(const NarrowColumn* column, std::size_t i) : column_(column), i_(i) {}
    T operator*() const { return (*column_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    const_iterator operator++(int) {
      const_iterator before = *this;
      ++i_;
      return before;
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.i_ == b.i_; }

   private:
    const NarrowColumn* column_ = nullptr;
    std::size_t i_ = 0;
  };
  using iterator = const_iterator;

  NarrowColumn() = default;
  NarrowColumn(const std::vector<T>& values) { append(values.begin(), values.end()); }  // NOLINT: values
  NarrowColumn(std::initializer_list<T> values) { append(values.begin(), values.end()); }
  NarrowColumn(Column<Narrow> codes, Column<WideValue> wide) : codes_(std::move(codes)), wide_(std::move(wide)) {}

  std::size_t size() const { return codes_.size(); }
  bool empty() const { return codes_.empty(); }
  T operator[](std::size_t i) const {
    const Narrow code = codes_[i];
    if (code != kEscape) [[likely]]
      return code;
    return wide_at(i);
  }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }
  T front() const { return (*this)[0]; }
  T back() const { return (*this)[size() - 1]; }

  const Column<Narrow>& codes() const { return codes_; }
  // The codes themselves when no value escaped (each code is then its value), else
  // nullptr: a hot loop reads them without the escape test (read_unescaped below).
  const Narrow* unescaped() const { return wide_.empty() ? codes_.data() : nullptr; }
  const Column<WideValue>& wide() const { return wide_; }
  bool mapped() const { return codes_.mapped(); }
  std::size_t storage_bytes() const { return codes_.storage_bytes() + wide_.storage_bytes(); }
  void drop_resident(std::size_t first, std::size_t last) const { codes_.drop_resident(first, last); }

  void push_back(T value) {
    if (value >= kEscape) wide_.push_back({size(), static_cast<std::uint64_t>(value)});
    codes_.push_back(value >= kEscape ? kEscape : static_cast<Narrow>(value));
  }
  void reserve(std::size_t n) { codes_.reserve(n); }
  void assign(std::size_t n, T value) {
    clear();
    reserve(n);
    for (std::size_t i = 0; i < n; ++i) push_back(value);
  }
  void resize(std::size_t n) {  // new values are 0
    std::size_t kept = wide_.size();
    while (kept > 0 && wide_[kept - 1].event >= n) --kept;
    if (kept != wide_.size()) wide_.resize(kept);
    codes_.resize(n);
  }
  void clear() {
    codes_.clear();
    wide_.clear();
  }
  template <class It>
  void append(It first, It last) {
    for (; first != last; ++first) push_back(*first);
  }

  // Empty when each escape code has exactly one wide entry, the entries are in
  // increasing event order and each holds a value that needed the escape; else
  // what is wrong (a corrupt file). Scans the codes, dropping mapped pages after.
  std::string wide_table_problem() const {
    constexpr std::size_t kBlock = std::size_t{1} << 22;
    std::size_t escapes = 0;
    for (std::size_t first = 0; first < size(); first += kBlock) {
      const std::size_t last = std::min(size(), first + kBlock);
      escapes += static_cast<std::size_t>(std::count(codes_.begin() + first, codes_.begin() + last, kEscape));
      codes_.drop_resident(first, last);
    }
    if (escapes != wide_.size()) {
      return std::to_string(escapes) + " escaped values but " + std::to_string(wide_.size()) + " in the wide table";
    }
    for (std::size_t k = 0; k < wide_.size(); ++k) {
      const WideValue& w = wide_[k];
      if ((k > 0 && w.event <= wide_[k - 1].event) || w.event >= size() || codes_[w.event] != kEscape) {
        return "wide table entry " + std::to_string(k) + " is out of order or names an event that is not escaped";
      }
      if (w.value < kEscape || w.value > std::numeric_limits<T>::max()) {
        return "wide table entry " + std::to_string(k) + " holds " + std::to_string(w.value) +
               ", not a value that needs the escape";
      }
    }
    return {};
  }

  friend bool operator==(const NarrowColumn& a, const NarrowColumn& b) {
    return a.codes_ == b.codes_ && a.wide_ == b.wide_;
  }

 private:
  // Out of line: the escape is rare, and the hot loop stays small.
  [[gnu::noinline]] T wide_at(std::size_t i) const {
    const auto it = std::lower_bound(wide_.begin(), wide_.end(), i,
                                     [](const WideValue& w, std::size_t event) { return w.event < event; });
    return static_cast<T>(it->value);
  }

  Column<Narrow> codes_;
  Column<WideValue> wide_;
};

// Calls f with what reads `column` by operator[] the fastest: its bare codes when no
// value escaped, else the column. Both give the same values; a replay loop written
// once as f is compiled for each, and the common case skips the escape test per read.
template <class T, class Narrow, class F>
void read_unescaped(const NarrowColumn<T, Narrow>& column, F&& f) {
  if (const Narrow* codes = column.unescaped()) {
    f(codes);
  } else {
    f(column);
  }
}

// Sizes in bytes: 32 bits, a request of 2^32 - 1 bytes or more escapes.
using SizeColumn = NarrowColumn<std::uint64_t, std::uint32_t>;
// Thread ids: 16 bits, thread 65 535 and above escape.
using ThreadColumn = NarrowColumn<std::uint32_t, std::uint16_t>;

}  // namespace allocsim
