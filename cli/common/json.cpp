#include "common/json.h"

#include "common/attr_fields.h"

namespace pmucat::cli {

void add_attr_fields(const Attr& attr, Json& object) {
  object["type"] = attr.type;
  object["size"] = attr.size;
  object["config"] = attr.config[0];
  object["config1"] = attr.config[1];
  object["config2"] = attr.config[2];
  object["config3"] = attr.config[3];
  for (const AttrField& field : set_attr_fields(attr, /*with_config=*/false)) {
    if (field.name == "type" || field.name == "size") continue;
    const std::string key(field.name);
    switch (field.style) {
      case FieldStyle::flag:
        object[key] = true;
        break;
      case FieldStyle::signed_decimal:
        object[key] = static_cast<std::int64_t>(field.value);
        break;
      case FieldStyle::decimal:
      case FieldStyle::hex:
        object[key] = field.value;
        break;
    }
  }
}

std::string dump_json(const Json& value) {
  // Invalid UTF-8 in sysfs text must not abort the dump: replace it.
  std::string text = value.dump(2, ' ', false, Json::error_handler_t::replace);
  text += '\n';
  return text;
}

}  // namespace pmucat::cli
