// The files of a PMU's directory that make its PmuAttributes, as one table.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pmucat/catalog.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// The files of a PMU's directory that make its PmuAttributes (caps/ aside), in the order the
// catalog reads and the tools show them: the one list the catalog, pmusnap (what to keep),
// pmudiff (what to compare) and pmuls (what to print) share. Each entry names the member that
// holds the file's value: a CPU list, a decimal number or the file's first line.
struct PmuAttributeFile {
  std::string_view name;
  std::optional<CpuList> PmuAttributes::*cpu_list = nullptr;
  std::optional<std::uint32_t> PmuAttributes::*number = nullptr;
  std::optional<std::string> PmuAttributes::*line = nullptr;

  // The value as text (a CPU list as read, a number in decimal); nothing when absent.
  std::optional<std::string> text(const PmuAttributes& attributes) const {
    if (cpu_list != nullptr) {
      const auto& list = attributes.*cpu_list;
      return list ? std::optional<std::string>(list->text) : std::nullopt;
    }
    if (number != nullptr) {
      const auto& value = attributes.*number;
      return value ? std::optional<std::string>(std::to_string(*value)) : std::nullopt;
    }
    return attributes.*line;
  }
};
inline constexpr PmuAttributeFile kPmuAttributeFiles[] = {
    {.name = "type", .number = &PmuAttributes::type},
    {.name = "cpumask", .cpu_list = &PmuAttributes::cpumask},
    {.name = "cpus", .cpu_list = &PmuAttributes::cpus},
    {.name = "alias", .line = &PmuAttributes::alias},
    {.name = "identifier", .line = &PmuAttributes::identifier},
    {.name = "nr_addr_filters", .number = &PmuAttributes::nr_addr_filters},
    {.name = "perf_event_mux_interval_ms", .number = &PmuAttributes::mux_interval_ms},
};
// Those after `type`, `cpumask` and `cpus`, which every tool shows in a place of its own.
inline constexpr std::span<const PmuAttributeFile> kPmuOptionalAttributes =
    std::span(kPmuAttributeFiles).subspan(3);

PMUCAT_END_NAMESPACE
