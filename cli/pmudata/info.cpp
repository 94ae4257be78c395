// `pmudata info` output.
#include "pmudata/info.h"

#include <fmt/format.h>

#include <map>

#include "pmucat/decode.h"
#include "pmucat/perfdata_features.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// The catalog PMU whose sysfs type the attr carries.
const Pmu* pmu_of(const Attr& attr, const Catalog* catalog) {
  if (catalog == nullptr) return nullptr;
  for (const auto& pmu : catalog->pmus()) {
    if (pmu.type() == attr.type) return &pmu;
  }
  return nullptr;
}

// "cpu/event=0x3c,umask=0x1/ (= cpu-cycles)" when the catalog can decode it.
std::string decoded_spec(const Attr& attr, const Catalog* catalog) {
  const Pmu* pmu = pmu_of(attr, catalog);
  if (pmu == nullptr) return {};
  const Decoded d = decode(*pmu, attr.config);
  if (d.terms_string.empty() && d.events.empty()) return {};
  std::string out = fmt::format("{}/{}/", pmu->name(), d.terms_string);
  if (!d.events.empty()) out += fmt::format(" (= {})", fmt::join(d.events, ", "));
  return out;
}

// A short readable summary of a feature payload, empty when we have none.
std::string feature_summary(std::uint32_t id, const std::vector<std::byte>& payload) {
  switch (id) {
    case feature::hostname:
    case feature::osrelease:
    case feature::version:
    case feature::arch:
    case feature::cpudesc:
    case feature::cpuid:
      return decode_feature_string(payload).value_or("");
    case feature::nrcpus:
      if (const auto n = decode_nrcpus(payload))
        return fmt::format("{} available, {} online", n->first, n->second);
      return {};
    case feature::total_mem:
      if (const auto kb = decode_total_mem(payload)) return fmt::format("{} kB", *kb);
      return {};
    case feature::cmdline:
      if (const auto cmd = decode_feature_string_list(payload))
        return fmt::format("{}", fmt::join(*cmd, " "));
      return {};
    case feature::pmu_mappings:
      if (const auto pmus = decode_pmu_mappings(payload)) {
        std::vector<std::string> items;
        for (const auto& p : *pmus) items.push_back(fmt::format("{} = {}", p.name, p.type));
        return fmt::format("{}", fmt::join(items, ", "));
      }
      return {};
    case feature::group_desc:
      if (const auto groups = decode_group_desc(payload)) {
        std::vector<std::string> items;
        for (const auto& g : *groups) {
          items.push_back(
              fmt::format("{} (leader {}, {} members)", g.name, g.leader_index, g.members));
        }
        return fmt::format("{}", fmt::join(items, ", "));
      }
      return {};
    case feature::build_id:
      if (const auto ids = decode_build_ids(payload)) return fmt::format("{} entries", ids->size());
      return {};
    default:
      return {};
  }
}

}  // namespace

Json info_json(const LoadedData& loaded, const Catalog* catalog) {
  const PerfData& data = loaded.data;
  Json out;
  out["format"] = std::string(to_string(loaded.format));
  out["size_bytes"] = loaded.size_bytes;
  out["other_endian"] = data.other_endian;
  Json events = Json::array();
  for (const auto& e : data.events) {
    Json ev;
    ev["name"] = e.name;
    ev["ids"] = e.ids;
    ev["attr_size"] = e.attr.size;
    ev["type"] = e.attr.type;
    add_attr_fields(e.attr, ev);
    if (const auto spec = decoded_spec(e.attr, catalog); !spec.empty()) ev["decoded"] = spec;
    events.push_back(std::move(ev));
  }
  out["events"] = std::move(events);
  Json features = Json::array();
  for (const auto& [id, payload] : data.features) {
    Json f;
    f["id"] = id;
    f["name"] = feature_name(id);
    f["size"] = payload.size();
    if (!data.other_endian) {
      if (const auto s = feature_summary(id, payload); !s.empty()) f["value"] = s;
    }
    features.push_back(std::move(f));
  }
  out["features"] = std::move(features);
  Json counts = Json::object();
  for (const auto& [name, n] : loaded.record_counts) counts[name] = n;
  out["records"] = std::move(counts);
  out["record_total"] = loaded.record_total;
  return out;
}

std::string info_text(const LoadedData& loaded, const Catalog* catalog) {
  const PerfData& data = loaded.data;
  std::string out = fmt::format("format: {}{}, {} bytes\n", to_string(loaded.format),
                                data.other_endian ? ", other-endian" : "", loaded.size_bytes);
  out += fmt::format("events: {}\n", data.events.size());
  for (std::size_t i = 0; i < data.events.size(); ++i) {
    const auto& e = data.events[i];
    out += fmt::format("event {}: {} (ids: {})\n", i, e.name.empty() ? "(unnamed)" : e.name,
                       fmt::join(e.ids, ", "));
    if (const auto spec = decoded_spec(e.attr, catalog); !spec.empty()) {
      out += fmt::format("  decoded: {}\n", spec);
    }
    out += dump_attr(e.attr);
  }
  out += fmt::format("features: {}\n", data.features.size());
  for (const auto& [id, payload] : data.features) {
    const std::string summary = data.other_endian ? "" : feature_summary(id, payload);
    out += fmt::format("  {:<16} {:>6} bytes{}{}\n", feature_name(id), payload.size(),
                       summary.empty() ? "" : "  ", summary);
  }
  out += fmt::format("records: {}\n", loaded.record_total);
  for (const auto& [name, n] : loaded.record_counts)
    out += fmt::format("  {:<16} {:>8}\n", name, n);
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
