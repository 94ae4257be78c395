#include "pmuls/event_listing.h"

#include <fmt/core.h>

#include "common/text_table.h"
#include "pmucat/format.h"
#include "pmucat/terms.h"
#include "pmuls/event_view.h"
#include "pmuls/pmu_summary.h"

namespace pmucat::cli {
namespace {

std::string join(const std::vector<std::string>& items, std::string_view separator) {
  std::string out;
  for (const std::string& item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

// unit=MiB scale=6.103515625e-5 per-pkg snapshot needs=chip
std::string extras_text(const EventView& view) {
  const Event& event = *view.event;
  std::vector<std::string> extras;
  if (event.unit) extras.push_back("unit=" + *event.unit);
  if (event.scale) {
    extras.push_back(
        "scale=" + (event.scale_text.empty() ? fmt::format("{}", *event.scale) : event.scale_text));
  }
  if (event.per_pkg) extras.push_back("per-pkg");
  if (event.snapshot) extras.push_back("snapshot");
  if (!view.params.empty()) extras.push_back("needs=" + join(view.params, ","));
  return join(extras, " ");
}

// Where a term of an event lands: the format's bits, a perf keyword, or nowhere.
std::string term_destination(const Pmu& pmu, const Term& term) {
  if (const Format* format = pmu.find_format(term.name)) return to_string(format->spec);
  if (term.name.rfind("config", 0) == 0) return "whole word";
  return "perf term";
}

}  // namespace

std::string render_pmu_events(const Pmu& pmu, bool long_form, DiagnosticPrinter& printer) {
  std::string out = pmu_heading(pmu) + '\n';
  if (long_form) out += pmu_attribute_lines(pmu, "  ");
  TextTable table({TextTable::Align::left, TextTable::Align::left, TextTable::Align::left,
                   TextTable::Align::left});
  for (const Event& event : pmu.events()) {
    const EventView view = view_event(pmu, event);
    std::string encoding;
    if (view.config) {
      encoding = encoding_text(*view.config);
    } else if (view.error) {
      encoding = "error: " + view.error->message;
      printer.print_as_warning(*view.error);
    }
    const std::string terms = event.error ? std::string("-") : print_terms(event.terms.terms);
    table.add_row({view.perf_name, terms, encoding, extras_text(view)});
  }
  out += table.render("  ");
  // Problems loading the PMU itself (event errors were reported above, once each).
  for (const Diagnostic& diagnostic : pmu.diagnostics()) {
    bool already_shown = false;
    for (const Event& event : pmu.events()) {
      if (event.error && *event.error == diagnostic) already_shown = true;
    }
    if (!already_shown && diagnostic.severity == Severity::error) {
      printer.print_as_warning(diagnostic);
    }
  }
  return out;
}

std::string render_event_detail(const Pmu& pmu, const Event& event, DiagnosticPrinter& printer) {
  const EventView view = view_event(pmu, event);
  std::string out = view.perf_name + '\n';
  TextTable table({TextTable::Align::left, TextTable::Align::left});
  const PmuAttributes& attributes = pmu.attributes();
  table.add_row({"pmu", attributes.type
                            ? fmt::format("{} (type {}, {})", pmu.name(), *attributes.type,
                                          to_string(pmu.kind()))
                            : fmt::format("{} ({})", pmu.name(), to_string(pmu.kind()))});
  table.add_row({"file", event.path});
  if (event.source != EventSource::sysfs)
    table.add_row({"source", std::string(to_string(event.source))});
  if (event.vendor) {
    const VendorEvent& vendor = *event.vendor;
    if (!vendor.topic.empty()) table.add_row({"topic", vendor.topic});
    const std::string brief = perf_brief_description(vendor);
    if (!brief.empty()) table.add_row({"description", brief});
    const std::string detail = perf_public_description(vendor);
    if (!detail.empty() && detail != brief) table.add_row({"details", detail});
    if (event.source == EventSource::both) {
      table.add_row({"json terms", vendor.terms});
    }
  }
  if (event.error) {
    table.add_row({"error", event.error->message});
  } else {
    table.add_row({"terms", print_terms(event.terms.terms)});
  }
  if (view.config) {
    for (unsigned word = 0; word < view.config->size(); ++word) {
      if (word == 0 || (*view.config)[word] != 0) {
        table.add_row({config_word_name(word), fmt::format("{:#x}", (*view.config)[word])});
      }
    }
  } else if (view.error && !event.error) {
    table.add_row({"error", view.error->message});
  }
  if (event.unit) table.add_row({"unit", *event.unit});
  if (event.scale) {
    table.add_row(
        {"scale", event.scale_text.empty() ? fmt::format("{}", *event.scale) : event.scale_text});
  }
  if (event.per_pkg) table.add_row({"per-pkg", "yes"});
  if (event.snapshot) table.add_row({"snapshot", "yes"});
  if (!view.params.empty()) table.add_row({"needs", join(view.params, ", ")});
  out += table.render("  ");

  if (!event.error && !event.terms.terms.empty()) {
    out += "  fields:\n";
    TextTable fields({TextTable::Align::left, TextTable::Align::right, TextTable::Align::left});
    for (const Term& term : event.terms.terms) {
      const std::string value =
          term.kind == TermValueKind::none ? std::string("1") : print_term_value(term);
      fields.add_row({term.name, value, term_destination(pmu, term)});
    }
    out += fields.render("    ");
  }
  if (view.error) printer.print_as_warning(*view.error);
  return out;
}

}  // namespace pmucat::cli
