// Writing a JSON document as text while it is produced, in exactly the layout of dump_json()
// (nlohmann's dump with a two-space indent), without building the document first. For output
// such as pmuls --json of a whole tree, where building and freeing nlohmann values cost more
// than reading the tree.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/json.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

class JsonWriter {
 public:
  // Appends to `out`, which holds the text once the writer is gone: while it writes, `out`
  // ends in room not yet written (so that a member's line start, key and value are copied
  // with no size change per piece). `depth` is the nesting level the first value sits at (its
  // closing bracket is indented by two spaces per level), for a value that goes inside a
  // document whose start was written separately.
  explicit JsonWriter(std::string& out, unsigned depth = 0)
      : out_(out), size_(out.size()), base_depth_(depth) {}
  ~JsonWriter() { out_.resize(size_); }
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }
  // The next member's key; the call after it writes the member's value.
  void key(std::string_view name);

  void value(std::string_view text);
  void value(const std::string& text) { value(std::string_view(text)); }
  void value(const char* text) { value(std::string_view(text)); }
  void value(bool flag);
  void value(std::uint64_t number);
  void value(std::int64_t number);
  void value(std::uint32_t number) { value(std::uint64_t{number}); }
  void value(int number) { value(std::int64_t{number}); }
  void value(double number);
  void value(std::nullptr_t);
  // A document built elsewhere (diagnostic_to_json), laid out at this depth.
  void value(const Json& document);
  template <class T>
  void value(const std::optional<T>& maybe) {
    if (maybe) {
      value(*maybe);
    } else {
      value(nullptr);
    }
  }

 private:
  struct Open {
    bool empty = true;
  };
  void open(char bracket);
  // An empty container closes on its own line's end ("{}"), any other one on a line of its own.
  void close(char bracket);
  // Separator and indent before a value: after a key nothing, in an array a line of its own.
  void before_value();
  // The separator, newline and indent before the next member or item of the open container.
  void new_line_in_container();
  std::size_t depth() const { return base_depth_ + open_.size(); }
  // Room for `n` more bytes at the end of the text: where to write them. finish() says where
  // the writing ended.
  char* room(std::size_t n) {
    if (out_.size() - size_ < n) make_room(n);
    return out_.data() + size_;
  }
  void make_room(std::size_t n);
  void finish(const char* end) { size_ = static_cast<std::size_t>(end - out_.data()); }
  void put(std::string_view text);
  void put(char c) {
    char* at = room(1);
    *at = c;
    finish(at + 1);
  }

  std::string& out_;
  std::size_t size_;  // the text's end in `out_`; the rest is room
  unsigned base_depth_;
  std::vector<Open> open_;
  bool after_key_ = false;
};

// Builds the same document as a Json value, through the same calls as JsonWriter: code that
// produces a document once, as a template over the two, can print or keep it.
class JsonBuilder {
 public:
  void begin_object() { open_.push_back(&place(Json::object())); }
  void end_object() { open_.pop_back(); }
  void begin_array() { open_.push_back(&place(Json::array())); }
  void end_array() { open_.pop_back(); }
  void key(std::string_view name) { key_ = name; }
  template <class T>
  void value(const T& item) {
    place(Json(item));
  }
  template <class T>
  void value(const std::optional<T>& maybe) {
    place(maybe ? Json(*maybe) : Json(nullptr));
  }
  void value(std::string_view text) { place(Json(std::string(text))); }
  // The document, once every container is closed.
  Json take() { return std::move(root_); }

 private:
  Json& place(Json item);

  Json root_;
  std::vector<Json*> open_;  // innermost last; only it grows, so the pointers stay valid
  std::string key_;
};

}  // namespace cli
PMUCAT_END_NAMESPACE
