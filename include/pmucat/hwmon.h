// perf 7.2+'s hwmon PMUs (Behaviour::hwmon_pmus): one per /sys/class/hwmon/hwmonN of a tree,
// read as perf reads them (docs/hwmon.md has every rule, each measured with perf 7.3.4). They are
// no kernel PMUs: perf reads their `*_input` files itself and never opens an attr for them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// The first hwmon PMU type (hwmon0); hwmonN is this + N, up to 0xfffffffd.
inline constexpr std::uint32_t kHwmonFirstType = 0xffff0000U;
inline constexpr std::uint32_t kHwmonLastType = 0xfffffffdU;
// Whether a PMU type is a hwmon PMU's.
constexpr bool is_hwmon_type(std::uint32_t type) {
  return type >= kHwmonFirstType && type <= kHwmonLastType;
}

// Bounds on what a tree may make pmucat read (each a refusal with a warning past it); a file is
// read as every sysfs file is (kMaxSysfsFileSize).
inline constexpr std::size_t kMaxHwmonDevices = 1024;  // entries of class/hwmon
inline constexpr std::size_t kMaxHwmonFiles = 4096;    // files of one device

// A sensor kind perf knows: its file prefix, the number in config bits 16-23, what `perf list`
// and `perf stat` say of it.
struct HwmonSensorKind {
  std::string_view prefix;  // "temp"
  std::uint8_t code;        // 10
  std::string_view text;    // "Temperature"
  std::string_view unit;    // "'C"; empty for intrusion
  double scale;             // 0.001, or 1 for fan, pwm, intrusion
};
std::span<const HwmonSensorKind> hwmon_sensor_kinds();

// A sensor: its kind and number (perf keeps 16 bits of it; a file without one is 0xffff, -1).
struct HwmonEventKey {
  const HwmonSensorKind* kind;
  std::uint16_t number;
  // Its attr config: the kind's code << 16 | number (`temp1`: 0xa0001).
  std::uint64_t config() const { return std::uint64_t{kind->code} << 16 | number; }
  // Its event name, the number printed as perf prints it, signed (`temp1`; `temp-1`).
  std::string event_name() const;
};
// An event name's key as perf reads it: `<prefix><decimal>` and anything after the number
// (`temp1`, `temp1_input`, `temp01`: kind temp, number 1), the number taken modulo 2^16; nullopt
// for any other text (a label name, an upper-case prefix).
std::optional<HwmonEventKey> parse_hwmon_event_key(std::string_view name);
// The sensor an attr config encodes (0xa0001: temp1), or nullopt for one no sensor encodes to.
std::optional<HwmonEventKey> hwmon_event_key_of_config(std::uint64_t config);

// The hwmon PMUs of the tree whose PMU devices folder is `devices_dir`: class/hwmon of its sysfs
// root (`<root>/bus/event_source/devices` -> `<root>`, else the folder's parent). Only symlinks
// to directories inside that root are read, with a `name` file; each is a PMU named
// `hwmon_<name>` of type 0xffff0000 + N (N the number after the link name's fifth character),
// whose events are the sensors with an `_input` file (`temp1`, config = kind code << 16 |
// number), each also under its label's name (`temp_tctl`) where it has one. Sorted by name.
struct HwmonPmus {
  std::vector<Pmu> pmus;
  std::vector<std::string> links;  // each PMU's class/hwmon entry (`hwmon0`), same order
  std::vector<Diagnostic> diagnostics;
};
HwmonPmus read_hwmon_pmus(const std::filesystem::path& devices_dir);

// The hwmon PMUs `pmu_name` selects, as perf's parser does: the first one named exactly
// (`hwmon_k10temp`), else those whose link is `pmu_name` or it followed by digits (`hwmon1`:
// hwmon1, hwmon10, ...; `hwmon`: every hwmonN), else those a glob matches (`hwmon_*`).
std::vector<const Pmu*> select_hwmon_pmus(const HwmonPmus& hwmon, std::string_view pmu_name);

// Whether `name` could name a sensor (a key, or `<prefix>_<label>`): the names for which the
// tree's hwmon PMUs are worth reading.
bool may_name_hwmon_sensor(std::string_view name);

// What perf 7.3's `perf list -j` prints of a hwmon PMU's event (docs/hwmon.md §5), read now (the
// description holds the sensor's other item files' values): nullopt for a sensor's `temp1` name
// where it has a label, which perf lists as the alias of the label's entry.
struct HwmonListEntry {
  std::string event_name;   // `temp_tctl`, else `temp1`
  std::string event_alias;  // `temp1` beside a label's name, else empty
  std::string scale_unit;   // `0.001'C`; empty for intrusion
  std::string description;  // `Temperature in unit k10temp named Tctl. crit=100'C, max=70'C`
  std::string encoding;     // `hwmon_k10temp/config=0xa0001/`
};
std::optional<HwmonListEntry> hwmon_list_entry(const Pmu& pmu, const Event& event);

// The event of `pmu` (a hwmon PMU) a bare event name stands for: by its key (`temp1_input` is
// `temp1`), else a label name in any case; nullptr when it has none.
const Event* find_hwmon_event(const Pmu& pmu, std::string_view name);
// The sensor a term of `pmu/terms/` names, as perf's term check reads it: a key whatever the
// device has (`temp9` is temp9), else a label of `pmu`'s; nullopt for any other term.
std::optional<HwmonEventKey> hwmon_term_sensor(const Pmu& pmu, std::string_view term);

PMUCAT_END_NAMESPACE
