#include "pmucat/builtin_events.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "encode/legacy_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// perf list sorts a hardware or software section by the text it prints, `name OR alias`:
// compared piecewise here, without building the text.
bool listed_text_less(const BuiltinEvent& a, const BuiltinEvent& b) {
  auto piece = [](const BuiltinEvent& event, std::size_t i) -> std::string_view {
    // name, " OR ", alias, " OR ", alias...
    if (i == 0) return event.name;
    if (i % 2 == 1) return i / 2 < event.aliases.size() ? std::string_view(" OR ") : "";
    return event.aliases[i / 2 - 1];
  };
  std::size_t ia = 0, ib = 0;
  std::string_view ta = piece(a, 0), tb = piece(b, 0);
  while (true) {
    while (ta.empty() && ia < 2 * a.aliases.size()) ta = piece(a, ++ia);
    while (tb.empty() && ib < 2 * b.aliases.size()) tb = piece(b, ++ib);
    if (ta.empty() || tb.empty()) return ta.empty() && !tb.empty();
    if (ta.front() != tb.front()) {
      return static_cast<unsigned char>(ta.front()) < static_cast<unsigned char>(tb.front());
    }
    ta.remove_prefix(1);
    tb.remove_prefix(1);
  }
}

void sort_by_listed_text(std::vector<BuiltinEvent>::iterator first,
                         std::vector<BuiltinEvent>::iterator last) {
  std::sort(first, last, listed_text_less);
}

// A `cpus` file in the PMU's directory (a from_info PMU: its attributes say): a stat, not a read
// of every attribute, so a 1,000-PMU tree without a `cpu` PMU costs one stat per PMU.
bool has_cpus_file(const Pmu& pmu) {
  if (pmu.path().empty()) return pmu.attributes().cpus.has_value();
  struct stat status {};
  const std::string file = (pmu.path() / "cpus").string();
  return ::stat(file.c_str(), &status) == 0 || errno != ENOENT;
}

}  // namespace

std::vector<BuiltinEvent> builtin_events() {
  std::vector<BuiltinEvent> events;
  for (const encode_detail::LegacySymbol& symbol : encode_detail::legacy_symbols()) {
    BuiltinEvent event{
        symbol.kind,       std::string(symbol.name), {}, std::string(symbol.description),
        symbol.event.type, symbol.event.config};
    if (!symbol.alias.empty()) event.aliases.emplace_back(symbol.alias);
    events.push_back(std::move(event));
  }
  // legacy_symbols() is hardware, software, tool in that order: perf sorts the first two
  // sections and prints the tool events as its enum has them.
  auto kind_end = [&](BuiltinKind kind) {
    return std::find_if(events.begin(), events.end(),
                        [&](const BuiltinEvent& event) { return event.kind > kind; });
  };
  sort_by_listed_text(events.begin(), kind_end(BuiltinKind::hardware));
  sort_by_listed_text(kind_end(BuiltinKind::hardware), kind_end(BuiltinKind::software));
  const std::size_t cache_begin = events.size();
  for (encode_detail::CacheEventName& cache : encode_detail::cache_event_names()) {
    events.push_back({BuiltinKind::hw_cache,
                      std::move(cache.name),
                      {},
                      std::move(cache.description),
                      cache.event.type,
                      cache.event.config});
  }
  sort_by_listed_text(events.begin() + static_cast<std::ptrdiff_t>(cache_begin), events.end());
  return events;
}

std::string_view to_string(BuiltinKind kind) {
  switch (kind) {
    case BuiltinKind::hardware:
      return "hw";
    case BuiltinKind::software:
      return "sw";
    case BuiltinKind::tool:
      return "tool";
    case BuiltinKind::hw_cache:
      return "cache";
  }
  return "hw";
}

std::string_view builtin_kind_tag(BuiltinKind kind) {
  switch (kind) {
    case BuiltinKind::hardware:
      return "Hardware event";
    case BuiltinKind::software:
      return "Software event";
    case BuiltinKind::tool:
      return "Tool event";
    case BuiltinKind::hw_cache:
      return "Hardware cache event";
  }
  return "Hardware event";
}

std::vector<const Pmu*> builtin_kind_pmus(const Catalog& catalog, BuiltinKind kind) {
  if (kind != BuiltinKind::hardware && kind != BuiltinKind::hw_cache) return {};
  if (const Pmu* cpu = catalog.find_pmu("cpu")) return {cpu};
  std::vector<const Pmu*> pmus;
  for (const Pmu& pmu : catalog.pmus()) {
    if (has_cpus_file(pmu)) pmus.push_back(&pmu);
  }
  return pmus;
}

bool builtin_kind_available(BuiltinKind kind, std::span<const Pmu* const> kind_pmus) {
  if (kind != BuiltinKind::hardware && kind != BuiltinKind::hw_cache) return true;
  return !kind_pmus.empty();
}

PMUCAT_END_NAMESPACE
