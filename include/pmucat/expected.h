// Errors as values: a minimal std::expected stand-in (GCC 12 has no <expected>).
#pragma once

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

template <class E>
class Unexpected {
 public:
  explicit Unexpected(E error) : error_(std::move(error)) {}
  E& error() & { return error_; }
  E&& error() && { return std::move(error_); }

 private:
  E error_;
};

// Wraps an error so that `return unexpected(diag);` converts to any Expected<T>.
template <class E>
Unexpected<std::decay_t<E>> unexpected(E&& error) {
  return Unexpected<std::decay_t<E>>(std::forward<E>(error));
}

// Either a T or an error E (a located Diagnostic by default). Never throws on its own.
template <class T, class E = Diagnostic>
class [[nodiscard]] Expected {
 public:
  Expected(T value)
      : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  template <class G>
  Expected(Unexpected<G> error)  // NOLINT: implicit by design
      : state_(std::in_place_index<1>, std::move(error).error()) {}

  bool has_value() const { return state_.index() == 0; }
  explicit operator bool() const { return has_value(); }

  T& value() & {
    assert(has_value());
    return std::get<0>(state_);
  }
  const T& value() const& {
    assert(has_value());
    return std::get<0>(state_);
  }
  T&& value() && {
    assert(has_value());
    return std::get<0>(std::move(state_));
  }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T&& operator*() && { return std::move(*this).value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  E& error() & {
    assert(!has_value());
    return std::get<1>(state_);
  }
  const E& error() const& {
    assert(!has_value());
    return std::get<1>(state_);
  }
  E&& error() && {
    assert(!has_value());
    return std::get<1>(std::move(state_));
  }

 private:
  std::variant<T, E> state_;
};

PMUCAT_END_NAMESPACE
