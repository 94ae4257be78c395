#include "common/json_writer.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// Whether a byte must not be copied as is: a control byte, a quote, a backslash, or one of
// UTF-8 (>= 0x80).
bool special(unsigned char byte) {
  return byte < 0x20 || byte >= 0x80 || byte == '"' || byte == '\\';
}

// The high bit of each byte of `word` that is special: bytes >= 0x80 set their own high bit,
// bytes < 0x20 borrow in `word - 0x20...`, and a quote or backslash is a zero byte after an xor.
[[gnu::always_inline]] inline std::uint64_t special_bytes(std::uint64_t word) {
  constexpr std::uint64_t kOnes = 0x0101010101010101u;
  constexpr std::uint64_t kHighs = 0x8080808080808080u;
  auto has_byte = [](std::uint64_t w, unsigned char byte) {
    const std::uint64_t x = w ^ (kOnes * byte);
    return (x - kOnes) & ~x & kHighs;
  };
  return (word & kHighs) | ((word - kOnes * 0x20) & ~word & kHighs) | has_byte(word, '"') |
         has_byte(word, '\\');
}

// The index of the first special byte of `text` at or after `i`, byte by byte.
std::size_t scan_special(std::string_view text, std::size_t i) {
  for (; i < text.size(); ++i) {
    if (special(static_cast<unsigned char>(text[i]))) return i;
  }
  return i;
}

// The index of the first special byte of `text` at or after `from` (text.size() when none),
// eight bytes per step and the last few in one overlapping load: keys and most values are short
// and plain, descriptions long and almost all plain. Bytes are scanned one by one only once a
// word holds a special one.
[[gnu::always_inline]] inline std::size_t first_special(std::string_view text, std::size_t from) {
  const std::size_t size = text.size();
  std::size_t i = from;
  std::uint64_t word;
  if (size - i >= 8) {
    for (; i + 8 <= size; i += 8) {
      std::memcpy(&word, text.data() + i, sizeof word);
      if (special_bytes(word) != 0) return scan_special(text, i);
    }
    if (i == size) return size;
    std::memcpy(&word, text.data() + size - 8, sizeof word);  // overlaps bytes already checked
  } else if (size - i >= 4) {
    std::uint32_t low;
    std::uint32_t high;
    std::memcpy(&low, text.data() + i, sizeof low);
    std::memcpy(&high, text.data() + size - 4, sizeof high);
    word = low | (std::uint64_t{high} << 32);
  } else {
    return scan_special(text, i);
  }
  return special_bytes(word) == 0 ? size : scan_special(text, i);
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

// ",\n" and the indent of the deepest line start written in one copy; deeper ones are filled.
constexpr std::size_t kLineStartCopy = 64;
constexpr auto kLineStart = [] {
  std::array<char, kLineStartCopy> text{};
  text[0] = ',';
  text[1] = '\n';
  for (std::size_t i = 2; i < text.size(); ++i) text[i] = ' ';
  return text;
}();

// Writes the separator (",\n", or "\n" for a container's first item) and `spaces` of indent at
// `at`, which has room for kLineStartCopy bytes more than that; returns the end.
char* put_line_start(char* at, bool first, std::size_t spaces) {
  const std::size_t length = spaces + (first ? 1 : 2);
  if (length <= kLineStartCopy - 1) {
    std::memcpy(at, kLineStart.data() + (first ? 1 : 0), kLineStartCopy - 1);  // a fixed size
    return at + length;
  }
  if (!first) *at++ = ',';
  *at++ = '\n';
  return std::fill_n(at, spaces, ' ');
}

// Writes `text` (plain: first_special() found nothing) in quotes at `at`; returns the end.
char* put_plain_string(char* at, std::string_view text) {
  *at++ = '"';
  std::memcpy(at, text.data(), text.size());
  at += text.size();
  *at++ = '"';
  return at;
}

}  // namespace

void JsonWriter::make_room(std::size_t n) {
  // Doubling keeps the zero-filling resize rare; each fills only what it adds.
  out_.resize(std::max(size_ + n, 2 * out_.size()));
}

void JsonWriter::put(std::string_view text) {
  char* at = room(text.size());
  std::memcpy(at, text.data(), text.size());
  finish(at + text.size());
}

void JsonWriter::new_line_in_container() {
  Open& container = open_.back();
  const std::size_t spaces = depth() * kIndentStep;
  finish(put_line_start(room(spaces + 2 + kLineStartCopy), container.empty, spaces));
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
    std::string quoted;
    append_string(quoted, name);
    quoted.append(": ", 2);
    put(quoted);
  } else {
    Open& container = open_.back();
    const std::size_t spaces = depth() * kIndentStep;
    char* at = put_line_start(room(spaces + 2 + kLineStartCopy + name.size() + 4), container.empty,
                              spaces);
    at = put_plain_string(at, name);
    *at++ = ':';
    *at++ = ' ';
    finish(at);
    container.empty = false;
  }
  after_key_ = true;
}

void JsonWriter::open(char bracket) {
  before_value();
  put(bracket);
  open_.push_back({});
}

void JsonWriter::close(char bracket) {
  const bool empty = open_.back().empty;
  open_.pop_back();
  if (empty) {
    put(bracket);
    return;
  }
  // The line start without its comma, then the bracket.
  const std::size_t spaces = depth() * kIndentStep;
  char* at = put_line_start(room(spaces + 2 + kLineStartCopy), true, spaces);
  *at++ = bracket;
  finish(at);
}

void JsonWriter::value(std::string_view text) {
  before_value();
  if (first_special(text, 0) == text.size()) {
    finish(put_plain_string(room(text.size() + 2), text));
  } else {
    std::string quoted;
    append_string(quoted, text);
    put(quoted);
  }
}

void JsonWriter::value(bool flag) {
  before_value();
  put(flag ? std::string_view("true") : std::string_view("false"));
}

void JsonWriter::value(std::uint64_t number) {
  before_value();
  const fmt::format_int digits(number);  // no format string to interpret: most values are numbers
  put(std::string_view(digits.data(), digits.size()));
}

void JsonWriter::value(std::int64_t number) {
  before_value();
  const fmt::format_int digits(number);
  put(std::string_view(digits.data(), digits.size()));
}

void JsonWriter::value(double number) {
  before_value();
  put(Json(number).dump());  // nlohmann's shortest round-trip form, as in a dumped document
}

void JsonWriter::value(std::nullptr_t) {
  before_value();
  put("null");
}

void JsonWriter::value(const Json& document) {
  before_value();
  const std::string text = document.dump(kIndentStep, ' ', false, Json::error_handler_t::replace);
  // Strings in it hold no raw newline (they are escaped): every newline starts a line to shift.
  const std::string shift(depth() * kIndentStep, ' ');
  std::string shifted;
  for (char c : text) {
    shifted += c;
    if (c == '\n') shifted += shift;
  }
  put(shifted);
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

}  // namespace cli
PMUCAT_END_NAMESPACE
