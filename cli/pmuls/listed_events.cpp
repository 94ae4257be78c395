#include "pmuls/listed_events.h"

#include <fmt/core.h>

#include <array>
#include <utility>

#include "common/json_writer.h"
#include "pmucat/builtin_events.h"
#include "pmucat/tracefs.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

struct KindName {
  std::string_view name;
  ListKind kind;
};

// perf list's selectors and their long spellings (builtin-list.c of perf 6.1); `tool` is
// pmucat's, perf 6.1 lists tool events under `sw`.
constexpr std::array<KindName, 9> kKindNames{{
    {"hw", ListKind::hw},
    {"hardware", ListKind::hw},
    {"sw", ListKind::sw},
    {"software", ListKind::sw},
    {"tool", ListKind::tool},
    {"cache", ListKind::cache},
    {"hwcache", ListKind::cache},
    {"pmu", ListKind::pmu},
    {"tracepoint", ListKind::tracepoint},
}};

ListKind list_kind(BuiltinKind kind) {
  switch (kind) {
    case BuiltinKind::hardware:
      return ListKind::hw;
    case BuiltinKind::software:
      return ListKind::sw;
    case BuiltinKind::tool:
      return ListKind::tool;
    case BuiltinKind::hw_cache:
      return ListKind::cache;
  }
  return ListKind::hw;
}

// Calls `item` on each comma-separated item of `value`, blanks trimmed, empty ones skipped.
template <class Fn>
void for_each_item(std::string_view value, Fn&& item) {
  while (true) {
    const std::size_t comma = value.find(',');
    std::string_view text = value.substr(0, comma);
    while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
    if (!text.empty()) item(text);
    if (comma == std::string_view::npos) return;
    value.remove_prefix(comma + 1);
  }
}

std::string listed_text(const ListedEvent& event) {
  std::string text = event.name;
  for (const std::string& alias : event.aliases) text += " OR " + alias;
  return text;
}

template <class Out>
void write_listed_event(Out& out, const ListedEvent& event) {
  out.begin_object();
  out.key("kind");
  out.value(event.kind);
  out.key("name");
  out.value(event.name);
  out.key("aliases");
  out.begin_array();
  for (const std::string& alias : event.aliases) out.value(alias);
  out.end_array();
  out.key("description");
  out.value(event.description);
  out.key("type");
  out.value(event.type);
  out.key("config");
  out.value(event.config);
  out.key("available");
  out.value(event.available);
  out.key("pmus");
  out.begin_array();
  for (const std::string& pmu : event.pmus) out.value(pmu);
  out.end_array();
  // What perf list -j (perf 6.2 and later) prints for these events, under its names.
  out.key("EventName");
  out.value(event.name);
  if (!event.aliases.empty()) {
    out.key("EventAlias");
    out.value(event.aliases.front());
  }
  out.key("EventType");
  out.value(event.tag);
  out.key("BriefDescription");
  out.value(event.description);
  out.end_object();
}

template <class Out>
void write_listed_events(Out& out, std::span<const ListedEvent> events) {
  out.begin_array();
  for (const ListedEvent& event : events) write_listed_event(out, event);
  out.end_array();
}

}  // namespace

KindSet KindSet::all_builtins() {
  KindSet kinds;
  for (ListKind kind : {ListKind::hw, ListKind::sw, ListKind::tool, ListKind::cache})
    kinds.add(kind);
  return kinds;
}

std::optional<ListKind> parse_kind(std::string_view text) {
  for (const KindName& entry : kKindNames) {
    if (entry.name == text) return entry.kind;
  }
  return std::nullopt;
}

KindSet parse_kinds(std::span<const std::string> values) {
  KindSet kinds;
  for (const std::string& value : values) {
    for_each_item(value, [&](std::string_view item) {
      if (item == "all") {
        kinds = KindSet::all_builtins();
        kinds.add(ListKind::pmu);
      } else if (const std::optional<ListKind> kind = parse_kind(item)) {
        kinds.add(*kind);
      }
    });
  }
  return kinds;
}

std::string kind_check(const std::string& value) {
  std::string error;
  for_each_item(value, [&](std::string_view item) {
    if (!error.empty()) return;
    if (item != "all" && !parse_kind(item)) {
      error =
          fmt::format("unknown kind '{}' (kinds: hw, sw, tool, cache, pmu, tracepoint, all)", item);
    }
  });
  return error;
}

std::vector<ListedEvent> builtin_listed_events(const Catalog& catalog, KindSet kinds) {
  std::vector<ListedEvent> listed;
  // The PMUs of a kind are looked up once (a stat per PMU at most), and only for listed kinds.
  std::optional<std::vector<std::string>> core_names;
  bool core_available = false;
  for (BuiltinEvent& event : builtin_events()) {
    if (!kinds.has(list_kind(event.kind))) continue;
    ListedEvent entry{std::string(to_string(event.kind)),
                      std::string(builtin_kind_tag(event.kind)),
                      std::move(event.name),
                      std::move(event.aliases),
                      std::move(event.description),
                      static_cast<std::uint32_t>(event.type),
                      event.config,
                      true,
                      {}};
    const bool needs_core =
        event.kind == BuiltinKind::hardware || event.kind == BuiltinKind::hw_cache;
    if (needs_core) {
      if (!core_names) {
        const std::vector<const Pmu*> pmus = builtin_kind_pmus(catalog, event.kind);
        core_available = builtin_kind_available(event.kind, pmus);
        core_names.emplace();
        for (const Pmu* pmu : pmus) core_names->push_back(pmu->name());
      }
      entry.available = core_available;
      entry.pmus = *core_names;
    }
    listed.push_back(std::move(entry));
  }
  return listed;
}

Expected<std::vector<ListedEvent>> tracepoint_listed_events(const std::string& root) {
  auto tracefs = root.empty() ? Tracefs::open_live() : Tracefs::open(root);
  if (!tracefs) return unexpected(std::move(tracefs).error());
  auto tracepoints = tracefs->list();
  if (!tracepoints) return unexpected(std::move(tracepoints).error());
  std::vector<ListedEvent> listed;
  listed.reserve(tracepoints->size());
  for (Tracepoint& tracepoint : *tracepoints) {
    ListedEvent& entry = listed.emplace_back();
    entry.kind = "tracepoint";
    entry.tag = "Tracepoint event";
    entry.name = tracepoint.system + ":" + tracepoint.event;
    entry.type = static_cast<std::uint32_t>(PerfType::tracepoint);
    entry.config = tracepoint.id;
  }
  return listed;
}

bool listed_event_selected(const ListedEvent& event, const EventFilter& filter) {
  if (!filter.topics.empty()) return false;
  if (!filter.name_glob.empty()) {
    bool matched = glob_matches_nocase(filter.name_glob, event.name);
    for (const std::string& alias : event.aliases)
      matched = matched || glob_matches_nocase(filter.name_glob, alias);
    if (!matched) return false;
  }
  for (const std::string& word : filter.words) {
    bool found = contains_nocase(event.name, word) || contains_nocase(event.tag, word) ||
                 contains_nocase(event.description, word);
    for (const std::string& alias : event.aliases) found = found || contains_nocase(alias, word);
    if (!found) return false;
  }
  return true;
}

std::vector<const ListedEvent*> find_listed_events(std::span<const ListedEvent> events,
                                                   std::string_view name) {
  std::vector<const ListedEvent*> found;
  for (const ListedEvent& event : events) {
    bool matched = iequals(event.name, name);
    for (const std::string& alias : event.aliases) matched = matched || iequals(alias, name);
    if (matched) found.push_back(&event);
  }
  return found;
}

std::string render_listed_events(std::span<const ListedEvent> events) {
  std::string out;
  for (const ListedEvent& event : events) {
    out += fmt::format("  {:<50} [{}]", listed_text(event), event.tag);
    if (!event.available) out += "  (not available: no core PMU)";
    out += '\n';
  }
  return out;
}

std::string render_listed_event_detail(const ListedEvent& event) {
  std::string out = fmt::format("{} [{}]\n", listed_text(event), event.tag);
  out += fmt::format("  kind:        {}\n", event.kind);
  out += fmt::format("  encoding:    type={} config={:#x}\n", event.type, event.config);
  std::string where;
  for (const std::string& pmu : event.pmus) where += (where.empty() ? " (" : ", ") + pmu;
  if (!where.empty()) where += ')';
  out += fmt::format("  available:   {}{}\n", event.available ? "yes" : "no: no core PMU", where);
  if (!event.description.empty()) out += fmt::format("  description: {}\n", event.description);
  return out;
}

Json listed_events_to_json(std::span<const ListedEvent> events) {
  JsonBuilder builder;
  write_listed_events(builder, events);
  return builder.take();
}

std::string listed_events_json_text(std::span<const ListedEvent> events) {
  std::string text;
  {
    JsonWriter writer(text, 1);  // `text` holds the events once the writer is gone
    write_listed_events(writer, events);
  }
  return text;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
