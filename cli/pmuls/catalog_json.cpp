#include "pmuls/catalog_json.h"

#include <bit>
#include <optional>
#include <utility>

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

// Appends a member whose key is known to be new. operator[] would first search the ordered
// object's key list, which made building an event's members quadratic in their number.
void add(Json& object, std::string_view key, Json value) {
  object.get_ref<Json::object_t&>().emplace_back(std::string(key), std::move(value));
}

Json array_with_room(std::size_t items) {
  Json out = Json::array();
  out.get_ref<Json::array_t&>().reserve(items);
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
  add(out, "name", term.name);
  add(out, "kind", std::string(kind_name(term.kind)));
  if (term.kind == TermValueKind::number || term.kind == TermValueKind::none) {
    add(out, "value", term.value);
  } else if (term.kind == TermValueKind::string) {
    add(out, "text", term.text);
  }
  return out;
}

Json event_to_json(const Pmu& pmu, const Event& event) {
  EventView view = view_event(pmu, event);
  Json out = object_with_room(16);
  add(out, "name", event.name);
  add(out, "perf", std::move(view.perf_name));
  add(out, "file", event.path);
  Json terms = array_with_room(event.terms.terms.size());
  for (const Term& term : event.terms.terms) terms.push_back(term_to_json(term));
  add(out, "terms", std::move(terms));
  add(out, "params", std::move(view.params));
  if (view.config) {
    add(out, "config", (*view.config)[0]);
    add(out, "config1", (*view.config)[1]);
    add(out, "config2", (*view.config)[2]);
    add(out, "config3", (*view.config)[3]);
  }
  if (view.error) add(out, "error", diagnostic_to_json(*view.error));
  add(out, "unit", optional_text(event.unit));
  add(out, "scale", optional_number(event.scale));
  if (event.scale) add(out, "scale_text", event.scale_text);
  add(out, "per_pkg", event.per_pkg);
  add(out, "snapshot", event.snapshot);
  return out;
}

Json cpu_list_json(const std::optional<CpuList>& list) {
  if (!list) return nullptr;
  Json out = object_with_room(2);
  add(out, "text", list->text);
  add(out, "cpus", list->cpus);
  return out;
}

using JsonSerializer = nlohmann::detail::serializer<Json>;

// Empties `value` leaf first. nlohmann destroys a nested value by moving every descendant into
// one growing vector (to bound recursion on deep documents); a PMU's document is a few levels
// deep, and taking it apart bottom-up frees the same nodes without building that vector.
void dismantle(Json& value) {
  if (value.is_array()) {
    Json::array_t& items = value.get_ref<Json::array_t&>();
    for (Json& item : items) dismantle(item);
    items.clear();
  } else if (value.is_object()) {
    Json::object_t& members = value.get_ref<Json::object_t&>();
    for (auto& member : members) dismantle(member.second);
    members.clear();
  }
}

constexpr unsigned kIndentStep = 2;  // as dump_json
constexpr unsigned kPmuIndent = 4;   // {"pmus": [ <here> ]}

}  // namespace

Json format_to_json(const Format& format) {
  Json out = object_with_room(7);
  add(out, "name", format.name);
  add(out, "word", config_word_name(format.spec.word));
  add(out, "spec", to_string(format.spec));
  Json bits = array_with_room(static_cast<std::size_t>(std::popcount(format.spec.mask)));
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((format.spec.mask >> bit) & 1u) bits.push_back(bit);
  }
  add(out, "bits", std::move(bits));
  add(out, "mask", format.spec.mask);
  add(out, "width", format.spec.width());
  add(out, "max", format.spec.max_value());
  return out;
}

Json pmu_to_json(const Pmu& pmu, const Event* only_event) {
  const PmuAttributes& attributes = pmu.attributes();
  Json out = object_with_room(13);
  add(out, "name", pmu.name());
  add(out, "type", optional_number(attributes.type));
  add(out, "kind", std::string(to_string(pmu.kind())));
  add(out, "cpumask", cpu_list_json(attributes.cpumask));
  add(out, "cpus", cpu_list_json(attributes.cpus));
  Json caps = Json::object();
  for (const auto& [name, value] : attributes.caps) caps[name] = value;
  add(out, "caps", std::move(caps));
  add(out, "alias", optional_text(attributes.alias));
  add(out, "identifier", optional_text(attributes.identifier));
  add(out, "nr_addr_filters", optional_number(attributes.nr_addr_filters));
  add(out, "perf_event_mux_interval_ms", optional_number(attributes.mux_interval_ms));
  const std::span<const Format> pmu_formats = pmu.formats();
  Json formats = array_with_room(pmu_formats.size());
  for (const Format& format : pmu_formats) formats.push_back(format_to_json(format));
  add(out, "formats", std::move(formats));
  Json events;
  if (only_event != nullptr) {
    events = array_with_room(1);
    events.push_back(event_to_json(pmu, *only_event));
  } else {
    const std::span<const Event> pmu_events = pmu.events();
    events = array_with_room(pmu_events.size());
    for (const Event& event : pmu_events) events.push_back(event_to_json(pmu, event));
  }
  add(out, "events", std::move(events));
  Json diagnostics = Json::array();
  for (const Diagnostic& diagnostic : pmu.diagnostics()) {
    diagnostics.push_back(diagnostic_to_json(diagnostic));
  }
  add(out, "diagnostics", std::move(diagnostics));
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
  // nlohmann's serializer starting at indent 4 writes each PMU where it sits in the document,
  // into one string that keeps its capacity from PMU to PMU.
  std::string text;
  JsonSerializer serializer(nlohmann::detail::output_adapter<char>(text), ' ',
                            Json::error_handler_t::replace);
  for (std::size_t i = 0; i < pmus.size(); ++i) {
    const Pmu& listed = *pmus[i];
    // Only the printed text is kept, never the loaded PMU; a from_info PMU has nothing to load.
    std::optional<Pmu> scratch;
    if (!listed.path().empty()) scratch = Pmu::from_directory(listed.name(), listed.path());
    Json pmu_json = pmu_to_json(scratch ? *scratch : listed);
    text.assign(kPmuIndent, ' ');
    serializer.dump(pmu_json, /*pretty_print=*/true, /*ensure_ascii=*/false, kIndentStep,
                    kPmuIndent);
    dismantle(pmu_json);
    text += i + 1 < pmus.size() ? ",\n" : "\n  ]";
    write(text);
  }
  write("\n}\n");
}

Json catalog_to_json(const Catalog& catalog, std::span<const Json> pmus) {
  Json out = Json::object();
  add(out, "sysfs", catalog.devices_dir().string());
  Json list = Json::array();
  for (const Json& pmu : pmus) list.push_back(pmu);
  add(out, "pmus", std::move(list));
  return out;
}

}  // namespace pmucat::cli
