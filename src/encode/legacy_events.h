// perf's built-in hardware and software event names (`cycles`, `cache-misses`, `cpu-clock`).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"

namespace pmucat::encode_detail {

struct LegacyEvent {
  PerfType type = PerfType::hardware;
  std::uint64_t config = 0;
};

// The legacy event a bare name denotes (exact, case-sensitive as in perf's lexer): a hardware or
// software event (`cycles`, `cs`), or a hardware cache event (`L1-dcache-load-misses`,
// `LLC-prefetches`, `dTLB-loads`: PERF_TYPE_HW_CACHE, config type | op << 8 | result << 16).
std::optional<LegacyEvent> find_legacy_event(std::string_view name);

// Every legacy name, for suggestions: the hardware and software names, and each cache event
// under perf's own name for it (`L1-dcache-loads`, `L1-dcache-load-misses`, ...).
std::vector<std::string> legacy_event_names();

}  // namespace pmucat::encode_detail
