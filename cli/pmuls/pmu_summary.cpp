#include "pmuls/pmu_summary.h"

#include <fmt/core.h>

#include "common/text_table.h"
#include "pmucat/pmu_attribute_files.h"
#include "pmuls/event_view.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

std::string type_text(const PmuAttributes& attributes) {
  return attributes.type ? std::to_string(*attributes.type) : "-";
}

std::string plural(std::size_t count, std::string_view noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

}  // namespace

std::string pmu_heading(const Pmu& pmu) {
  const PmuAttributes& attributes = pmu.attributes();
  std::string type =
      attributes.type ? fmt::format("type {}", *attributes.type) : std::string("no type");
  std::string cpus = cpus_text(attributes);
  return fmt::format("{}: {}, {}{}, {}, {}", pmu.name(), type, to_string(pmu.kind()),
                     cpus == "-" ? "" : ", " + cpus, plural(pmu.events().size(), "event"),
                     plural(pmu.formats().size(), "format"));
}

std::string pmu_attribute_lines(const Pmu& pmu, const std::string& indent) {
  const PmuAttributes& attributes = pmu.attributes();
  TextTable table({TextTable::Align::left, TextTable::Align::left});
  if (attributes.cpumask && attributes.cpus) {
    // The summary shows one of them; the long form shows both.
    table.add_row({"cpus", attributes.cpus->text});
  }
  for (const auto& [name, value] : attributes.caps) table.add_row({"caps/" + name, value});
  for (const PmuAttributeFile& file : kPmuOptionalAttributes) {
    if (auto text = file.text(attributes)) table.add_row({std::string(file.name), *text});
  }
  return table.render(indent);
}

std::string render_pmu_summary(std::span<const Pmu* const> pmus, bool long_form) {
  using Align = TextTable::Align;
  std::string out;
  TextTable table(
      {Align::left, Align::right, Align::left, Align::left, Align::right, Align::right});
  table.add_row({"PMU", "TYPE", "KIND", "CPUS", "EVENTS", "FORMATS"});
  for (const Pmu* pmu : pmus) {
    table.add_row({pmu->name(), type_text(pmu->attributes()), std::string(to_string(pmu->kind())),
                   cpus_text(pmu->attributes()), std::to_string(pmu->events().size()),
                   std::to_string(pmu->formats().size())});
  }
  if (!long_form) return table.render();

  // Long form: render the table, then splice each PMU's attribute lines under its row.
  const std::string rows = table.render();
  std::size_t line_start = 0;
  std::size_t index = 0;
  while (line_start < rows.size()) {
    const std::size_t line_end = rows.find('\n', line_start);
    out.append(rows, line_start, line_end - line_start + 1);
    if (index > 0) out += pmu_attribute_lines(*pmus[index - 1], "    ");
    line_start = line_end + 1;
    ++index;
  }
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
