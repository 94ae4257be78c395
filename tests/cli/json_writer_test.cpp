// Internal unit test of cli/common/json_writer.h: the tools' streaming JSON writer.
// JsonWriter prints what dump_json prints for the same document: replaying any document through
// the writer (and through JsonBuilder) must give back dump_json's text (and the document).
#include "common/json_writer.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <limits>
#include <ostream>
#include <string>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// Sends `document` to `out` as the calls that would produce it.
template <class Out>
void replay(const Json& document, Out& out) {
  switch (document.type()) {
    case Json::value_t::object:
      out.begin_object();
      for (const auto& [key, member] : document.items()) {
        out.key(key);
        replay(member, out);
      }
      out.end_object();
      break;
    case Json::value_t::array:
      out.begin_array();
      for (const Json& item : document) replay(item, out);
      out.end_array();
      break;
    case Json::value_t::string:
      out.value(document.get_ref<const std::string&>());
      break;
    case Json::value_t::boolean:
      out.value(document.get<bool>());
      break;
    case Json::value_t::number_unsigned:
      out.value(document.get<std::uint64_t>());
      break;
    case Json::value_t::number_integer:
      out.value(document.get<std::int64_t>());
      break;
    case Json::value_t::number_float:
      out.value(document.get<double>());
      break;
    default:
      out.value(nullptr);
      break;
  }
}

std::string written(const Json& document, unsigned depth = 0) {
  std::string text;
  {
    JsonWriter writer(text, depth);
    replay(document, writer);
  }
  return text;
}

std::string dumped(const Json& document) {
  std::string text = dump_json(document);
  text.pop_back();  // dump_json ends the document with a newline
  return text;
}

TEST(JsonWriter, LaysOutLikeDumpJson) {
  const Json document = Json::parse(R"({
    "name": "cpu", "empty_object": {}, "empty_array": [], "nested": [[], [1, [2, {}]], {"a": null}],
    "numbers": [0, 18446744073709551615, -9223372036854775808, 3.814697266e-06, 1e300, -0.5],
    "flags": [true, false], "text": "quote \" backslash \\ tab \t newline \n nul \u0000 \u001f del \u007f é"
  })");
  EXPECT_EQ(written(document), dumped(document));
  for (const Json& scalar :
       {Json(nullptr), Json(true), Json("x"), Json(7u), Json(-7), Json(0.25)}) {
    EXPECT_EQ(written(scalar), dumped(scalar));
  }
}

TEST(JsonWriter, ReplacesInvalidUtf8AsDumpJsonDoes) {
  const Json document = {{"bad\xff key", "bad \xc3\x28 value"}, {"ok", "caf\xc3\xa9"}};
  EXPECT_EQ(written(document), dumped(document));
  EXPECT_NE(written(document).find("\xef\xbf\xbd"), std::string::npos);  // U+FFFD
}

// Every ASCII byte, escaped by the writer itself, comes out as nlohmann escapes it: quotes and
// backslashes, the short escapes, other control bytes as lower-case \u00xx, DEL as is.
TEST(JsonWriter, EscapesEveryAsciiByteAsDumpJsonDoes) {
  std::string every;
  for (int byte = 0; byte < 0x80; ++byte) every += static_cast<char>(byte);
  const Json document = {{every, every}, {"runs", "a\"b\\c\n" + every + "plain tail"}};
  EXPECT_EQ(written(document), dumped(document));
  EXPECT_NE(written(document).find("\\u001f"), std::string::npos);
}

TEST(JsonWriter, AnEmbeddedDocumentIsIndentedWhereItSits) {
  const Json inner = {{"line", 3}, {"notes", {"a", "b"}}};
  std::string text;
  {
    JsonWriter writer(text);
    writer.begin_object();
    writer.key("list");
    writer.begin_array();
    writer.value(inner);
    writer.end_array();
    writer.key("one");
    writer.value(inner);
    writer.end_object();
  }
  const Json whole = {{"list", {inner}}, {"one", inner}};
  EXPECT_EQ(text, dumped(whole));
}

TEST(JsonWriter, StartsAtAGivenDepth) {
  // {"pmus": [ <here> ]}: the value written at depth 2 fits into the document around it.
  const Json pmu = {{"name", "x"}, {"events", Json::array({1, 2})}};
  const Json whole = {{"pmus", {pmu}}};
  const std::string expected = dumped(whole);
  const std::string head = "{\n  \"pmus\": [\n    ";
  EXPECT_EQ(head + written(pmu, 2) + "\n  ]\n}", expected);
}

TEST(JsonWriter, AppendsToTextAlreadyThereAndLeavesNoRoomBehind) {
  std::string text = "head ";
  {
    JsonWriter writer(text);
    writer.begin_array();
    for (int i = 0; i < 200; ++i) writer.value(std::string(40, 'x'));
    writer.end_array();
  }
  const Json items(std::vector<std::string>(200, std::string(40, 'x')));
  EXPECT_EQ(text, "head " + dumped(items));
}

TEST(JsonWriter, IndentsBeyondOneCopiedLineStart) {
  // 40 levels: the innermost line starts hold 80 spaces, past what one copy writes.
  Json nested = Json::array({1});
  for (int level = 0; level < 40; ++level) nested = Json::object({{"k", nested}});
  EXPECT_EQ(written(nested), dumped(nested));
}

TEST(JsonBuilder, BuildsTheReplayedDocument) {
  const Json document = Json::parse(R"({"a": [1, {"b": [], "c": {}}, "s"], "d": null, "e": -1})");
  JsonBuilder builder;
  replay(document, builder);
  EXPECT_EQ(builder.take(), document);
}

// Any document: strings of arbitrary bytes (escapes, control characters, invalid UTF-8),
// every number kind, nesting with empty and non-empty containers.
rc::Gen<Json> any_json(int depth) {
  auto scalar = rc::gen::oneOf(
      rc::gen::map(rc::gen::arbitrary<std::string>(), [](std::string s) { return Json(s); }),
      rc::gen::map(rc::gen::arbitrary<std::uint64_t>(), [](std::uint64_t n) { return Json(n); }),
      rc::gen::map(rc::gen::arbitrary<std::int64_t>(), [](std::int64_t n) { return Json(n); }),
      rc::gen::map(rc::gen::arbitrary<double>(), [](double d) { return Json(d); }),
      rc::gen::map(rc::gen::arbitrary<bool>(), [](bool b) { return Json(b); }),
      rc::gen::just(Json(nullptr)));
  if (depth == 0) return scalar;
  auto array = rc::gen::map(rc::gen::container<std::vector<Json>>(any_json(depth - 1)),
                            [](std::vector<Json> items) { return Json(std::move(items)); });
  auto object =
      rc::gen::map(rc::gen::container<std::vector<std::pair<std::string, Json>>>(
                       rc::gen::pair(rc::gen::arbitrary<std::string>(), any_json(depth - 1))),
                   [](std::vector<std::pair<std::string, Json>> members) {
                     Json out = Json::object();
                     for (auto& [key, value] : members) out[key] = std::move(value);
                     return out;
                   });
  return rc::gen::oneOf(scalar, array, object);
}

// A generated document, shown in a counterexample as its (invalid UTF-8 replacing) dump.
struct Document {
  Json json;
};
void showValue(const Document& document, std::ostream& os) {
  os << document.json.dump(-1, ' ', false, Json::error_handler_t::replace);
}

std::string compact(const Json& document) {
  return document.dump(-1, ' ', false, Json::error_handler_t::replace);
}

RC_GTEST_PROP(JsonWriter, AnyDocumentPrintsAsDumpJson, ()) {
  const Document document =
      *rc::gen::map(rc::gen::resize(12, any_json(3)), [](Json json) { return Document{json}; });
  RC_ASSERT(written(document.json) == dumped(document.json));
  JsonBuilder builder;
  replay(document.json, builder);
  RC_ASSERT(compact(builder.take()) == compact(document.json));
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
