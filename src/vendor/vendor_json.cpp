// One vendor JSON file to events, with the facts of perf 6.1's jevents.py (no code of it).
#include <algorithm>
#include <array>
#include <nlohmann/json.hpp>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_events.h"
#include "vendor/descriptions.h"
#include "vendor/vendor_numbers.h"

namespace pmucat {
namespace {

using nlohmann::json;
using vendor::ascii_lower;

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

// jevents.py's Unit -> PMU table; other units become `uncore_<unit lower-cased>`.
std::string unit_to_pmu(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 17> kTable{{
      {"CBO", "uncore_cbox"},
      {"QPI LL", "uncore_qpi"},
      {"SBO", "uncore_sbox"},
      {"iMPH-U", "uncore_arb"},
      {"CPU-M-CF", "cpum_cf"},
      {"CPU-M-SF", "cpum_sf"},
      {"PAI-CRYPTO", "pai_crypto"},
      {"UPI LL", "uncore_upi"},
      {"hisi_sicl,cpa", "hisi_sicl,cpa"},
      {"hisi_sccl,ddrc", "hisi_sccl,ddrc"},
      {"hisi_sccl,hha", "hisi_sccl,hha"},
      {"hisi_sccl,l3c", "hisi_sccl,l3c"},
      {"imx8_ddr", "imx8_ddr"},
      {"L3PMC", "amd_l3"},
      {"DFPMC", "amd_df"},
      {"cpu_core", "cpu_core"},
      {"cpu_atom", "cpu_atom"},
  }};
  if (unit.empty()) return {};
  for (const auto& [from, to] : kTable) {
    if (unit == from) return std::string(to);
  }
  return "uncore_" + ascii_lower(unit);
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

std::optional<std::string_view> msr_term(std::uint64_t msr) {
  switch (msr) {
    case 0x3F6:
      return "ldlat=";
    case 0x1A6:
    case 0x1A7:
      return "offcore_rsp=";
    case 0x3F7:
      return "frontend=";
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

struct Context {
  std::string_view text;
  std::string_view path;
  std::string_view topic;
  const std::vector<VendorEvent>& std_events;
  std::vector<Diagnostic>& diagnostics;

  void report(Severity severity, DiagId id, std::size_t offset, std::string message) const {
    diagnostics.push_back(make_diagnostic(severity, id, path, text, offset, 1, std::move(message)));
  }
};

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
  event.location.file = std::string(context.path);
  event.location.line = where.line;
  event.location.column = where.column;
  event.location.length = 1;
  event.location.offset = where.offset;
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
  event.pmu = unit_to_pmu(event.unit);
  const std::string filter = fields.value("Filter");
  event.scale_unit = fields.value("ScaleUnit");
  const std::string* per_pkg = fields.text("PerPkg");
  const std::string* deprecated = fields.text("Deprecated");
  event.counter = fields.value("Counter");
  event.counter_mask = fields.value("CounterMask");
  event.compat = fields.value("Compat");
  event.arch_std_event = fields.value("ArchStdEvent");
  static constexpr std::array<std::pair<const char*, std::string_view>, 8> kTermFields{{
      {"AnyThread", "any="},
      {"PortMask", "ch_mask="},
      {"CounterMask", "cmask="},
      {"EdgeDetect", "edge="},
      {"FCMask", "fc_mask="},
      {"Invert", "inv="},
      {"SampleAfterValue", "period="},
      {"UMask", "umask="},
  }};
  std::array<const std::string*, kTermFields.size()> term_values{};
  for (std::size_t i = 0; i < kTermFields.size(); ++i) {
    term_values[i] = fields.text(kTermFields[i].first);
  }
  if (!fields.bad_field().empty()) {
    return reject("field '" + fields.bad_field() + "' of event '" + event.name +
                  "' is not a string");
  }

  std::uint64_t code = 0;
  if (event_code) {
    const auto value = vendor::parse_python_int_auto(first_of_list(*event_code));
    if (!value) return reject("EventCode '" + *event_code + "' is not a number");
    code = *value;
  }
  if (ext_sel) {
    const auto value = vendor::parse_python_int_decimal(*ext_sel);
    if (!value || *value > (UINT64_MAX >> 8)) {
      return reject("ExtSel '" + *ext_sel + "' is not a decimal number");
    }
    code |= *value << 8;
  }
  std::string terms;
  if (config_code) {
    const auto value = vendor::parse_python_int_auto(*config_code);
    if (!value) return reject("ConfigCode '" + *config_code + "' is not a number");
    terms = "config=" + vendor::hex_like_printf(*value);
  } else {
    terms = "event=" + vendor::hex_like_printf(code);
  }
  for (std::size_t i = 0; i < kTermFields.size(); ++i) {
    if (term_values[i] && *term_values[i] != "0") {
      terms += ',';
      terms += kTermFields[i].second;
      terms += *term_values[i];
    }
  }
  if (!filter.empty()) terms += ',' + filter;
  if (!msr_index.empty()) {
    const auto msr = vendor::parse_python_int_auto(first_of_list(msr_index));
    if (!msr) return reject("MSRIndex '" + msr_index + "' is not a number");
    const auto term = msr_term(*msr);
    if (!term) return reject("MSRIndex '" + msr_index + "' names no MSR perf knows");
    if (!msr_value) return reject("MSRIndex without MSRValue");
    terms += ',';
    terms += *term;
    terms += *msr_value;
  }
  event.per_pkg = per_pkg && vendor::scanf_int_is_one(*per_pkg);
  event.deprecated = deprecated && !deprecated->empty();
  event.has_perf_description = brief || !event.pmu.empty();

  if (!event.arch_std_event.empty()) {
    const VendorEvent* standard =
        find_std_event(context.std_events, ascii_lower(event.arch_std_event));
    if (!standard) {
      context.report(Severity::warning, DiagId::vendor_std_event_unknown, where.offset,
                     "ArchStdEvent '" + event.arch_std_event + "' of event '" + event.name +
                         "' names no architecture standard event");
    } else {
      // perf copies the standard event's term string, and each of its fields this event leaves
      // empty (finished descriptions, PMU, ScaleUnit, PerPkg, Deprecated, Compat).
      terms = standard->terms;
      if (event.name.empty()) event.name = standard->name;
      if (vendor::jevents_brief(event).empty()) {
        event.brief_description = vendor::jevents_brief(*standard);
        event.brief_from_std_event = true;
        event.has_perf_description = standard->has_perf_description;
      }
      if (vendor::jevents_public(event).empty()) {
        event.public_description = vendor::jevents_public(*standard);
        event.public_from_std_event = true;
      }
      if (event.pmu.empty()) {
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

// One object with MetricName or MetricExpr to a metric; nullopt (after a diagnostic) for a bad
// one, silently for an object that is no metric.
std::optional<VendorMetric> convert_metric(const json& object, const ObjectStart& where,
                                           const Context& context) {
  if (!object.contains("MetricName") && !object.contains("MetricExpr")) return std::nullopt;
  EventObject fields(object);
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
  metric.unit = fields.value("Unit");
  metric.pmu = unit_to_pmu(metric.unit);
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
  metric.location.file = std::string(context.path);
  metric.location.line = where.line;
  metric.location.column = where.column;
  metric.location.length = 1;
  metric.location.offset = where.offset;
  auto reject = [&](std::string message) -> std::optional<VendorMetric> {
    message += "; metric skipped";
    context.diagnostics.push_back(make_diagnostic(Severity::error, DiagId::vendor_metric_field,
                                                  context.path, context.text, where.offset, 1,
                                                  std::move(message)));
    return std::nullopt;
  };
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
  metric.per_pkg = per_pkg && vendor::scanf_int_is_one(*per_pkg);
  metric.deprecated = deprecated && !deprecated->empty();
  metric.has_perf_description = brief || !metric.pmu.empty();
  return metric;
}

}  // namespace

std::vector<VendorEvent> parse_vendor_json(std::string_view text, std::string_view path,
                                           std::string_view topic,
                                           const std::vector<VendorEvent>& std_events,
                                           std::vector<Diagnostic>& diagnostics) {
  std::vector<VendorMetric> metrics;
  return parse_vendor_json(text, path, topic, std_events, diagnostics, metrics);
}

std::vector<VendorEvent> parse_vendor_json(std::string_view text, std::string_view path,
                                           std::string_view topic,
                                           const std::vector<VendorEvent>& std_events,
                                           std::vector<Diagnostic>& diagnostics,
                                           std::vector<VendorMetric>& metrics) {
  std::vector<VendorEvent> events;
  const TextScan scan = scan_text(text);
  if (scan.too_deep_at) {
    diagnostics.push_back(
        make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text, *scan.too_deep_at,
                        1, "JSON nested deeper than " + std::to_string(kMaxDepth) + " levels"));
    return events;
  }
  json document;
  try {
    document = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& error) {
    const std::size_t offset = error.byte > 0 ? error.byte - 1 : 0;
    diagnostics.push_back(make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text,
                                          offset, 1, parse_error_message(error.what())));
    return events;
  } catch (const json::exception& error) {
    diagnostics.push_back(make_diagnostic(Severity::error, DiagId::vendor_json_syntax, path, text,
                                          0, 0, parse_error_message(error.what())));
    return events;
  }
  if (!document.is_array()) {
    const std::size_t start = text.find_first_not_of(" \t\r\n");
    diagnostics.push_back(make_diagnostic(
        Severity::error, DiagId::vendor_json_syntax, path, text,
        start == std::string_view::npos ? 0 : start, 1,
        std::string("expected an array of event objects, found ") + document.type_name()));
    return events;
  }
  const Context context{text, path, topic, std_events, diagnostics};
  const std::size_t array_start = text.find('[');
  std::size_t object_index = 0;
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
    if (std::optional<VendorEvent> event = convert_event(element, where, context)) {
      events.push_back(std::move(*event));
    }
    if (std::optional<VendorMetric> metric = convert_metric(element, where, context)) {
      metrics.push_back(std::move(*metric));
    }
  }
  return events;
}

}  // namespace pmucat
