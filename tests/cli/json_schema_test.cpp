#include "json_schema.h"

#include <gtest/gtest.h>

#include <fstream>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

using nlohmann::json;

const json kSchema = json::parse(R"({
  "type": "object",
  "required": ["name", "word"],
  "additionalProperties": false,
  "properties": {
    "name": {"type": "string"},
    "word": {"$ref": "#/$defs/u64"},
    "kind": {"enum": ["core", "uncore"]},
    "list": {"type": "array", "minItems": 1, "items": {"type": ["integer", "null"]}},
    "flag": {"const": true}
  },
  "$defs": {"u64": {"type": "integer", "minimum": 0, "maximum": 18446744073709551615}}
})");

TEST(JsonSchema, AcceptsAValidInstance) {
  const json instance = json::parse(
      R"({"name": "cpu", "word": 18446744073709551615, "kind": "core", "list": [1, null],
          "flag": true})");
  EXPECT_EQ(validate_json(kSchema, instance), std::vector<std::string>{});
}

TEST(JsonSchema, ReportsEachViolationWithItsPointer) {
  const json instance =
      json::parse(R"({"word": -1, "kind": "gpu", "list": ["x"], "flag": false, "extra": 1})");
  const auto errors = validate_json(kSchema, instance);
  const auto has = [&](const std::string& text) {
    for (const auto& error : errors) {
      if (error.find(text) != std::string::npos) return true;
    }
    return false;
  };
  EXPECT_TRUE(has("/: missing required property name"));
  EXPECT_TRUE(has("/word: below minimum"));
  EXPECT_TRUE(has("/kind: value \"gpu\" is not in the enum"));
  EXPECT_TRUE(has("/list/0: expected type"));
  EXPECT_TRUE(has("/flag: value false is not true"));
  EXPECT_TRUE(has("/extra: no value is allowed here"));
}

TEST(JsonSchema, IntegerRejectsADoubleAndMinItemsCounts) {
  const json instance = json::parse(R"({"name": "cpu", "word": 1.5, "list": []})");
  const auto errors = validate_json(kSchema, instance);
  EXPECT_EQ(errors.size(), 2u);
}

TEST(JsonSchema, UnknownKeywordsAndBadRefsAreErrors) {
  EXPECT_FALSE(validate_json(json::parse(R"({"pattern": "^a"})"), "abc").empty());
  EXPECT_FALSE(validate_json(json::parse(R"({"$ref": "#/$defs/nope"})"), 1).empty());
}

TEST(JsonSchema, CheckSchemaFindsNestedUnsupportedKeywords) {
  const json schema = json::parse(
      R"({"properties": {"a": {"items": {"pattern": "x"}}}, "$defs": {"b": {"$ref": "#/$defs/c"}}})");
  const auto problems = check_schema(schema);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_EQ(problems[0], "#/properties/a/items: unsupported keyword pattern");
  EXPECT_EQ(problems[1], "#/$defs/b: unresolvable $ref #/$defs/c");
  EXPECT_TRUE(check_schema(kSchema).empty());
}

TEST(JsonSchema, ShippedSchemasUseOnlyTheSupportedSubset) {
  for (const char* name : {"pmuls", "pmuencode", "pmuencode-decode", "pmustat"}) {
    std::ifstream file(std::string(PMUCAT_SOURCE_DIR) + "/docs/schema/" + name + ".schema.json");
    ASSERT_TRUE(file) << name;
    const json schema = json::parse(file);
    EXPECT_EQ(check_schema(schema), std::vector<std::string>{}) << name;
  }
}

}  // namespace
}  // namespace testing
PMUCAT_END_NAMESPACE
