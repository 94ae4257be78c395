#include "pmuls/event_listing.h"

#include <fmt/core.h>

#include <algorithm>

#include "common/text_table.h"
#include "common/text_wrap.h"
#include "pmucat/format.h"
#include "pmucat/perf_profile.h"
#include "pmucat/terms.h"
#include "pmuls/catalog_json.h"
#include "pmuls/event_view.h"
#include "pmuls/pmu_summary.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
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

// perf list shows an event with a description under its topic, the others first, plainly.
bool described(const Event& event) {
  return event.vendor && !perf_brief_description(*event.vendor).empty();
}

std::vector<const Event*> listed_events(const Pmu& pmu, const EventFilter& filter) {
  struct Entry {
    const Event* event;
    bool described;
  };
  std::vector<Entry> entries;
  for (const Event& event : pmu.events()) {
    if (event_selected(event, filter)) entries.push_back({&event, described(event)});
  }
  // pmu.events() is in name order already: a stable sort keeps it within each group.
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.described != b.described) return !a.described;
    return event_topic(*a.event) < event_topic(*b.event);
  });
  std::vector<const Event*> events;
  events.reserve(entries.size());
  for (const Entry& entry : entries) events.push_back(entry.event);
  return events;
}

std::string perf612_list_text(std::string_view description) {
  std::string out;
  out.reserve(description.size());
  std::size_t i = 0;
  while (i < description.size()) {
    const char c = description[i];
    if (c != ',' && c != ' ' && c != '\t') {
      out += c;
      ++i;
      continue;
    }
    bool comma = false;
    while (i < description.size() &&
           (description[i] == ',' || description[i] == ' ' || description[i] == '\t')) {
      comma = comma || description[i] == ',';
      ++i;
    }
    out += comma ? ',' : ' ';
  }
  return out;
}

std::string render_description(std::string_view description, std::size_t columns) {
  constexpr std::size_t kIndent = 8;
  // The text starts at column 8 and the last line ends with `]`; a too narrow terminal still
  // gets one word a line.
  const std::size_t width =
      columns == 0 ? 0 : std::max<std::size_t>(columns, kIndent + 2) - kIndent;
  std::vector<std::string> lines = wrap_words(description, width);
  // Room for the closing bracket: rewrap the last line when it would pass the width.
  if (width != 0 && !lines.empty() && lines.back().size() + 1 > width) {
    std::string last = std::move(lines.back());
    lines.pop_back();
    std::vector<std::string> tail = wrap_words(last, width - 1);
    lines.insert(lines.end(), tail.begin(), tail.end());
  }
  if (lines.empty()) lines.emplace_back();
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    out += i == 0 ? std::string(kIndent - 1, ' ') + '[' : std::string(kIndent, ' ');
    out += lines[i];
    if (i + 1 == lines.size()) out += ']';
    out += '\n';
  }
  return out;
}

std::string render_pmu_events(const Pmu& pmu, const EventListing& listing,
                              DiagnosticPrinter& printer) {
  std::string out = pmu_heading(pmu) + '\n';
  if (listing.long_form) out += pmu_attribute_lines(pmu, "  ");
  const std::vector<const Event*> events = listed_events(pmu, listing.filter);
  TextTable table({TextTable::Align::left, TextTable::Align::left, TextTable::Align::left,
                   TextTable::Align::left});
  for (const Event* event : events) {
    const EventView view = view_event(pmu, *event);
    std::string encoding;
    if (view.config) {
      encoding = encoding_text(*view.config);
    } else if (view.error) {
      encoding = "error: " + view.error->message;
      printer.print_as_warning(*view.error);
    }
    const std::string terms = event->error ? std::string("-") : print_terms(event->terms.terms);
    table.add_row({view.perf_name, terms, encoding, extras_text(view)});
  }
  // One table keeps the columns aligned across topics; its lines are taken apart to put the
  // topic headings and descriptions between them.
  const std::string rows = table.render("  ");
  std::size_t line_start = 0;
  std::string_view topic;
  bool first_topic = true;
  for (const Event* event : events) {
    const std::size_t line_end = rows.find('\n', line_start) + 1;
    const bool with_description = described(*event);
    if (with_description && (first_topic || event_topic(*event) != topic)) {
      topic = event_topic(*event);
      first_topic = false;
      out += fmt::format("\n  {}:\n", topic.empty() ? std::string_view("other") : topic);
    }
    out.append(rows, line_start, line_end - line_start);
    line_start = line_end;
    if (with_description && listing.descriptions != DescriptionKind::none) {
      std::string description = perf_brief_description(*event->vendor);
      if (listing.descriptions == DescriptionKind::long_form) {
        std::string detail = perf_public_description(*event->vendor);
        if (!detail.empty()) description = std::move(detail);
      } else if (!description.empty() &&
                 jevents_rules(event->vendor->rules) != JeventsRules::of_6_1) {
        // A description that ends in `.` (jevents strips one of `..`) gets no second one.
        description += description.ends_with('.') ? " Unit: " : ". Unit: ";
        description += perf_list_unit(pmu, *event);
      }
      if (jevents_rules(event->vendor->rules) != JeventsRules::of_6_1)
        description = perf612_list_text(description);
      if (!description.empty()) out += render_description(description, listing.columns);
    }
  }
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
    if (vendor.deprecated) table.add_row({"deprecated", "yes (listed only with --deprecated)"});
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

}  // namespace cli
PMUCAT_END_NAMESPACE
