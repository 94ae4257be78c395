// A vector that holds up to N elements inline and moves to the heap only beyond that: parsed
// values that almost always have one or two items (a format file's bit ranges) then cost no
// allocation. Only for trivially copyable element types, which keeps it this small.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

template <class T, std::size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds trivially copyable types");
  static_assert(N > 0);

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  SmallVector() = default;
  SmallVector(std::initializer_list<T> items) {
    for (const T& item : items) push_back(item);
  }

  void push_back(const T& item) {
    if (heap_.empty()) {
      if (size_ < N) {
        inline_[size_++] = item;
        return;
      }
      heap_.reserve(2 * N);
      heap_.assign(inline_.begin(), inline_.end());
    }
    heap_.push_back(item);
    ++size_;
  }
  void clear() {
    heap_.clear();
    size_ = 0;
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // True once the elements live on the heap (more than N were ever held since the last clear).
  bool spilled() const { return !heap_.empty(); }

  T* data() { return heap_.empty() ? inline_.data() : heap_.data(); }
  const T* data() const { return heap_.empty() ? inline_.data() : heap_.data(); }
  T& operator[](std::size_t i) { return data()[i]; }
  const T& operator[](std::size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }
  iterator begin() { return data(); }
  iterator end() { return data() + size_; }
  const_iterator begin() const { return data(); }
  const_iterator end() const { return data() + size_; }

  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  std::array<T, N> inline_{};
  std::vector<T> heap_;  // empty until more than N elements are held
  std::size_t size_ = 0;
};

PMUCAT_END_NAMESPACE
