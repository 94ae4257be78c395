#include "pmuls/catalog_json.h"

#include <bit>
#include <optional>

#include "pmucat/format.h"
#include "pmucat/terms.h"
#include "pmuls/event_view.h"

namespace pmucat::cli {
namespace {

// An empty object whose key list will not reallocate while `keys` members are added (ordered
// objects are vectors; growing them one key at a time shows in pmuls --json profiles).
Json object_with_room(std::size_t keys) {
  Json out = Json::object();
  out.get_ref<Json::object_t&>().reserve(keys);
  return out;
}

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
  Json out = object_with_room(4);
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
  Json out = object_with_room(16);
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
  Json out = object_with_room(2);
  out["text"] = list->text;
  out["cpus"] = list->cpus;
  return out;
}

}  // namespace

Json format_to_json(const Format& format) {
  Json out = object_with_room(7);
  out["name"] = format.name;
  out["word"] = config_word_name(format.spec.word);
  out["spec"] = to_string(format.spec);
  Json bits = Json::array();
  bits.get_ref<Json::array_t&>().reserve(static_cast<std::size_t>(std::popcount(format.spec.mask)));
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
  Json out = object_with_room(13);
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

void write_catalog_json(const Catalog& catalog, std::span<const Pmu* const> pmus,
                        const std::function<void(std::string_view)>& write) {
  // dump_json's layout with indent 2: the PMU objects sit two levels deep.
  const Json sysfs = catalog.devices_dir().string();
  std::string head = "{\n  \"sysfs\": ";
  head += sysfs.dump(-1, ' ', false, Json::error_handler_t::replace);
  head += pmus.empty() ? ",\n  \"pmus\": []" : ",\n  \"pmus\": [\n";
  write(head);
  std::string text;
  for (std::size_t i = 0; i < pmus.size(); ++i) {
    const Pmu& listed = *pmus[i];
    // Only the printed text is kept, never the loaded PMU; a from_info PMU has nothing to load.
    std::optional<Pmu> scratch;
    if (!listed.path().empty()) scratch = Pmu::from_directory(listed.name(), listed.path());
    const std::string pmu_text = dump_json(pmu_to_json(scratch ? *scratch : listed));
    text.clear();
    // JSON strings never hold a raw newline, so every newline starts a line to indent.
    std::string_view rest(pmu_text);
    if (!rest.empty() && rest.back() == '\n') rest.remove_suffix(1);
    while (!rest.empty()) {
      const std::size_t end = rest.find('\n');
      text += "    ";
      text += rest.substr(0, end == std::string_view::npos ? rest.size() : end + 1);
      rest.remove_prefix(end == std::string_view::npos ? rest.size() : end + 1);
    }
    text += i + 1 < pmus.size() ? ",\n" : "\n  ]";
    write(text);
  }
  write("\n}\n");
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
