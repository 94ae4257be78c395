#include "json_schema.h"

#include <set>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {
namespace {

using nlohmann::json;

const std::set<std::string>& known_keywords() {
  static const std::set<std::string> keywords = {"$schema",
                                                 "$id",
                                                 "$defs",
                                                 "$ref",
                                                 "title",
                                                 "description",
                                                 "examples",
                                                 "type",
                                                 "properties",
                                                 "required",
                                                 "additionalProperties",
                                                 "items",
                                                 "enum",
                                                 "const",
                                                 "minimum",
                                                 "maximum",
                                                 "minItems"};
  return keywords;
}

bool has_type(const json& instance, const std::string& type) {
  if (type == "object") return instance.is_object();
  if (type == "array") return instance.is_array();
  if (type == "string") return instance.is_string();
  if (type == "boolean") return instance.is_boolean();
  if (type == "null") return instance.is_null();
  if (type == "integer") return instance.is_number_integer();
  if (type == "number") return instance.is_number();
  return false;
}

long double as_long_double(const json& number) {
  if (number.is_number_unsigned()) return static_cast<long double>(number.get<std::uint64_t>());
  if (number.is_number_integer()) return static_cast<long double>(number.get<std::int64_t>());
  return static_cast<long double>(number.get<double>());
}

class Validator {
 public:
  explicit Validator(const json& root) : root_(root) {}

  void check(const json& schema, const json& instance, const std::string& where) {
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(where, "no value is allowed here");
      return;
    }
    if (!schema.is_object()) {
      fail(where, "schema is not an object");
      return;
    }
    for (const auto& [keyword, value] : schema.items()) {
      if (known_keywords().count(keyword) == 0) fail(where, "unsupported keyword " + keyword);
    }
    if (schema.contains("$ref")) {
      check(resolve(schema["$ref"].get<std::string>(), where), instance, where);
    }
    if (schema.contains("type")) check_type(schema["type"], instance, where);
    if (schema.contains("enum")) {
      bool found = false;
      for (const json& option : schema["enum"]) found = found || option == instance;
      if (!found) fail(where, "value " + instance.dump() + " is not in the enum");
    }
    if (schema.contains("const") && schema["const"] != instance) {
      fail(where, "value " + instance.dump() + " is not " + schema["const"].dump());
    }
    if (instance.is_number()) {
      if (schema.contains("minimum") &&
          as_long_double(instance) < as_long_double(schema["minimum"])) {
        fail(where, "below minimum");
      }
      if (schema.contains("maximum") &&
          as_long_double(instance) > as_long_double(schema["maximum"])) {
        fail(where, "above maximum");
      }
    }
    if (instance.is_object()) check_object(schema, instance, where);
    if (instance.is_array()) {
      if (schema.contains("minItems") && instance.size() < schema["minItems"].get<std::size_t>()) {
        fail(where, "fewer items than minItems");
      }
      if (schema.contains("items")) {
        for (std::size_t i = 0; i < instance.size(); ++i) {
          check(schema["items"], instance[i], where + "/" + std::to_string(i));
        }
      }
    }
  }

  std::vector<std::string> take() { return std::move(errors_); }

 private:
  void fail(const std::string& where, const std::string& what) {
    errors_.push_back((where.empty() ? "/" : where) + ": " + what);
  }

  const json& resolve(const std::string& ref, const std::string& where) {
    static const json kAnything = true;
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0 || !root_.contains("$defs") ||
        !root_["$defs"].contains(ref.substr(prefix.size()))) {
      fail(where, "unresolvable $ref " + ref);
      return kAnything;
    }
    return root_["$defs"][ref.substr(prefix.size())];
  }

  void check_type(const json& type, const json& instance, const std::string& where) {
    bool matches = false;
    if (type.is_string()) {
      matches = has_type(instance, type.get<std::string>());
    } else {
      for (const json& option : type)
        matches = matches || has_type(instance, option.get<std::string>());
    }
    if (!matches) fail(where, "expected type " + type.dump() + ", got " + instance.type_name());
  }

  void check_object(const json& schema, const json& instance, const std::string& where) {
    if (schema.contains("required")) {
      for (const json& name : schema["required"]) {
        if (!instance.contains(name.get<std::string>())) {
          fail(where, "missing required property " + name.get<std::string>());
        }
      }
    }
    const json empty = json::object();
    const json& properties = schema.contains("properties") ? schema["properties"] : empty;
    for (const auto& [name, value] : instance.items()) {
      const std::string child = where + "/" + name;
      if (properties.contains(name)) {
        check(properties[name], value, child);
      } else if (schema.contains("additionalProperties")) {
        check(schema["additionalProperties"], value, child);
      }
    }
  }

  const json& root_;
  std::vector<std::string> errors_;
};

}  // namespace

namespace {

void walk_schema(const json& root, const json& schema, const std::string& where,
                 std::vector<std::string>& problems) {
  if (schema.is_boolean()) return;
  if (!schema.is_object()) {
    problems.push_back(where + ": schema is not an object");
    return;
  }
  for (const auto& [keyword, value] : schema.items()) {
    if (known_keywords().count(keyword) == 0) {
      problems.push_back(where + ": unsupported keyword " + keyword);
    }
  }
  if (schema.contains("$ref")) {
    const std::string ref = schema["$ref"].get<std::string>();
    const std::string prefix = "#/$defs/";
    if (ref.rfind(prefix, 0) != 0 || !root.contains("$defs") ||
        !root["$defs"].contains(ref.substr(prefix.size()))) {
      problems.push_back(where + ": unresolvable $ref " + ref);
    }
  }
  for (const char* nested : {"properties", "$defs"}) {
    if (!schema.contains(nested)) continue;
    for (const auto& [name, child] : schema[nested].items()) {
      walk_schema(root, child, where + "/" + nested + "/" + name, problems);
    }
  }
  for (const char* single : {"items", "additionalProperties"}) {
    if (schema.contains(single)) walk_schema(root, schema[single], where + "/" + single, problems);
  }
}

}  // namespace

std::vector<std::string> check_schema(const nlohmann::json& schema) {
  std::vector<std::string> problems;
  walk_schema(schema, schema, "#", problems);
  return problems;
}

std::vector<std::string> validate_json(const nlohmann::json& schema,
                                       const nlohmann::json& instance) {
  Validator validator(schema);
  validator.check(schema, instance, "");
  return validator.take();
}

}  // namespace testing
PMUCAT_END_NAMESPACE
