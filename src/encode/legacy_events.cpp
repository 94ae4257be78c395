#include "encode/legacy_events.h"

#include <array>

namespace pmucat::encode_detail {
namespace {

struct Named {
  std::string_view name;
  LegacyEvent event;
};

constexpr LegacyEvent hw(std::uint64_t config) {
  return {PerfType::hardware, config};
}
constexpr LegacyEvent sw(std::uint64_t config) {
  return {PerfType::software, config};
}

// PERF_COUNT_HW_* and PERF_COUNT_SW_* with the spellings perf 6.1 accepts.
constexpr std::array<Named, 27> kLegacy{{
    {"cpu-cycles", hw(0)},
    {"cycles", hw(0)},
    {"instructions", hw(1)},
    {"cache-references", hw(2)},
    {"cache-misses", hw(3)},
    {"branch-instructions", hw(4)},
    {"branches", hw(4)},
    {"branch-misses", hw(5)},
    {"bus-cycles", hw(6)},
    {"stalled-cycles-frontend", hw(7)},
    {"idle-cycles-frontend", hw(7)},
    {"stalled-cycles-backend", hw(8)},
    {"idle-cycles-backend", hw(8)},
    {"ref-cycles", hw(9)},
    {"cpu-clock", sw(0)},
    {"task-clock", sw(1)},
    {"page-faults", sw(2)},
    {"faults", sw(2)},
    {"context-switches", sw(3)},
    {"cs", sw(3)},
    {"cpu-migrations", sw(4)},
    {"migrations", sw(4)},
    {"minor-faults", sw(5)},
    {"major-faults", sw(6)},
    {"alignment-faults", sw(7)},
    {"emulation-faults", sw(8)},
    {"dummy", sw(9)},
}};

}  // namespace

std::optional<LegacyEvent> find_legacy_event(std::string_view name) {
  for (const Named& entry : kLegacy) {
    if (entry.name == name) return entry.event;
  }
  return std::nullopt;
}

std::vector<std::string> legacy_event_names() {
  std::vector<std::string> names;
  for (const Named& entry : kLegacy) names.emplace_back(entry.name);
  return names;
}

}  // namespace pmucat::encode_detail
