#include "pmuls/catalog_json.h"

#include "pmucat/format.h"
#include "pmucat/terms.h"
#include "pmuls/event_view.h"

namespace pmucat::cli {
namespace {

Json optional_text(const std::optional<std::string>& text) {
  return text ? Json(*text) : Json(nullptr);
}

template <class T>
Json optional_number(const std::optional<T>& number) {
  return number ? Json(*number) : Json(nullptr);
}

std::string_view kind_name(TermValueKind kind) {
  switch (kind) {
    case TermValueKind::none:
      return "bare";
    case TermValueKind::number:
      return "number";
    case TermValueKind::param:
      return "param";
    case TermValueKind::string:
      return "string";
  }
  return "bare";
}

Json term_to_json(const Term& term) {
  Json out = Json::object();
  out["name"] = term.name;
  out["kind"] = std::string(kind_name(term.kind));
  if (term.kind == TermValueKind::number || term.kind == TermValueKind::none) {
    out["value"] = term.value;
  } else if (term.kind == TermValueKind::string) {
    out["text"] = term.text;
  }
  return out;
}

Json event_to_json(const Pmu& pmu, const Event& event) {
  const EventView view = view_event(pmu, event);
  Json out = Json::object();
  out["name"] = event.name;
  out["perf"] = view.perf_name;
  out["file"] = event.path;
  Json terms = Json::array();
  for (const Term& term : event.terms.terms) terms.push_back(term_to_json(term));
  out["terms"] = std::move(terms);
  out["params"] = view.params;
  if (view.config) {
    out["config"] = (*view.config)[0];
    out["config1"] = (*view.config)[1];
    out["config2"] = (*view.config)[2];
    out["config3"] = (*view.config)[3];
  }
  if (view.error) out["error"] = diagnostic_to_json(*view.error);
  out["unit"] = optional_text(event.unit);
  out["scale"] = optional_number(event.scale);
  if (event.scale) out["scale_text"] = event.scale_text;
  out["per_pkg"] = event.per_pkg;
  out["snapshot"] = event.snapshot;
  return out;
}

Json cpu_list_json(const std::optional<CpuList>& list) {
  if (!list) return nullptr;
  Json out = Json::object();
  out["text"] = list->text;
  out["cpus"] = list->cpus;
  return out;
}

}  // namespace

Json format_to_json(const Format& format) {
  Json out = Json::object();
  out["name"] = format.name;
  out["word"] = config_word_name(format.spec.word);
  out["spec"] = to_string(format.spec);
  Json bits = Json::array();
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((format.spec.mask >> bit) & 1u) bits.push_back(bit);
  }
  out["bits"] = std::move(bits);
  out["mask"] = format.spec.mask;
  out["width"] = format.spec.width();
  out["max"] = format.spec.max_value();
  return out;
}

Json pmu_to_json(const Pmu& pmu, const Event* only_event) {
  const PmuAttributes& attributes = pmu.attributes();
  Json out = Json::object();
  out["name"] = pmu.name();
  out["type"] = optional_number(attributes.type);
  out["kind"] = std::string(to_string(pmu.kind()));
  out["cpumask"] = cpu_list_json(attributes.cpumask);
  out["cpus"] = cpu_list_json(attributes.cpus);
  Json caps = Json::object();
  for (const auto& [name, value] : attributes.caps) caps[name] = value;
  out["caps"] = std::move(caps);
  out["alias"] = optional_text(attributes.alias);
  out["identifier"] = optional_text(attributes.identifier);
  out["nr_addr_filters"] = optional_number(attributes.nr_addr_filters);
  out["perf_event_mux_interval_ms"] = optional_number(attributes.mux_interval_ms);
  Json formats = Json::array();
  for (const Format& format : pmu.formats()) formats.push_back(format_to_json(format));
  out["formats"] = std::move(formats);
  Json events = Json::array();
  if (only_event != nullptr) {
    events.push_back(event_to_json(pmu, *only_event));
  } else {
    for (const Event& event : pmu.events()) events.push_back(event_to_json(pmu, event));
  }
  out["events"] = std::move(events);
  Json diagnostics = Json::array();
  for (const Diagnostic& diagnostic : pmu.diagnostics()) {
    diagnostics.push_back(diagnostic_to_json(diagnostic));
  }
  out["diagnostics"] = std::move(diagnostics);
  return out;
}

Json catalog_to_json(const Catalog& catalog, std::span<const Json> pmus) {
  Json out = Json::object();
  out["sysfs"] = catalog.devices_dir().string();
  Json list = Json::array();
  for (const Json& pmu : pmus) list.push_back(pmu);
  out["pmus"] = std::move(list);
  return out;
}

}  // namespace pmucat::cli
