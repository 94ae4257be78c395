#include "pmuls/catalog_json.h"

#include <fmt/format.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <utility>

#include "common/json_writer.h"
#include "common/ordered_parallel.h"
#include "pmucat/builtin_events.h"
#include "pmucat/format.h"
#include "pmucat/hwmon.h"
#include "pmucat/pmu_attribute_files.h"
#include "pmucat/terms.h"
#include "pmuls/event_view.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

// The document is written once, as templates over its destination: a JsonWriter prints it
// (pmuls --json of a whole tree never holds it), a JsonBuilder keeps it as a Json value.

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

template <class Out>
void write_term(Out& out, const Term& term) {
  out.begin_object();
  out.key("name");
  out.value(term.name);
  out.key("kind");
  out.value(kind_name(term.kind));
  if (term.kind == TermValueKind::number || term.kind == TermValueKind::none) {
    out.key("value");
    out.value(term.value);
  } else if (term.kind == TermValueKind::string) {
    out.key("text");
    out.value(term.text);
  }
  out.end_object();
}

// The JSON side of an event: our fields, then those `perf list -j` (perf >= 6.2) prints for an
// event, under perf's names, so scripts written for perf's JSON read ours.

// perf list -j's EventName (and EventAlias) of an event it lists without a brief description (a
// sysfs event, a JSON one without text): on a core PMU its name, with `PMU/name/` as EventAlias;
// on any other PMU `PMU/name/` (perf 6.12 on amdzen4's undescribed amd_df events too).
template <class Out>
void write_undescribed_names(Out& out, const Pmu& pmu, const std::string& name) {
  const std::string qualified = pmu.name() + '/' + name + '/';
  const bool core = pmu.kind() == PmuKind::core;
  out.key("EventName");
  out.value(core ? name : qualified);
  if (core) {
    out.key("EventAlias");
    out.value(qualified);
  }
}

// perf list -j's Encoding of the event under `semantics`.
std::string list_encoding(const Pmu& pmu, const Event& event, const Profile& semantics) {
  return semantics.has(Behaviour::list_json_fields) ? perf73_list_encoding(pmu.name(), event)
                                                    : perf_list_encoding(pmu.name(), event);
}

template <class Out>
void write_vendor_fields(Out& out, const Pmu& pmu, const Event& event, const Profile& semantics) {
  const VendorEvent& vendor = *event.vendor;
  out.key("json");
  out.begin_object();
  out.key("terms");
  out.value(vendor.terms);
  out.key("file");
  out.value(vendor.location.file);
  out.key("line");
  out.value(vendor.location.line);
  out.key("topic");
  out.value(vendor.topic);
  out.key("deprecated");
  out.value(vendor.deprecated);
  out.key("errata");
  out.value(vendor.errata);
  out.key("pebs");
  out.value(vendor.pebs);
  out.key("counter");
  out.value(vendor.counter);
  out.key("counter_mask");
  out.value(vendor.counter_mask);
  out.key("scale_unit");
  out.value(vendor.scale_unit);
  out.end_object();
  // perf list -j's object for the event, field for field (perf prints only the fields it has).
  const std::string brief = perf_brief_description(vendor);
  out.key("Unit");
  out.value(perf_list_unit(pmu, event));
  out.key("Topic");
  out.value(vendor.topic);
  if (brief.empty()) {
    write_undescribed_names(out, pmu, event.name);
  } else {
    out.key("EventName");
    out.value(vendor.name);
  }
  if (!vendor.scale_unit.empty()) {
    out.key("ScaleUnit");
    out.value(jevents_rules(vendor.rules) == JeventsRules::of_6_1
                  ? vendor.scale_unit
                  : perf612_scale_unit(vendor.scale_unit));
  }
  out.key("EventType");
  out.value("Kernel PMU event");
  if (vendor.deprecated) {
    out.key("Deprecated");
    out.value("1");
  }
  if (!brief.empty()) {
    out.key("BriefDescription");
    out.value(brief);
  }
  // perf 6.12's pmu.c falls back to the brief text, so this is there whenever the brief one
  // is; perf 7.3 leaves out a public text that says what the brief one says.
  if (std::string detail = perf_public_description(vendor);
      !detail.empty() && !(semantics.has(Behaviour::list_json_fields) && detail == brief)) {
    out.key("PublicDescription");
    out.value(detail);
  }
  // perf's encoding is the PMU and the terms the event encodes with (the sysfs file's for an
  // event both have), not the event's name; perf names the Unit where pmuls names the instance.
  out.key("Encoding");
  out.value(list_encoding(pmu, event, semantics));
}

// perf list -j's object for an event of the PMU's own events/ directory: no description.
template <class Out>
void write_sysfs_perf_fields(Out& out, const Pmu& pmu, const Event& event,
                             const Profile& semantics) {
  out.key("Unit");
  out.value(pmu.name());
  write_undescribed_names(out, pmu, event.name);
  out.key("EventType");
  out.value("Kernel PMU event");
  out.key("Encoding");
  out.value(list_encoding(pmu, event, semantics));
}

// perf 7.3's `perf list -j` fields of a hwmon PMU's sensor (docs/hwmon.md §5), in its key order.
template <class Out>
void write_hwmon_perf_fields(Out& out, const Pmu& pmu, const HwmonListEntry& entry) {
  out.key("Unit");
  out.value(pmu.name());
  out.key("Topic");
  out.value("hwmon");
  out.key("EventName");
  out.value(entry.event_name);
  if (!entry.event_alias.empty()) {
    out.key("EventAlias");
    out.value(entry.event_alias);
  }
  if (!entry.scale_unit.empty()) {
    out.key("ScaleUnit");
    out.value(entry.scale_unit);
  }
  out.key("EventType");
  out.value("Hwmon event");
  out.key("BriefDescription");
  out.value(entry.description);
  out.key("Encoding");
  out.value(entry.encoding);
}

template <class Out>
void write_event(Out& out, const Pmu& pmu, const Event& event, const Profile& semantics) {
  const EventView view = view_event(pmu, event);
  out.begin_object();
  out.key("name");
  out.value(event.name);
  out.key("perf");
  out.value(view.perf_name);
  out.key("file");
  out.value(event.path);
  out.key("terms");
  out.begin_array();
  for (const Term& term : event.terms.terms) write_term(out, term);
  out.end_array();
  out.key("params");
  out.begin_array();
  for (const std::string& param : view.params) out.value(param);
  out.end_array();
  if (view.config) {
    out.key("config");
    out.value((*view.config)[0]);
    out.key("config1");
    out.value((*view.config)[1]);
    out.key("config2");
    out.value((*view.config)[2]);
    out.key("config3");
    out.value((*view.config)[3]);
    if (shown_config_words(*view.config) > 4) {
      out.key("config4");
      out.value((*view.config)[4]);
    }
  }
  if (view.error) {
    out.key("error");
    out.value(diagnostic_to_json(*view.error));
  }
  out.key("unit");
  out.value(event.unit);
  out.key("scale");
  out.value(event.scale);
  if (event.scale) {
    out.key("scale_text");
    out.value(event.scale_text);
  }
  out.key("per_pkg");
  out.value(event.per_pkg);
  out.key("snapshot");
  out.value(event.snapshot);
  out.key("source");
  out.value(to_string(event.source));
  if (const auto type = pmu.attributes().type; type && is_hwmon_type(*type)) {
    // A sensor perf lists under its label's name keeps pmucat's fields only.
    if (auto entry = hwmon_list_entry(pmu, event)) write_hwmon_perf_fields(out, pmu, *entry);
  } else if (event.vendor) {
    write_vendor_fields(out, pmu, event, semantics);
  } else if (!(semantics.has(Behaviour::list_json_fields) && perf73_list_hides(pmu, event))) {
    // An event perf does not list keeps pmucat's fields only.
    write_sysfs_perf_fields(out, pmu, event, semantics);
  }
  out.end_object();
}

template <class Out>
void write_cpu_list(Out& out, const std::optional<CpuList>& list) {
  if (!list) {
    out.value(nullptr);
    return;
  }
  out.begin_object();
  out.key("text");
  out.value(list->text);
  out.key("cpus");
  out.begin_array();
  for (std::uint32_t cpu : list->cpus) out.value(cpu);
  out.end_array();
  out.end_object();
}

template <class Out>
void write_format(Out& out, const Format& format) {
  out.begin_object();
  out.key("name");
  out.value(format.name);
  out.key("word");
  out.value(config_word_name(format.spec.word));
  out.key("spec");
  out.value(to_string(format.spec));
  out.key("bits");
  out.begin_array();
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((format.spec.mask >> bit) & 1u) out.value(bit);
  }
  out.end_array();
  out.key("mask");
  out.value(format.spec.mask);
  out.key("width");
  out.value(format.spec.width());
  out.key("max");
  out.value(format.spec.max_value());
  out.end_object();
}

template <class Out>
void write_pmu(Out& out, const Pmu& pmu, const Event* only_event, const EventFilter& filter,
               const Profile& semantics) {
  const PmuAttributes& attributes = pmu.attributes();
  out.begin_object();
  out.key("name");
  out.value(pmu.name());
  out.key("type");
  out.value(attributes.type);
  out.key("kind");
  out.value(to_string(pmu.kind()));
  out.key("cpumask");
  write_cpu_list(out, attributes.cpumask);
  out.key("cpus");
  write_cpu_list(out, attributes.cpus);
  out.key("caps");
  out.begin_object();
  for (const auto& [name, value] : attributes.caps) {
    out.key(name);
    out.value(value);
  }
  out.end_object();
  for (const PmuAttributeFile& file : kPmuOptionalAttributes) {
    out.key(file.name);
    if (file.number != nullptr) {
      out.value(attributes.*file.number);
    } else {
      out.value(attributes.*file.line);
    }
  }
  out.key("formats");
  out.begin_array();
  for (const Format& format : pmu.formats()) write_format(out, format);
  out.end_array();
  out.key("events");
  out.begin_array();
  if (only_event != nullptr) {
    write_event(out, pmu, *only_event, semantics);
  } else {
    for (const Event& event : pmu.events()) {
      if (event_selected(event, filter)) write_event(out, pmu, event, semantics);
    }
  }
  out.end_array();
  out.key("diagnostics");
  out.begin_array();
  for (const Diagnostic& diagnostic : pmu.diagnostics()) {
    out.value(diagnostic_to_json(diagnostic));
  }
  out.end_array();
  out.end_object();
}

// {"pmus": [ <here> ]}: a PMU object's closing bracket sits two levels deep.
constexpr unsigned kPmuDepth = 2;
// PMUs printed ahead of the output with several jobs: enough to keep the threads busy, few
// enough that memory does not grow with the tree.
constexpr std::size_t kPmusInFlight = 32;
// An uncore PMU prints in a few KiB, a core PMU with all its events in tens.
constexpr std::size_t kPmuTextCapacity = 16 * 1024;

}  // namespace

std::string perf_list_unit(const Pmu& pmu, const Event& event) {
  if (event.vendor && !event.vendor->pmu.empty()) return event.vendor->pmu;
  return pmu.name();
}

std::string perf612_scale_unit(std::string_view scale_unit) {
  const std::string text(scale_unit);
  char* end = nullptr;
  const double value = std::strtod(text.c_str(), &end);
  if (end == text.c_str()) return text;
  std::array<char, 64> number{};
  std::snprintf(number.data(), number.size(), "%G", value);
  return number.data() + std::string(end);
}

std::string perf_list_encoding(std::string_view pmu_name, const Event& event) {
  std::string text(pmu_name);
  text += '/';
  if (event.error) {
    text += event.text;
  } else {
    bool first = true;
    for (const Term& term : event.terms.terms) {
      if (!first) text += ',';
      first = false;
      text += term.name;
      if (term.kind == TermValueKind::none) continue;
      text += '=';
      if (term.kind == TermValueKind::number) {
        if (term.value == 0) {
          text += '0';
        } else {
          std::array<char, 24> digits{};  // "0x" and 16 hex digits
          text.append(digits.data(), fmt::format_to(digits.data(), "{:#x}", term.value));
        }
      } else {
        text += print_term_value(term);
      }
    }
  }
  text += '/';
  return text;
}

std::string perf73_list_encoding(std::string_view pmu_name, const Event& event) {
  std::string_view terms = event.source == EventSource::json && event.vendor
                               ? std::string_view(event.vendor->terms)
                               : std::string_view(event.text);
  while (!terms.empty() && (terms.back() == '\n' || terms.back() == ' ' || terms.back() == '\t'))
    terms.remove_suffix(1);
  std::string text(pmu_name);
  text += '/';
  text += terms;
  text += '/';
  return text;
}

bool perf73_list_hides(const Pmu& pmu, const Event& event) {
  if (event.vendor || pmu.kind() != PmuKind::core) return false;
  for (const BuiltinEvent& builtin : builtin_events()) {
    if (builtin.kind != BuiltinKind::hardware) continue;
    if (iequals(builtin.name, event.name)) return true;
    for (const std::string& alias : builtin.aliases) {
      if (iequals(alias, event.name)) return true;
    }
  }
  return false;
}

Json pmu_to_json(const Pmu& pmu, const Event* only_event, const EventFilter& filter,
                 const Profile& semantics) {
  JsonBuilder builder;
  write_pmu(builder, pmu, only_event, filter, semantics);
  return builder.take();
}

Json format_to_json(const Format& format) {
  JsonBuilder builder;
  write_format(builder, format);
  return builder.take();
}

namespace {

// Text buffers given back once written, for the next PMU to print into: a PMU's text reaches
// megabytes, and fresh memory costs a page fault per 4 KiB (most of --json's system time).
class TextBuffers {
 public:
  std::string take() {
    std::lock_guard lock(mutex_);
    if (free_.empty()) return {};
    std::string text = std::move(free_.back());
    free_.pop_back();
    text.clear();
    return text;
  }
  void give(std::string text) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(text));
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> free_;
};

}  // namespace

void write_catalog_json(const Catalog& catalog, std::span<const Pmu* const> pmus, unsigned jobs,
                        const EventFilter& filter, const Profile& semantics,
                        const std::function<void(std::string_view)>& write,
                        std::string_view more_members) {
  // dump_json's layout with indent 2: the head and tail written here, each PMU by a JsonWriter.
  std::string head = "{\n  \"sysfs\": ";
  JsonWriter(head).value(catalog.devices_dir().string());
  head += pmus.empty() ? ",\n  \"pmus\": []" : ",\n  \"pmus\": [\n";
  write(head);
  // Reading a PMU is mostly system calls, which run in parallel on several CPUs: PMUs are read
  // and printed on up to `jobs` threads, and written in order here.
  TextBuffers buffers;
  auto print_pmu = [&](std::size_t i) {
    const Pmu& listed = *pmus[i];
    // Only the printed text is kept, never the loaded PMU (its memory goes to the next one); a
    // from_pmus PMU has nothing to load.
    const std::optional<Pmu> scratch = catalog.unloaded_copy(listed);
    std::string text = buffers.take();
    text.reserve(kPmuTextCapacity);  // most PMUs print without the string growing
    text.assign(kPmuDepth * 2, ' ');
    {
      JsonWriter writer(text, kPmuDepth);  // `text` holds the PMU once the writer is gone
      write_pmu(writer, scratch ? *scratch : listed, nullptr, filter, semantics);
    }
    text += i + 1 < pmus.size() ? ",\n" : "\n  ]";
    return text;
  };
  ordered_parallel(pmus.size(), jobs, kPmusInFlight, print_pmu, [&](std::size_t, std::string text) {
    write(text);
    buffers.give(std::move(text));
  });
  if (!more_members.empty()) write(more_members);
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

}  // namespace cli
PMUCAT_END_NAMESPACE
