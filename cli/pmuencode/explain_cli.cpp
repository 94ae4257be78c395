#include "pmuencode/explain_cli.h"

#include <fmt/core.h>

#include <algorithm>

#include "common/json.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/spec.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

std::string_view scope_name(Scope scope) {
  switch (scope) {
    case Scope::task:
      return "task";
    case Scope::all_cpus:
      return "all-cpus";
    case Scope::cpus:
      return "cpus";
  }
  return "task";
}

std::string_view tool_name(Tool tool) {
  return tool == Tool::stat ? "stat" : "record";
}

std::string cpu_list(const std::vector<std::uint32_t>& cpus) {
  std::string out;
  for (std::uint32_t cpu : cpus) {
    if (!out.empty()) out += ',';
    out += std::to_string(cpu);
  }
  return out;
}

template <class T>
std::string or_unknown(const std::optional<T>& value) {
  return value ? fmt::format("{}", *value) : "unknown";
}

std::string capabilities_text(const HostFacts& facts) {
  if (!facts.capabilities) return "unknown";
  const auto has = [&](unsigned capability) { return (*facts.capabilities >> capability) & 1u; };
  std::string names;
  if (has(kCapPerfmon)) names = "CAP_PERFMON";
  if (has(kCapSysAdmin)) names += names.empty() ? "CAP_SYS_ADMIN" : ", CAP_SYS_ADMIN";
  return fmt::format("{:#x} ({})", *facts.capabilities,
                     names.empty() ? "neither CAP_PERFMON nor CAP_SYS_ADMIN" : names);
}

std::string tracefs_text(const HostFacts& facts) {
  if (!facts.tracefs) return "unknown";
  return fmt::format("{} (mode {}, owner {})", *facts.tracefs,
                     facts.tracefs_mode ? fmt::format("{:04o}", *facts.tracefs_mode) : "unknown",
                     or_unknown(facts.tracefs_owner));
}

std::string scope_text(const ExplainOptions& options) {
  switch (options.scope) {
    case Scope::task:
      return "per task";
    case Scope::all_cpus:
      return "all CPUs (-a)";
    case Scope::cpus:
      return "CPUs " + cpu_list(options.cpus);
  }
  return "per task";
}

// "perf:  " then the wording, its later lines indented under the first.
std::string labelled(std::string_view label, std::string_view text) {
  std::string out = fmt::format("    {:<7}", label);
  for (char c : text) {
    out += c;
    if (c == '\n') out += std::string(11, ' ');
  }
  out += '\n';
  return out;
}

// The spec as written, and perf's canonical form when it says more (which PMU instance, which
// core PMU a legacy event went to).
std::string event_title(const EncodedEvent& event) {
  if (event.perf_string.empty() || event.perf_string == event.spec) return event.spec;
  return fmt::format("{} ({})", event.spec, event.perf_string);
}

void append_events(EncodeResult& into, EncodeResult&& from) {
  const std::size_t base = into.events.size();
  for (EncodedEvent& event : from.events) {
    if (event.group_leader) *event.group_leader += base;
    into.events.push_back(std::move(event));
  }
  for (Diagnostic& error : from.errors) into.errors.push_back(std::move(error));
}

bool names_unknown_pmu(const EncodeResult& result) {
  return std::any_of(result.errors.begin(), result.errors.end(),
                     [](const Diagnostic& error) { return error.code == DiagId::pmu_unknown; });
}

}  // namespace

EncodeResult encode_for_explain(const Catalog& catalog, std::span<const std::string> specs,
                                const std::string& pmu_pattern, const EncodeOptions& options) {
  EncodeResult result;
  for (const std::string& spec : specs) {
    EncodeResult one = encode_specs(catalog, std::span(&spec, 1), pmu_pattern, options);
    if (!names_unknown_pmu(one)) {
      append_events(result, std::move(one));
      continue;
    }
    auto list = parse_spec_list(spec);
    if (!list) {
      append_events(result, std::move(one));
      continue;
    }
    for (const EventSpec& item : *list) {
      if (item.form == SpecForm::pmu_terms && catalog.match_pmus(item.pmu).empty()) {
        EncodedEvent stand_in;
        stand_in.spec = item.text;
        stand_in.pmu = item.pmu;
        result.events.push_back(std::move(stand_in));
        continue;
      }
      append_events(result, encode_specs(catalog, std::span(&item.text, 1), pmu_pattern, options));
    }
  }
  return result;
}

bool is_absent_pmu_stand_in(const Catalog& catalog, const EncodedEvent& event) {
  return !event.pmu.empty() && catalog.find_pmu(event.pmu) == nullptr &&
         catalog.match_pmus(event.pmu).empty();
}

bool has_blocking_reason(std::span<const Reason> reasons) {
  return std::any_of(reasons.begin(), reasons.end(),
                     [](const Reason& reason) { return reason.severity == Severity::error; });
}

std::string render_explanation(const HostFacts& facts, const ExplainRequest& request,
                               std::span<const EncodedEvent> events,
                               std::span<const Reason> reasons) {
  std::string out = fmt::format(
      "host {}: perf_event_paranoid {}, capabilities {}, uid {}, kernel {}, nmi_watchdog {}, "
      "perf_event_max_sample_rate {}, tracefs {}\n",
      request.host_root, or_unknown(facts.perf_event_paranoid), capabilities_text(facts),
      or_unknown(facts.uid), or_unknown(facts.kernel_release),
      facts.nmi_watchdog ? (*facts.nmi_watchdog ? "1" : "0") : "unknown",
      or_unknown(facts.max_sample_rate), tracefs_text(facts));
  out += fmt::format("counting {}, for perf {}\n", scope_text(request.options),
                     tool_name(request.options.tool));
  for (std::size_t index = 0; index < events.size(); ++index) {
    out += '\n';
    out += event_title(events[index]);
    out += '\n';
    bool any = false;
    for (const Reason& reason : reasons) {
      if (reason.event != index) continue;
      any = true;
      out += fmt::format("  {}: {} [{}]\n", to_string(reason.severity), reason.message,
                         to_string(reason.id));
      if (!reason.perf_says.empty()) out += labelled("perf:", reason.perf_says);
      out += labelled("fix:", reason.fix);
      for (const std::string& fact : reason.facts) out += labelled("fact:", fact);
    }
    if (!any) out += "  no reason found: it should open and count\n";
  }
  return out;
}

std::string explanation_json(const HostFacts& facts, const ExplainRequest& request,
                             std::span<const EncodedEvent> events,
                             std::span<const Reason> reasons) {
  const auto optional = [](const auto& value) -> Json {
    if (!value) return nullptr;
    return Json(*value);
  };
  Json host = Json::object();
  host["root"] = request.host_root;
  host["perf_event_paranoid"] = optional(facts.perf_event_paranoid);
  host["nmi_watchdog"] = optional(facts.nmi_watchdog);
  host["perf_event_max_sample_rate"] = optional(facts.max_sample_rate);
  host["kernel_release"] = optional(facts.kernel_release);
  host["capabilities"] =
      facts.capabilities ? Json(fmt::format("{:#x}", *facts.capabilities)) : Json(nullptr);
  host["uid"] = optional(facts.uid);
  host["tracefs"] = optional(facts.tracefs);
  host["tracefs_mode"] =
      facts.tracefs_mode ? Json(fmt::format("{:04o}", *facts.tracefs_mode)) : Json(nullptr);
  host["tracefs_owner"] = optional(facts.tracefs_owner);

  Json items = Json::array();
  for (std::size_t index = 0; index < events.size(); ++index) {
    const EncodedEvent& event = events[index];
    Json item = Json::object();
    item["spec"] = event.spec;
    item["pmu"] = event.pmu;
    item["perf"] = event.perf_string;
    Json list = Json::array();
    for (const Reason& reason : reasons) {
      if (reason.event != index) continue;
      Json entry = Json::object();
      entry["id"] = to_string(reason.id);
      entry["severity"] = to_string(reason.severity);
      entry["message"] = reason.message;
      entry["perf_says"] = reason.perf_says;
      entry["fix"] = reason.fix;
      entry["facts"] = reason.facts;
      list.push_back(std::move(entry));
    }
    item["reasons"] = std::move(list);
    items.push_back(std::move(item));
  }
  Json root = Json::object();
  root["host"] = std::move(host);
  root["scope"] = scope_name(request.options.scope);
  root["cpus"] = request.options.cpus;
  root["tool"] = tool_name(request.options.tool);
  root["events"] = std::move(items);
  return dump_json(root);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
