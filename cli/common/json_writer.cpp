#include "common/json_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace pmucat::cli {
namespace {

// `n` more bytes at the end of `out`, to be filled in: one size change instead of a capacity
// check per character.
char* grow(std::string& out, std::size_t n) {
  const std::size_t at = out.size();
  out.resize(at + n);
  return out.data() + at;
}

// Whether a byte must not be copied as is: a control byte, a quote, a backslash, or one of
// UTF-8 (>= 0x80).
bool special(unsigned char byte) {
  return byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\';
}

// The index of the first special byte of `text` at or after `from` (text.size() when none),
// eight bytes per step: descriptions are long and almost all plain.
std::size_t first_special(std::string_view text, std::size_t from) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  constexpr std::uint64_t kHighs = 0x8080808080808080u;
  auto has_byte = [](std::uint64_t word, unsigned char byte) {
    const std::uint64_t x = word ^ (kOnes * byte);
    return (x - kOnes) & ~x & kHighs;
  };
  std::size_t i = from;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word;
    std::memcpy(&word, text.data() + i, sizeof word);
    // Bytes >= 0x80 set their own high bit; bytes < 0x20 borrow in `word - 0x20...`.
    const std::uint64_t found = (word & kHighs) | ((word - kOnes * 0x20) & ~word & kHighs) |
                                has_byte(word, '"') | has_byte(word, '\\');
    if (found != 0) break;
  }
  for (; i < text.size(); ++i) {
    if (special(static_cast<unsigned char>(text[i]))) return i;
  }
  return i;
}

// `text` as a JSON string, exactly as nlohmann dumps it (dump_json): ASCII is escaped here (runs
// of plain bytes copied whole: descriptions are long and mostly plain); text with a byte >= 0x80
// is left to nlohmann, so UTF-8 and its invalid sequences (replaced) come out as in a dump.
void append_string(std::string& out, std::string_view text) {
  const std::size_t start = out.size();
  out += '"';
  std::size_t copied = 0;  // bytes of `text` already in `out`
  for (std::size_t i = 0; i < text.size(); ++i) {
    i = first_special(text, i);
    if (i == text.size()) break;
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte >= 0x80) {
      out.resize(start);
      out += Json(std::string(text)).dump(-1, ' ', false, Json::error_handler_t::replace);
      return;
    }
    out.append(text.data() + copied, i - copied);
    copied = i + 1;
    switch (byte) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\r':
        out += "\\r";
        break;
      default:
        out += fmt::format("\\u{:04x}", byte);  // nlohmann's lower-case form
    }
  }
  out.append(text.data() + copied, text.size() - copied);
  out += '"';
}

constexpr unsigned kIndentStep = 2;  // dump_json's

// Writes the separator (",\n", or "\n" for a container's first item) and `spaces` of indent at
// `at`; returns the end.
char* put_line_start(char* at, bool first, std::size_t spaces) {
  if (!first) *at++ = ',';
  *at++ = '\n';
  return std::fill_n(at, spaces, ' ');
}

// Writes `text` (plain: first_special() found nothing) in quotes at `at`; returns the end.
char* put_plain_string(char* at, std::string_view text) {
  *at++ = '"';
  at = std::copy(text.begin(), text.end(), at);
  *at++ = '"';
  return at;
}

}  // namespace

void JsonWriter::indent(std::size_t levels) {
  out_.append(levels * kIndentStep, ' ');
}

void JsonWriter::new_line_in_container() {
  Open& container = open_.back();
  const std::size_t spaces = depth() * kIndentStep;
  put_line_start(grow(out_, spaces + (container.empty ? 1 : 2)), container.empty, spaces);
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
  // Keys are short and plain: the line start, the key and ": " in one reservation.
  if (first_special(name, 0) != name.size()) {
    new_line_in_container();
    append_string(out_, name);
    out_.append(": ", 2);
  } else {
    Open& container = open_.back();
    const std::size_t spaces = depth() * kIndentStep;
    const std::size_t lead = spaces + (container.empty ? 1 : 2);
    char* at = put_line_start(grow(out_, lead + name.size() + 4), container.empty, spaces);
    at = put_plain_string(at, name);
    *at++ = ':';
    *at = ' ';
    container.empty = false;
  }
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
  if (first_special(text, 0) == text.size()) {
    put_plain_string(grow(out_, text.size() + 2), text);
  } else {
    append_string(out_, text);
  }
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
