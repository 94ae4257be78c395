#include "common/json.h"

#include "common/attr_fields.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

void add_attr_fields(const Attr& attr, Json& object) {
  object["type"] = attr.type;
  object["size"] = attr.size;
  object["config"] = attr.config[0];
  object["config1"] = attr.config[1];
  object["config2"] = attr.config[2];
  object["config3"] = attr.config[3];
  if (shown_config_words(attr.config) > 4) object["config4"] = attr.config[4];
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

Json encoded_to_json(const EncodedEvent& event) {
  Json out = Json::object();
  out["spec"] = event.spec;
  out["pmu"] = event.pmu;
  if (!event.event.empty()) out["event"] = event.event;
  add_attr_fields(event.attr, out);
  const EventSettings& settings = event.settings;
  if (settings.name) out["name"] = *settings.name;
  if (settings.metric_id) out["metric_id"] = *settings.metric_id;
  if (settings.percore) out["percore"] = *settings.percore;
  if (settings.nr) out["nr"] = *settings.nr;
  if (settings.call_graph) out["call_graph"] = *settings.call_graph;
  if (settings.branch_type) out["branch_type"] = *settings.branch_type;
  if (!settings.driver_config.empty()) out["driver_config"] = settings.driver_config;
  out["perf"] = event.perf_string;
  if (event.group_leader) {
    out["group_leader"] = *event.group_leader;
    if (!event.group_name.empty()) out["group_name"] = event.group_name;
    if (!event.group_modifiers.empty()) out["group_modifiers"] = event.group_modifiers;
  }
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
