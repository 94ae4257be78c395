#include "pmucat/builtin_events.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include "encode/legacy_events.h"

namespace pmucat {
namespace {

// What perf list sorts a hardware or software line by: the text it prints, `name OR alias`.
std::string listed_text(const BuiltinEvent& event) {
  std::string text = event.name;
  for (const std::string& alias : event.aliases) text += " OR " + alias;
  return text;
}

void sort_by_listed_text(std::vector<BuiltinEvent>::iterator first,
                         std::vector<BuiltinEvent>::iterator last) {
  std::sort(first, last, [](const BuiltinEvent& a, const BuiltinEvent& b) {
    return listed_text(a) < listed_text(b);
  });
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

}  // namespace pmucat
