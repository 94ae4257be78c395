// Counts from the STAT records of a `perf stat record` perf.data.
#include "pmucat/metric_counts_perfdata.h"

#include <fmt/format.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <span>
#include <tuple>
#include <unordered_map>

#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE

namespace {

// perf's stat_config tags (PERF_STAT_CONFIG_TERM__*).
constexpr std::uint64_t kConfigScale = 2;
// perf's event_update types (PERF_EVENT_UPDATE__*).
constexpr std::uint64_t kUpdateUnit = 0, kUpdateScale = 1, kUpdateName = 2;

class Words {
 public:
  Words(std::span<const std::byte> bytes, bool swap) : bytes_(bytes), swap_(swap) {}
  std::optional<std::uint64_t> u64() { return read<std::uint64_t>(); }
  std::optional<std::uint32_t> u32() { return read<std::uint32_t>(); }
  std::span<const std::byte> rest() const { return bytes_.subspan(pos_); }

 private:
  template <class T>
  std::optional<T> read() {
    if (bytes_.size() - pos_ < sizeof(T)) {
      return std::nullopt;
    }
    T value = 0;
    for (std::size_t i = 0; i < sizeof(T); ++i) {
      const std::size_t index = swap_ ? sizeof(T) - 1 - i : i;
      value = static_cast<T>(
          value | (static_cast<T>(std::to_integer<unsigned>(bytes_[pos_ + index])) << (8 * i)));
    }
    pos_ += sizeof(T);
    return value;
  }
  std::span<const std::byte> bytes_;
  bool swap_;
  std::size_t pos_ = 0;
};

std::string c_string(std::span<const std::byte> bytes) {
  std::string out;
  for (const std::byte b : bytes) {
    if (b == std::byte{0}) {
      break;
    }
    out.push_back(static_cast<char>(b));
  }
  return out;
}

struct Sample {
  std::uint64_t value = 0, enabled = 0, running = 0;
};

}  // namespace

CountsRead read_stat_perf_data(const PerfData& data, std::string_view file) {
  CountsRead read;
  read.format = CountsFormat::perf_data;
  const auto garbled = [&](const Record& record, std::string message) {
    read.diagnostics.push_back(
        make_file_diagnostic(Severity::warning, DiagId::counts_garbled, file,
                             fmt::format("record at byte {:#x}: {}", record.file_offset, message)));
  };

  // Event index by sample id; names and units as the attrs and EVENT_UPDATE records give them.
  std::unordered_map<std::uint64_t, std::size_t> event_of_id;
  for (std::size_t i = 0; i < data.events.size(); ++i) {
    for (const std::uint64_t id : data.events[i].ids) {
      event_of_id.emplace(id, i);
    }
  }
  std::vector<std::string> names(data.events.size());
  std::vector<std::string> units(data.events.size());
  for (std::size_t i = 0; i < data.events.size(); ++i) {
    names[i] = data.events[i].name;
  }
  bool scale = true;
  // (event, cpu, thread) -> the last STAT record's values; ordered so the output is stable.
  std::map<std::tuple<std::size_t, std::uint32_t, std::uint32_t>, Sample> samples;
  std::vector<bool> seen(data.events.size(), false);

  for (const Record& record : data.records) {
    Words words(record.payload, data.other_endian);
    if (record.type == record_type::stat_config) {
      const auto nr = words.u64();
      for (std::uint64_t i = 0; nr && i < *nr; ++i) {
        const auto tag = words.u64();
        const auto value = words.u64();
        if (!tag || !value) {
          garbled(record, "STAT_CONFIG shorter than its entry count");
          break;
        }
        if (*tag == kConfigScale) {
          scale = *value != 0;
        }
      }
    } else if (record.type == record_type::event_update) {
      const auto type = words.u64();
      const auto id = words.u64();
      if (!type || !id) {
        garbled(record, "EVENT_UPDATE shorter than its header");
        continue;
      }
      const auto event = event_of_id.find(*id);
      if (event == event_of_id.end()) {
        continue;
      }
      if (*type == kUpdateName && names[event->second].empty()) {
        names[event->second] = c_string(words.rest());
      } else if (*type == kUpdateUnit) {
        units[event->second] = c_string(words.rest());
      }
      (void)kUpdateScale;  // a raw count is kept raw: the evsel scale is not applied
    } else if (record.type == record_type::stat) {
      const auto id = words.u64();
      const auto cpu = words.u32();
      const auto thread = words.u32();
      const auto value = words.u64();
      const auto enabled = words.u64();
      const auto running = words.u64();
      if (!running) {
        garbled(record, fmt::format("STAT record of {} bytes, shorter than 48", record.size()));
        continue;
      }
      const auto event = event_of_id.find(*id);
      if (event == event_of_id.end()) {
        garbled(record, fmt::format("STAT record for id {}, which no event has", *id));
        continue;
      }
      seen[event->second] = true;
      samples[{event->second, *cpu, *thread}] = Sample{*value, *enabled, *running};
    }
  }

  // Sum per event over CPUs and threads, in the file's event order.
  std::vector<std::optional<Count>> counts(data.events.size());
  for (const auto& [key, sample] : samples) {
    const std::size_t event = std::get<0>(key);
    Count part;
    part.event = names[event].empty() ? fmt::format("event{}", event) : names[event];
    part.unit = units[event];
    part.value = static_cast<double>(sample.value);
    if (scale) {
      part.enabled = sample.enabled;
      part.running = sample.running;
    }
    part.where = make_file_diagnostic(Severity::note, "", file, "").range;
    ++read.lines_read;
    if (!counts[event]) {
      counts[event] = std::move(part);
    } else {
      counts[event]->value += part.value;
      counts[event]->lines += 1;
      if (scale) {
        *counts[event]->enabled += *part.enabled;
        *counts[event]->running += *part.running;
      }
    }
  }
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i]) {
      read.counts.add(std::move(*counts[i]));
    }
  }
  return read;
}

PMUCAT_END_NAMESPACE
