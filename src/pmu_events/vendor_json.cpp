// One vendor JSON file to events, with the facts of perf 6.1's and 6.12's jevents.py (no code of
// them).
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "pmu_events/descriptions.h"
#include "pmu_events/metric_py_rewrite.h"
#include "pmu_events/vendor_numbers.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using nlohmann::json;
using pmu_events::ascii_lower;
using pmu_events::jevents_since;

// Event files are an array of flat objects; anything nested deeper than this is not one, and
// refusing it up front keeps the JSON library's recursion bounded.
constexpr std::size_t kMaxDepth = 64;

struct ObjectStart {
  std::size_t offset = 0;
  std::uint32_t line = 1;
  std::uint32_t column = 1;
};

struct TextScan {
  std::vector<ObjectStart> objects;  // each `{` directly inside the top-level array
  std::optional<std::size_t> too_deep_at;
};

std::uint32_t saturate(std::size_t value) {
  return static_cast<std::uint32_t>(std::min<std::size_t>(value, UINT32_MAX));
}

// A string-aware pass over the text: where the i-th object of the top-level array starts (the
// JSON library does not say), and whether anything nests too deeply to parse safely.
TextScan scan_text(std::string_view text) {
  TextScan scan;
  std::size_t depth = 0;
  bool top_is_array = false;
  bool in_string = false;
  bool escaped = false;
  std::size_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
      line_start = i + 1;
    }
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"':
        in_string = true;
        break;
      case '[':
      case '{':
        if (depth == 0) top_is_array = c == '[';
        if (depth == 1 && top_is_array && c == '{') {
          scan.objects.push_back({i, saturate(line), saturate(i - line_start + 1)});
        }
        if (++depth > kMaxDepth) {
          scan.too_deep_at = i;
          return scan;
        }
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return scan;
}

// nlohmann's message without its "[json.exception...] parse error at line L, column C: " head:
// the diagnostic carries the location itself.
std::string parse_error_message(std::string_view what) {
  const std::size_t head = what.find(": ");
  if (what.starts_with("[json.exception") && head != std::string_view::npos) {
    what.remove_prefix(head + 2);
  }
  return std::string(what);
}

// The string fields of one event object; remembers the first field of another type.
class EventObject {
 public:
  explicit EventObject(const json& object) : object_(object) {}
  bool has(const char* key) const { return object_.contains(key); }
  // The field's text; nullptr when absent or not a string (then bad_field() names it).
  const std::string* text(const char* key) {
    const auto it = object_.find(key);
    if (it == object_.end()) return nullptr;
    if (!it->is_string()) {
      if (bad_field_.empty()) bad_field_ = key;
      return nullptr;
    }
    return &it->get_ref<const std::string&>();
  }
  std::string value(const char* key) {
    const std::string* field = text(key);
    return field ? *field : std::string();
  }
  const std::string& bad_field() const { return bad_field_; }

 private:
  const json& object_;
  std::string bad_field_;
};

// jevents.py's Unit -> PMU table; other units become `uncore_<unit lower-cased>`. Each entry
// with the first jevents that has it.
std::string unit_to_pmu(std::string_view unit, PerfRelease rules) {
  constexpr JeventsRules v6_1 = JeventsRules::of_6_1;
  constexpr JeventsRules v6_12 = JeventsRules::of_6_12;
  constexpr JeventsRules v7_2 = JeventsRules::of_7_2;
  struct Entry {
    std::string_view unit;
    std::string_view pmu;
    JeventsRules since;
  };
  static constexpr std::array<Entry, 24> kTable{{
      {"CBO", "uncore_cbox", v6_1},
      {"QPI LL", "uncore_qpi", v6_1},
      {"SBO", "uncore_sbox", v6_1},
      {"iMPH-U", "uncore_arb", v6_1},
      {"CPU-M-CF", "cpum_cf", v6_1},
      {"CPU-M-SF", "cpum_sf", v6_1},
      {"PAI-CRYPTO", "pai_crypto", v6_1},
      {"PAI-EXT", "pai_ext", v6_12},
      {"UPI LL", "uncore_upi", v6_1},
      {"hisi_sicl,cpa", "hisi_sicl,cpa", v6_1},
      {"hisi_sccl,ddrc", "hisi_sccl,ddrc", v6_1},
      {"hisi_sccl,hha", "hisi_sccl,hha", v6_1},
      {"hisi_sccl,l3c", "hisi_sccl,l3c", v6_1},
      {"imx8_ddr", "imx8_ddr", v6_1},
      {"imx9_ddr", "imx9_ddr", v6_12},
      {"L3PMC", "amd_l3", v6_1},
      {"DFPMC", "amd_df", v6_1},
      {"UMCPMC", "amd_umc", v6_12},
      {"cpu_core", "cpu_core", v6_1},
      {"cpu_atom", "cpu_atom", v6_1},
      {"ali_drw", "ali_drw", v6_12},
      {"arm_cmn", "arm_cmn", v6_12},
      {"software", "software", v7_2},
      {"tool", "tool", v7_2},
  }};
  if (unit.empty()) return {};
  for (const Entry& entry : kTable) {
    if (unit == entry.unit && jevents_since(rules, entry.since)) {
      return std::string(entry.pmu);
    }
  }
  return "uncore_" + ascii_lower(unit);
}

// A field's text: a string as written, any other value as its JSON text (jevents prints the
// value it read); empty when absent.
std::string scalar_text(const json& object, const char* key) {
  const auto it = object.find(key);
  if (it == object.end()) return {};
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// perf's fixed strings for the architectural events, whatever their JSON says.
std::optional<std::string_view> fixed_event_terms(std::string_view lower_name) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kFixed{{
      {"inst_retired.any", "event=0xc0,period=2000003"},
      {"inst_retired.any_p", "event=0xc0,period=2000003"},
      {"cpu_clk_unhalted.ref", "event=0x0,umask=0x03,period=2000003"},
      {"cpu_clk_unhalted.thread", "event=0x3c,period=2000003"},
      {"cpu_clk_unhalted.core", "event=0x3c,period=2000003"},
      {"cpu_clk_unhalted.thread_any", "event=0x3c,any=1,period=2000003"},
  }};
  for (const auto& [name, terms] : kFixed) {
    if (lower_name == name) return terms;
  }
  return std::nullopt;
}

// perf 7.3's jevents adds the MSRs 0x3E0-0x3E3 (offcore response on newer Intel cores).
std::optional<std::string_view> msr_term(std::uint64_t msr, PerfRelease rules) {
  switch (msr) {
    case 0x3F6:
      return "ldlat=";
    case 0x1A6:
    case 0x1A7:
      return "offcore_rsp=";
    case 0x3F7:
      return "frontend=";
    case 0x3E0:
    case 0x3E1:
    case 0x3E2:
    case 0x3E3:
      if (jevents_since(rules, JeventsRules::of_7_3)) return "offcore_rsp=";
      return std::nullopt;
    default:
      return std::nullopt;
  }
}

std::string_view first_of_list(std::string_view text) {
  return text.substr(0, text.find(','));
}

const VendorEvent* find_std_event(const std::vector<VendorEvent>& std_events,
                                  std::string_view lower_name) {
  // The last of two same-named standard events wins, as in perf's dictionary.
  const auto it = std::find_if(std_events.rbegin(), std_events.rend(),
                               [&](const VendorEvent& e) { return e.name == lower_name; });
  return it == std_events.rend() ? nullptr : &*it;
}

// perf 6.12's dictionary of standard events holds the standard files' metrics too, by MetricName
// lower-cased (arm64's sbsa.json: `{"ArchStdEvent": "backend_bound"}` is a whole metric).
const VendorMetric* find_std_metric(std::span<const VendorMetric> std_metrics,
                                    std::string_view lower_name) {
  const auto it =
      std::find_if(std_metrics.rbegin(), std_metrics.rend(),
                   [&](const VendorMetric& m) { return ascii_lower(m.name) == lower_name; });
  return it == std_metrics.rend() ? nullptr : &*it;
}

struct Context {
  std::string_view text;
  std::string_view path;
  std::string_view topic;
  const std::vector<VendorEvent>& std_events;
  std::span<const VendorMetric> std_metrics;  // searched under 6.12's rules only
  PerfRelease rules;
  std::vector<Diagnostic>& diagnostics;

  void report(Severity severity, DiagId id, std::size_t offset, std::string message) const {
    diagnostics.push_back(make_diagnostic(severity, id, path, text, offset, 1, std::move(message)));
  }
};

// Where an object starts, as a location of one byte.
SourceRange object_range(const Context& context, const ObjectStart& where) {
  SourceRange range;
  range.file = std::string(context.path);
  range.line = where.line;
  range.column = where.column;
  range.length = 1;
  range.offset = where.offset;
  return range;
}

// One event object to an event; nullopt for a metric (no EventName) or a rejected event.
std::optional<VendorEvent> convert_event(const json& object, const ObjectStart& where,
                                         const Context& context) {
  EventObject fields(object);
  // Metrics share the files; an object names an event with EventName, or takes the name of
  // the standard event it refers to.
  if (!fields.has("EventName") && !fields.has("ArchStdEvent")) return std::nullopt;
  const std::string* event_name = fields.text("EventName");
  auto reject = [&](std::string message) -> std::optional<VendorEvent> {
    context.report(Severity::error, DiagId::vendor_json_field, where.offset,
                   std::move(message) + "; event skipped");
    return std::nullopt;
  };

  VendorEvent event;
  event.name = event_name ? ascii_lower(*event_name) : std::string();
  event.location = object_range(context, where);
  event.topic = std::string(context.topic);

  const std::string* event_code = fields.text("EventCode");
  const std::string* ext_sel = fields.text("ExtSel");
  const std::string* config_code = fields.text("ConfigCode");
  const std::string* brief = fields.text("BriefDescription");
  event.brief_description = brief ? *brief : std::string();
  event.public_description = fields.value("PublicDescription");
  event.pebs = fields.value("PEBS");
  const std::string msr_index = fields.value("MSRIndex");
  const std::string* msr_value = fields.text("MSRValue");
  event.data_la = fields.has("Data_LA");
  event.errata = fields.value("Errata");
  event.unit = fields.value("Unit");
  event.pmu = unit_to_pmu(event.unit, context.rules);
  event.rules = context.rules;
  const std::string filter = fields.value("Filter");
  event.scale_unit = fields.value("ScaleUnit");
  const std::string* per_pkg = fields.text("PerPkg");
  const std::string* deprecated = fields.text("Deprecated");
  event.counter = fields.value("Counter");
  event.counter_mask = fields.value("CounterMask");
  event.compat = fields.value("Compat");
  event.arch_std_event = fields.value("ArchStdEvent");
  // The term fields in jevents' order; perf 6.12 knows the last six too.
  static constexpr std::array<std::pair<const char*, std::string_view>, 14> kTermFields{{
      {"AnyThread", "any="},
      {"PortMask", "ch_mask="},
      {"CounterMask", "cmask="},
      {"EdgeDetect", "edge="},
      {"FCMask", "fc_mask="},
      {"Invert", "inv="},
      {"SampleAfterValue", "period="},
      {"UMask", "umask="},
      {"NodeType", "type="},
      {"RdWrMask", "rdwrmask="},
      {"EnAllCores", "enallcores="},
      {"EnAllSlices", "enallslices="},
      {"SliceId", "sliceid="},
      {"ThreadMask", "threadmask="},
  }};
  const bool jevents_6_12 = jevents_since(context.rules, JeventsRules::of_6_12);
  const bool jevents_7_2 = jevents_since(context.rules, JeventsRules::of_7_2);
  const std::size_t term_fields = jevents_6_12 ? kTermFields.size() : 8;
  std::array<const std::string*, kTermFields.size()> term_values{};
  for (std::size_t i = 0; i < term_fields; ++i) {
    term_values[i] = fields.text(kTermFields[i].first);
  }
  const std::string* eventid_code = jevents_6_12 ? fields.text("EventidCode") : nullptr;
  // perf 7.3's common tables: a legacy hardware or cache event as a term of its own.
  const std::string* legacy_config = jevents_7_2 ? fields.text("LegacyConfigCode") : nullptr;
  const std::string* legacy_cache = jevents_7_2 ? fields.text("LegacyCacheCode") : nullptr;
  if (jevents_7_2) {
    // Numbers in the tables (`63.76`), kept as their JSON text, as jevents prints them.
    event.retirement_latency_mean = scalar_text(object, "RetirementLatencyMean");
    event.retirement_latency_min = scalar_text(object, "RetirementLatencyMin");
    event.retirement_latency_max = scalar_text(object, "RetirementLatencyMax");
  }
  if (!fields.bad_field().empty()) {
    return reject("field '" + fields.bad_field() + "' of event '" + event.name +
                  "' is not a string");
  }

  std::uint64_t code = 0;
  if (event_code) {
    const auto value = pmu_events::parse_python_int_auto(first_of_list(*event_code));
    if (!value) return reject("EventCode '" + *event_code + "' is not a number");
    code = *value;
  }
  if (ext_sel) {
    const auto value = pmu_events::parse_python_int_decimal(*ext_sel);
    if (!value || *value > (UINT64_MAX >> 8)) {
      return reject("ExtSel '" + *ext_sel + "' is not a decimal number");
    }
    code |= *value << 8;
  }
  const auto print_number =
      jevents_6_12 ? pmu_events::hex_unless_below_ten : pmu_events::hex_like_printf;
  std::string terms;
  if (config_code) {
    const auto value = pmu_events::parse_python_int_auto(*config_code);
    if (!value) return reject("ConfigCode '" + *config_code + "' is not a number");
    terms = "config=" + print_number(*value);
  } else if (eventid_code) {
    const auto value = pmu_events::parse_python_int_auto(*eventid_code);
    if (!value) return reject("EventidCode '" + *eventid_code + "' is not a number");
    terms = "eventid=" + print_number(*value);
  } else if (legacy_config) {
    const auto value = pmu_events::parse_python_int_auto(*legacy_config);
    if (!value) return reject("LegacyConfigCode '" + *legacy_config + "' is not a number");
    terms = "legacy-hardware-config=" + print_number(*value);
  } else if (legacy_cache) {
    const auto value = pmu_events::parse_python_int_auto(*legacy_cache);
    if (!value) return reject("LegacyCacheCode '" + *legacy_cache + "' is not a number");
    terms = "legacy-cache-config=" + print_number(*value);
  } else {
    terms = "event=" + print_number(code);
  }
  for (std::size_t i = 0; i < term_fields; ++i) {
    const std::string* value = term_values[i];
    if (!value) continue;
    if (!jevents_6_12) {
      // perf 6.1 copies the text, leaving out only the string "0".
      if (*value == "0") continue;
      terms += ',';
      terms += kTermFields[i].second;
      terms += *value;
      continue;
    }
    const std::optional<pmu_events::TermValue> canonical = pmu_events::canonical_term_value(*value);
    if (!canonical) {
      return reject(std::string(kTermFields[i].first) + " '" + *value +
                    "' is not a number (perf 6.12's jevents stops on it)");
    }
    if (canonical->zero) continue;
    terms += ',';
    terms += kTermFields[i].second;
    terms += canonical->text;
  }
  if (!filter.empty()) terms += ',' + filter;
  if (!msr_index.empty()) {
    const auto msr = pmu_events::parse_python_int_auto(first_of_list(msr_index));
    if (!msr) return reject("MSRIndex '" + msr_index + "' is not a number");
    const auto term = msr_term(*msr, context.rules);
    if (!term) return reject("MSRIndex '" + msr_index + "' names no MSR perf knows");
    // perf 6.12's jevents writes Python's None for the missing value (x86 nehalemep's
    // mem_inst_retired.latency_above_threshold_0); pmucat's 6.1 rules refuse the event.
    if (!msr_value && !jevents_6_12) return reject("MSRIndex without MSRValue");
    terms += ',';
    terms += *term;
    terms += msr_value ? std::string_view(*msr_value) : std::string_view("None");
  }
  event.per_pkg = per_pkg && pmu_events::scanf_int_is_one(*per_pkg);
  event.deprecated = deprecated && !deprecated->empty();
  // 6.1's jevents appends the Unit to `desc`, so an event with a PMU has one; 6.12's does not.
  event.has_perf_description = brief || (!jevents_6_12 && !event.pmu.empty());

  if (!event.arch_std_event.empty()) {
    const VendorEvent* standard =
        find_std_event(context.std_events, ascii_lower(event.arch_std_event));
    const bool names_std_metric =
        jevents_6_12 && find_std_metric(context.std_metrics, ascii_lower(event.arch_std_event));
    if (!standard && names_std_metric) {
      // A metric taken from the standard files (convert_metric), not an event.
    } else if (!standard) {
      context.report(Severity::warning, DiagId::vendor_std_event_unknown, where.offset,
                     "ArchStdEvent '" + event.arch_std_event + "' of event '" + event.name +
                         "' names no architecture standard event");
    } else {
      // perf copies the standard event's term string, and each of its fields this event leaves
      // empty (finished descriptions, PMU, ScaleUnit, PerPkg, Deprecated, Compat).
      terms = standard->terms;
      if (event.name.empty()) event.name = standard->name;
      if (pmu_events::jevents_brief(event).empty()) {
        event.brief_description = pmu_events::jevents_brief(*standard);
        event.brief_from_std_event = true;
        event.has_perf_description = standard->has_perf_description;
      }
      if (pmu_events::jevents_public(event).empty()) {
        event.public_description = pmu_events::jevents_public(*standard);
        event.public_from_std_event = true;
      }
      // perf 6.12 names the core PMU `default_core`, a value it never replaces.
      if (event.pmu.empty() && !jevents_6_12) {
        event.pmu = standard->pmu;
        event.unit = standard->unit;
      }
      if (event.scale_unit.empty()) event.scale_unit = standard->scale_unit;
      if (!per_pkg || per_pkg->empty()) event.per_pkg = standard->per_pkg;
      if (!event.deprecated) event.deprecated = standard->deprecated;
      if (event.compat.empty()) event.compat = standard->compat;
    }
  }
  if (event.name.empty()) return std::nullopt;  // perf's table drops nameless events
  const auto fixed = fixed_event_terms(event.name);
  event.terms = fixed ? std::string(*fixed) : std::move(terms);
  return event;
}

// perf 6.12 copies each field of the standard metric an object's ArchStdEvent names that the
// object leaves empty (its PMU is never empty there: `default_core`).
void take_empty_fields(VendorMetric& metric, const VendorMetric& standard) {
  for (auto [own, theirs] : std::array<std::pair<std::string*, const std::string*>, 12>{{
           {&metric.name, &standard.name},
           {&metric.expr, &standard.expr},
           {&metric.group, &standard.group},
           {&metric.threshold, &standard.threshold},
           {&metric.scale_unit, &standard.scale_unit},
           {&metric.brief_description, &standard.brief_description},
           {&metric.public_description, &standard.public_description},
           {&metric.constraint, &standard.constraint},
           {&metric.no_group, &standard.no_group},
           {&metric.default_metricgroup_name, &standard.default_metricgroup_name},
           {&metric.compat, &standard.compat},
           {&metric.default_show_events, &standard.default_show_events},
       }}) {
    if (own->empty()) *own = *theirs;
  }
  if (metric.aggregation_mode.empty()) metric.aggregation_mode = standard.aggregation_mode;
}

// One object with MetricName or MetricExpr (under 6.12 also an ArchStdEvent naming a standard
// metric) to a metric; nullopt (after a diagnostic) for a bad
// one, silently for an object that is no metric.
std::optional<VendorMetric> convert_metric(const json& object, const ObjectStart& where,
                                           const Context& context) {
  EventObject fields(object);
  const VendorMetric* standard = nullptr;
  if (jevents_since(context.rules, JeventsRules::of_6_12) && object.contains("ArchStdEvent")) {
    if (const std::string* arch_std = fields.text("ArchStdEvent")) {
      standard = find_std_metric(context.std_metrics, ascii_lower(*arch_std));
    }
  }
  if (!object.contains("MetricName") && !object.contains("MetricExpr") && !standard) {
    return std::nullopt;
  }
  VendorMetric metric;
  const std::string* name = fields.text("MetricName");
  const std::string* expr = fields.text("MetricExpr");
  metric.name = name ? *name : std::string();
  metric.expr = expr ? *expr : std::string();
  metric.group = fields.value("MetricGroup");
  metric.threshold = fields.value("MetricThreshold");
  metric.scale_unit = fields.value("ScaleUnit");
  const std::string* brief = fields.text("BriefDescription");
  metric.brief_description = brief ? *brief : std::string();
  metric.public_description = fields.value("PublicDescription");
  metric.constraint = fields.value("MetricConstraint");
  metric.no_group = fields.value("MetricgroupNoGroup");
  // perf 6.1 knows no DefaultMetricgroupName: reading it only under 6.12 keeps a field of another
  // type from rejecting a metric 6.1 takes.
  if (jevents_since(context.rules, JeventsRules::of_6_12)) {
    metric.default_metricgroup_name = fields.value("DefaultMetricgroupName");
  }
  if (jevents_since(context.rules, JeventsRules::of_7_2)) {
    metric.default_show_events = fields.value("DefaultShowEvents");
  }
  metric.unit = fields.value("Unit");
  metric.pmu = unit_to_pmu(metric.unit, context.rules);
  metric.rules = context.rules;
  metric.compat = fields.value("Compat");
  metric.aggregation_mode = fields.value("AggregationMode");
  // The event fields of an object that is an event too are judged by convert_event; PerPkg of
  // another type only means the metric is not per package.
  const auto per_pkg_field = object.find("PerPkg");
  const std::string* per_pkg = per_pkg_field != object.end() && per_pkg_field->is_string()
                                   ? &per_pkg_field->get_ref<const std::string&>()
                                   : nullptr;
  const std::string* deprecated = fields.text("Deprecated");
  const auto event_field = object.find("EventName");
  const std::string* event_name = event_field != object.end() && event_field->is_string()
                                      ? &event_field->get_ref<const std::string&>()
                                      : nullptr;
  metric.event_name = event_name ? ascii_lower(*event_name) : std::string();
  metric.topic = std::string(context.topic);
  metric.location = object_range(context, where);
  auto reject = [&](std::string message) -> std::optional<VendorMetric> {
    message += "; metric skipped";
    context.diagnostics.push_back(make_diagnostic(Severity::error, DiagId::vendor_metric_field,
                                                  context.path, context.text, where.offset, 1,
                                                  std::move(message)));
    return std::nullopt;
  };
  if (standard) take_empty_fields(metric, *standard);
  if (!fields.bad_field().empty()) {
    std::string message = "field '";
    message += fields.bad_field();
    message += "' of metric '";
    message += metric.name;
    message += "' is not a string";
    return reject(std::move(message));
  }
  // perf's table keeps empty strings as absent fields: a metric needs both, non-empty.
  if (metric.name.empty()) return reject("a metric object without MetricName");
  if (metric.expr.empty()) {
    std::string message = "metric '";
    message += metric.name;
    message += "' has no MetricExpr";
    return reject(std::move(message));
  }
  // perf 6.12 stores the expression as metric.py prints it back, and its run-time parser reads
  // that string (ids are first seen, and so opened, in its order). One copied from a standard
  // metric was printed back when the standard file was read.
  if (jevents_since(context.rules, JeventsRules::of_6_12) && expr && !expr->empty()) {
    Expected<std::string, std::string> printed =
        pmu_events::metric_py_rewrite(metric.expr, jevents_rules(context.rules));
    if (printed) {
      metric.expr = std::move(*printed);
    } else {
      context.diagnostics.push_back(
          make_diagnostic(Severity::warning, DiagId::vendor_metric_py_unreadable, context.path,
                          context.text, where.offset, 1,
                          "perf 6.12's build cannot read the MetricExpr of metric '" + metric.name +
                              "' (" + printed.error() + "); the written expression is kept"));
    }
  }
  metric.per_pkg = per_pkg && pmu_events::scanf_int_is_one(*per_pkg);
  metric.deprecated = deprecated && !deprecated->empty();
  if (standard) {
    if (!per_pkg || per_pkg->empty()) metric.per_pkg = standard->per_pkg;
    if (!metric.deprecated) metric.deprecated = standard->deprecated;
  }
  metric.has_perf_description = brief || !metric.pmu.empty();  // 6.1's key only
  return metric;
}

// The keys of an event or metric object that perf 7.3's jevents reads, and those pmucat reads
// besides (counter.json's) or that only guide the build's metric generators (`Experimental`).
// Under 7.3's rules any other key is reported once per file (report_unknown_keys).
constexpr std::string_view kKnownKeys[] = {
    "AggregationMode",
    "AnyThread",
    "ArchStdEvent",
    "BriefDescription",
    "Compat",
    "ConfigCode",
    "Counter",
    "CounterMask",
    "CountersNumFixed",
    "CountersNumGeneric",
    "Data_LA",
    "DefaultMetricgroupName",
    "DefaultShowEvents",
    "Deprecated",
    "EdgeDetect",
    "EnAllCores",
    "EnAllSlices",
    "Errata",
    "EventCode",
    "EventName",
    "EventidCode",
    "Experimental",
    "ExtSel",
    "FCMask",
    "Filter",
    "Invert",
    "LegacyCacheCode",
    "LegacyConfigCode",
    "MSRIndex",
    "MSRValue",
    "MetricConstraint",
    "MetricExpr",
    "MetricGroup",
    "MetricName",
    "MetricThreshold",
    "MetricgroupNoGroup",
    "NodeType",
    "PEBS",
    "PerPkg",
    "PortMask",
    "PublicDescription",
    "RdWrMask",
    "RetirementLatencyMax",
    "RetirementLatencyMean",
    "RetirementLatencyMin",
    "SampleAfterValue",
    "ScaleUnit",
    "SliceId",
    "ThreadMask",
    "UMask",
    "Unit",
};

// Each key of `object` that no rule reads, reported the first time the file has it: perf's
// jevents ignores it, so the event or metric is built without it (a misspelt description key
// leaves the object without that description).
void report_unknown_keys(const json& object, const ObjectStart& where, const Context& context,
                         std::vector<std::string>& reported) {
  for (const auto& item : object.items()) {
    const std::string& key = item.key();
    if (std::find(std::begin(kKnownKeys), std::end(kKnownKeys), key) != std::end(kKnownKeys))
      continue;
    if (std::find(reported.begin(), reported.end(), key) != reported.end()) continue;
    reported.push_back(key);
    context.report(Severity::warning, DiagId::vendor_json_unknown_key, where.offset,
                   "key '" + key +
                       "' is read by no perf jevents pmucat follows; ignored, as perf "
                       "does (first of its uses in this file)");
  }
}

// A counter.json object (CountersNumGeneric or CountersNumFixed) to its numbers; nullopt for any
// other object. Values of another type are kept empty: nothing in perf reads them.
std::optional<VendorCounterInfo> convert_counter(const json& object, const ObjectStart& where,
                                                 const Context& context) {
  if (!object.contains("CountersNumGeneric") && !object.contains("CountersNumFixed")) {
    return std::nullopt;
  }
  EventObject fields(object);
  VendorCounterInfo counter;
  counter.unit = fields.value("Unit");
  counter.generic = fields.value("CountersNumGeneric");
  counter.fixed = fields.value("CountersNumFixed");
  counter.location = object_range(context, where);
  return counter;
}

// The JSON document of a file, or nullopt after a vendor-json-syntax diagnostic.
std::optional<json> parse_document(std::string_view text, std::string_view path,
                                   const TextScan& scan, std::vector<Diagnostic>& diagnostics) {
  if (scan.too_deep_at) {
    diagnostics.push_back(
        make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text, *scan.too_deep_at,
                        1, "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels"));
    return std::nullopt;
  }
  try {
    return json::parse(text.begin(), text.end());
  } catch (const json::parse_error& error) {
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    diagnostics.push_back(make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text,
                                          offset, 1, parse_error_message(error.what())));
  } catch (const json::exception& error) {
    diagnostics.push_back(make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text,
                                          0, 0, parse_error_message(error.what())));
  }
  return std::nullopt;
}

}  // namespace

std::vector<VendorEvent> parse_vendor_json(std::string_view text, std::string_view path,
                                           std::string_view topic,
                                           const std::vector<VendorEvent>& std_events,
                                           PerfRelease rules,
                                           std::vector<Diagnostic>& diagnostics) {
  std::vector<VendorMetric> metrics;
  std::vector<VendorCounterInfo> counters;
  return parse_vendor_json(text, path, topic, std_events, {}, rules, diagnostics, metrics,
                           counters);
}

std::vector<VendorMetricGroupDescription> parse_metric_group_descriptions(
    std::string_view text, std::string_view path, std::vector<Diagnostic>& diagnostics) {
  std::vector<VendorMetricGroupDescription> descriptions;
  std::optional<json> document = parse_document(text, path, scan_text(text), diagnostics);
  if (!document) return descriptions;
  if (!document->is_object()) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    diagnostics.push_back(
        make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text,
                        start == std::string_view::npos ? 0 : start, 1,
                        std::string("expected an object of metric group descriptions, found ") +
                            document->type_name()));
    return descriptions;
  }
  for (const auto& [name, description] : document->items()) {
    if (!description.is_string()) {
      diagnostics.push_back(make_diagnostic(
          Severity::error, DiagId::vendor_json_field, path, text, 0, 1,
          "the description of metric group '" + name + "' is not a string; skipped"));
      continue;
    }
    descriptions.push_back({name, description.get<std::string>()});
  }
  // nlohmann's object is a std::map: already in byte order, as perf's table is sorted.
  return descriptions;
}

std::vector<VendorEvent> parse_vendor_json(std::string_view text, std::string_view path,
                                           std::string_view topic,
                                           const std::vector<VendorEvent>& std_events,
                                           std::span<const VendorMetric> std_metrics,
                                           PerfRelease rules, std::vector<Diagnostic>& diagnostics,
                                           std::vector<VendorMetric>& metrics,
                                           std::vector<VendorCounterInfo>& counters) {
  std::vector<VendorEvent> events;
  const TextScan scan = scan_text(text);
  std::optional<json> parsed = parse_document(text, path, scan, diagnostics);
  if (!parsed) return events;
  const json& document = *parsed;
  if (!document.is_array()) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    diagnostics.push_back(make_diagnostic(
        Severity::error, DiagId::vendor_json_syntax, path, text,
        start == std::string_view::npos ? 0 : start, 1,
        std::string("expected an array of event objects, found ") + document.type_name()));
    return events;
  }
  const Context context{text, path, topic, std_events, std_metrics, rules, diagnostics};
  const std::size_t array_start = text.find('[');
  std::size_t object_index = 0;
  const bool report_keys = jevents_since(rules, JeventsRules::of_7_2);
  std::vector<std::string> reported_keys;
  for (const json& element : document) {
    if (!element.is_object()) {
      context.report(Severity::error, DiagId::vendor_json_field, array_start,
                     std::string("an element of the event array is ") + element.type_name() +
                         ", not an object; skipped");
      continue;
    }
    // The scan and the parser agree on the text, so they count the same objects; the fallback
    // only guards against a disagreement.
    const ObjectStart where =
        object_index < scan.objects.size() ? scan.objects[object_index] : ObjectStart{};
    ++object_index;
    if (report_keys) report_unknown_keys(element, where, context, reported_keys);
    if (std::optional<VendorEvent> event = convert_event(element, where, context)) {
      events.push_back(std::move(*event));
    }
    if (std::optional<VendorMetric> metric = convert_metric(element, where, context)) {
      metrics.push_back(std::move(*metric));
    }
    if (std::optional<VendorCounterInfo> counter = convert_counter(element, where, context)) {
      counters.push_back(std::move(*counter));
    }
  }
  return events;
}

PMUCAT_END_NAMESPACE
