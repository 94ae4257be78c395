#include "common/json_writer.h"

#include <fmt/format.h>

#include <algorithm>

namespace pmucat::cli {
namespace {

// Text nlohmann would print between the quotes as is.
bool needs_no_escaping(std::string_view text) {
  return std::all_of(text.begin(), text.end(),
                     [](char c) { return c >= 0x20 && c <= 0x7e && c != '"' && c != '\\'; });
}

// `n` more bytes at the end of `out`, to be filled in: one size change instead of a capacity
// check per character (the writer's output is mostly short names and punctuation).
char* grow(std::string& out, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  return out.data() + at;
}

// `text` as a JSON string. Plain ASCII (almost every sysfs name, path and value) is copied; the
// rest is left to nlohmann, so escapes and invalid UTF-8 (replaced, as dump_json does) come out
// exactly as in a dumped document.
void append_string(std::string& out, std::string_view text) {
  if (needs_no_escaping(text)) {
    char* at = grow(out, text.size() + 2);
    *at++ = '"';
    at = std::copy(text.begin(), text.end(), at);
    *at = '"';
  } else {
    out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
  }
}

constexpr unsigned kIndentStep = 2;  // dump_json's

}  // namespace

void JsonWriter::indent(std::size_t levels) {
  out_.append(levels * kIndentStep, ' ');
}

void JsonWriter::new_line_in_container() {
  Open& container = open_.back();
  const std::size_t spaces = depth() * kIndentStep;
  char* at = grow(out_, spaces + (container.empty ? 1 : 2));
  if (!container.empty) *at++ = ',';
  *at++ = '\n';
  std::fill_n(at, spaces, ' ');
  container.empty = false;
}

void JsonWriter::before_value() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (open_.empty()) return;  // the first value
  new_line_in_container();
}

void JsonWriter::key(std::string_view name) {
  new_line_in_container();
  append_string(out_, name);
  out_.append(": ", 2);
  after_key_ = true;
}

void JsonWriter::open(char bracket) {
  before_value();
  out_ += bracket;
  open_.push_back({});
}

void JsonWriter::close(char bracket) {
  const bool empty = open_.back().empty;
  open_.pop_back();
  if (!empty) {
    out_ += '\n';
    indent(depth());
  }
  out_ += bracket;
}

void JsonWriter::value(std::string_view text) {
  before_value();
  append_string(out_, text);
}

void JsonWriter::value(bool flag) {
  before_value();
  out_ += flag ? "true" : "false";
}

void JsonWriter::value(std::uint64_t number) {
  before_value();
  const fmt::format_int digits(number);  // no format string to interpret: most values are numbers
  out_.append(digits.data(), digits.size());
}

void JsonWriter::value(std::int64_t number) {
  before_value();
  const fmt::format_int digits(number);
  out_.append(digits.data(), digits.size());
}

void JsonWriter::value(double number) {
  before_value();
  out_ += Json(number).dump();  // nlohmann's shortest round-trip form, as in a dumped document
}

void JsonWriter::value(std::nullptr_t) {
  before_value();
  out_ += "null";
}

void JsonWriter::value(const Json& document) {
  before_value();
  const std::string text = document.dump(kIndentStep, ' ', false, Json::error_handler_t::replace);
  // Strings in it hold no raw newline (they are escaped): every newline starts a line to shift.
  const std::string shift(depth() * kIndentStep, ' ');
  for (char c : text) {
    out_ += c;
    if (c == '\n') out_ += shift;
  }
}

Json& JsonBuilder::place(Json item) {
  if (open_.empty()) {
    root_ = std::move(item);
    return root_;
  }
  Json& container = *open_.back();
  if (container.is_object()) {
    auto& members = container.get_ref<Json::object_t&>();
    // A new key: operator[] would first search the ordered object's key list.
    members.emplace_back(std::move(key_), std::move(item));
    key_.clear();
    return members.back().second;
  }
  auto& items = container.get_ref<Json::array_t&>();
  items.push_back(std::move(item));
  return items.back();
}

}  // namespace pmucat::cli
