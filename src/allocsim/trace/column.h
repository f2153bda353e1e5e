#pragma once
// One column of a trace: a plain array that either owns its storage or views a
// read-only mapping (a native trace file used in place, shared by every process
// that maps it). Reading is the same for both: operator[], size(), iteration,
// data(). Building (push_back, assign, resize, mutable_data) works on owned
// storage; a mapped column is first copied, so build only what you own.
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "allocsim/trace/resident_pages.h"
#include "allocsim/util/huge_pages.h"

namespace allocsim {

template <class T>
class Column {
 public:
  using value_type = T;
  using const_iterator = const T*;
  using iterator = const T*;

  Column() = default;
  Column(std::vector<T> values) : owned_(std::move(values)) { point_at_owned(); }  // NOLINT: a vector is a column
  Column(std::initializer_list<T> values) : owned_(values) { point_at_owned(); }
  // A view of n values at `data`, kept valid by `keep_alive` (the mapping).
  static Column view(std::shared_ptr<const void> keep_alive, const T* data, std::size_t n) {
    Column column;
    column.mapping_ = std::move(keep_alive);
    column.data_ = data;
    column.size_ = n;
    return column;
  }

  Column(const Column& other) : owned_(other.owned_), mapping_(other.mapping_) { copy_view(other); }
  Column(Column&& other) noexcept : owned_(std::move(other.owned_)), mapping_(std::move(other.mapping_)) {
    copy_view(other);
    other.reset_view();
  }
  Column& operator=(const Column& other) {
    if (this != &other) *this = Column(other);
    return *this;
  }
  Column& operator=(Column&& other) noexcept {
    owned_ = std::move(other.owned_);
    mapping_ = std::move(other.mapping_);
    copy_view(other);
    other.reset_view();
    return *this;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const T& operator[](std::size_t i) const { return data_[i]; }
  const T* data() const { return data_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  operator std::span<const T>() const { return {data_, size_}; }  // NOLINT: read as a span
  bool mapped() const { return mapping_ != nullptr; }
  std::size_t storage_bytes() const { return size_ * sizeof(T); }
  // Drops the mapped pages of [first, last) from this process (they stay in the
  // page cache); a no-op on owned storage.
  void drop_resident(std::size_t first, std::size_t last) const {
    if (mapped()) drop_resident_pages(data_ + first, (last - first) * sizeof(T));
  }

  T* mutable_data() {
    own();
    return owned_.data();
  }
  void push_back(T value) {
    own();
    owned_.push_back(value);
    point_at_owned();
  }
  void reserve(std::size_t n) {  // on huge pages (util/huge_pages.h), as replay reads at random
    own();
    const bool fresh = owned_.capacity() < n;
    owned_.reserve(n);
    if (fresh) advise_huge_pages(owned_.data(), n * sizeof(T));
    point_at_owned();
  }
  void resize(std::size_t n) {
    own();
    owned_.resize(n);
    point_at_owned();
  }
  void assign(std::size_t n, T value) {
    mapping_.reset();
    owned_.assign(n, value);
    point_at_owned();
  }
  void clear() { assign(0, T{}); }
  friend bool operator==(const Column& a, const Column& b) { return std::ranges::equal(a, b); }

 private:
  void point_at_owned() {
    data_ = owned_.data();
    size_ = owned_.size();
  }
  void copy_view(const Column& other) {
    if (mapping_ != nullptr) {
      data_ = other.data_;
      size_ = other.size_;
    } else {
      point_at_owned();
    }
  }
  void reset_view() {
    data_ = nullptr;
    size_ = 0;
  }
  void own() {
    if (mapping_ == nullptr) return;
    owned_.assign(data_, data_ + size_);
    mapping_.reset();
    point_at_owned();
  }

  std::vector<T> owned_;
  std::shared_ptr<const void> mapping_;  // non-null: the column views it
  const T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace allocsim
