// perf 7.2+'s hwmon PMUs, read from a tree's class/hwmon (docs/hwmon.md: the rules, measured).
#include "pmucat/hwmon.h"

#include <fmt/core.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <map>
#include <system_error>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE

namespace fs = std::filesystem;

namespace {

// perf's sensor kinds: the prefix, config bits 16-23, the text `perf list` describes it with,
// the unit and scale perf stat prints its value in.
constexpr std::array kKinds = {
    HwmonSensorKind{"cpu", 1, "CPU core reference voltage", "V", 0.001},
    HwmonSensorKind{"curr", 2, "Current", "A", 0.001},
    HwmonSensorKind{"energy", 3, "Cumulative energy use", "J", 0.001},
    HwmonSensorKind{"fan", 4, "Fan", "rpm", 1},
    HwmonSensorKind{"humidity", 5, "Humidity", "%", 0.001},
    HwmonSensorKind{"in", 6, "Voltage", "V", 0.001},
    HwmonSensorKind{"intrusion", 7, "Chassis intrusion detection", "", 1},
    HwmonSensorKind{"power", 8, "Power use", "W", 0.001},
    HwmonSensorKind{"pwm", 9, "Pulse width modulation fan control", "Hz", 1},
    HwmonSensorKind{"temp", 10, "Temperature", "'C", 0.001},
};

// The item files perf knows (`temp1_<item>`, `temp1_<item>_alarm`), in the order it lists them
// in a description.
constexpr std::array<std::string_view, 43> kItems = {"accuracy",
                                                     "alarm",
                                                     "auto_channels_temp",
                                                     "average",
                                                     "average_highest",
                                                     "average_interval",
                                                     "average_interval_max",
                                                     "average_interval_min",
                                                     "average_lowest",
                                                     "average_max",
                                                     "average_min",
                                                     "beep",
                                                     "cap",
                                                     "cap_hyst",
                                                     "cap_max",
                                                     "cap_min",
                                                     "crit",
                                                     "crit_hyst",
                                                     "div",
                                                     "emergency",
                                                     "emergency_hist",
                                                     "enable",
                                                     "fault",
                                                     "freq",
                                                     "highest",
                                                     "input",
                                                     "label",
                                                     "lcrit",
                                                     "lcrit_hyst",
                                                     "lowest",
                                                     "max",
                                                     "max_hyst",
                                                     "min",
                                                     "min_hyst",
                                                     "mod",
                                                     "offset",
                                                     "pulses",
                                                     "rated_max",
                                                     "rated_min",
                                                     "reset_history",
                                                     "target",
                                                     "type",
                                                     "vid"};

// perf reads at most this much of a label (its buffer), and keeps names this long.
constexpr std::size_t kMaxLabelBytes = 127;
constexpr std::size_t kMaxPmuNameLength = 63;

const HwmonSensorKind* kind_of_prefix(std::string_view name, std::size_t& prefix_length) {
  const HwmonSensorKind* best = nullptr;
  for (const HwmonSensorKind& kind : kKinds) {
    if (!name.starts_with(kind.prefix)) continue;
    if (best == nullptr || kind.prefix.size() > best->prefix.size()) best = &kind;
  }
  if (best != nullptr) prefix_length = best->prefix.size();
  return best;
}

// The decimal number at the start of `text` (its digits consumed), modulo 2^16 as perf keeps it.
std::optional<std::uint16_t> leading_number(std::string_view& text) {
  std::size_t digits = 0;
  std::uint32_t value = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
    value = (value * 10 + static_cast<std::uint32_t>(text[digits] - '0')) & 0xffffU;
    ++digits;
  }
  if (digits == 0) return std::nullopt;
  text.remove_prefix(digits);
  return static_cast<std::uint16_t>(value);
}

// `<kind>[<decimal>]<rest>`: a name's sensor kind (its longest prefix), the number after it
// (modulo 2^16) where digits follow, and the rest.
struct SensorPrefix {
  const HwmonSensorKind* kind;
  std::optional<std::uint16_t> number;
  std::string_view rest;
};
std::optional<SensorPrefix> split_sensor(std::string_view name) {
  std::size_t prefix = 0;
  const HwmonSensorKind* kind = kind_of_prefix(name, prefix);
  if (kind == nullptr) return std::nullopt;
  std::string_view rest = name.substr(prefix);
  const std::optional<std::uint16_t> number = leading_number(rest);
  return SensorPrefix{kind, number, rest};
}

std::optional<std::size_t> item_index(std::string_view item) {
  const auto* found = std::find(kItems.begin(), kItems.end(), item);
  if (found == kItems.end()) return std::nullopt;
  return static_cast<std::size_t>(found - kItems.begin());
}

// perf's name mangling of a device name or label: ASCII lower case, blanks and separators `_`.
std::string mangled(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    if (c == ' ' || c == ':' || c == ',' || c == '/' || c == '\t' || c == '\n') c = '_';
  }
  return out;
}

// At most `limit` bytes of a regular file (not followed if a link); nullopt when unreadable.
std::optional<std::string> read_small(const fs::path& path, std::size_t limit) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0 || !S_ISREG(status.st_mode)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string text(limit, '\0');
  in.read(text.data(), static_cast<std::streamsize>(limit));
  text.resize(static_cast<std::size_t>(in.gcount()));
  return text;
}

std::string first_line(std::string_view text) {
  return std::string(text.substr(0, text.find('\n')));
}

// One sensor's files: its items (index into kItems, alarm or not) by path.
struct Sensor {
  const HwmonSensorKind* kind = nullptr;
  std::uint16_t number = 0;
  std::map<std::pair<std::size_t, bool>, fs::path> items;
};

// A file name perf takes as a sensor's item: `<kind><number>_<item>`, `<kind>_<item>` (no
// number: perf's -1) or `<kind><number>_<item>_alarm`.
struct ItemName {
  const HwmonSensorKind* kind;
  std::uint16_t number;  // 0xffff without one (perf's -1)
  std::size_t item;
  bool alarm;
};
std::optional<ItemName> parse_item_name(std::string_view name) {
  const std::optional<SensorPrefix> split = split_sensor(name);
  if (!split || !split->rest.starts_with('_')) return std::nullopt;
  const std::string_view rest = split->rest.substr(1);
  ItemName out{split->kind, split->number.value_or(0xffff), 0, false};
  if (auto item = item_index(rest)) {
    out.item = *item;
    return out;
  }
  if (rest.ends_with("_alarm")) {
    if (auto item = item_index(rest.substr(0, rest.size() - 6))) {
      out.item = *item;
      out.alarm = true;
      return out;
    }
  }
  return std::nullopt;
}

std::string sensor_name(const Sensor& sensor) {
  // perf prints the number as a signed 16-bit value (`temp40000_input` lists as `temp-25536`).
  return fmt::format("{}{}", sensor.kind->prefix, static_cast<std::int16_t>(sensor.number));
}

std::string scale_text(double scale) {
  return scale == 1 ? "1" : "0.001";
}

// `perf list`'s description: the kind, the device, the label (else the sensor's name), then the
// other items' values in the kind's unit, divided by 1000 whatever the kind (as perf does): the
// plain items, then the alarms, each run in kItems order.
std::string describe(const Sensor& sensor, std::string_view device, std::string_view label) {
  const HwmonSensorKind& kind = *sensor.kind;
  std::string text = fmt::format("{} in unit {} named {}.", kind.text, device,
                                 label.empty() ? sensor_name(sensor) : std::string(label));
  const std::size_t input = *item_index("input");
  const std::size_t label_item = *item_index("label");
  for (const bool alarm : {false, true}) {
    bool first = true;
    for (const auto& [key, path] : sensor.items) {
      if (key.second != alarm || key.first == input || key.first == label_item) continue;
      const std::string value = read_small(path, 64).value_or("");
      const double shown = static_cast<double>(std::strtoll(value.c_str(), nullptr, 10)) / 1000;
      text += first ? " " : ", ";
      first = false;
      text +=
          fmt::format("{}{}={:g}{}", kItems[key.first], alarm ? "_alarm" : "", shown, kind.unit);
    }
  }
  return text;
}

Event make_event(std::string name, const Sensor& sensor, const fs::path& input) {
  const std::uint64_t config = static_cast<std::uint64_t>(sensor.kind->code) << 16 | sensor.number;
  Event event;
  event.name = std::move(name);
  event.path = input.string();
  event.text = fmt::format("config={:#x}", config);
  auto terms = parse_terms(event.text, event.path, TermSyntax::event_file);
  if (terms) {
    event.terms = std::move(*terms);
  } else {
    event.error = std::move(terms).error();
  }
  event.metadata_loaded = true;
  if (!sensor.kind->unit.empty()) event.unit = std::string(sensor.kind->unit);
  event.scale = sensor.kind->scale;
  event.scale_text = scale_text(sensor.kind->scale);
  return event;
}

Diagnostic skipped(const fs::path& path, const std::string& why) {
  return make_file_diagnostic(Severity::warning, DiagId::hwmon_entry_skipped, path.string(), why);
}

// The sysfs root of a tree whose PMU devices folder is `devices_dir`.
fs::path sysfs_root_of(const fs::path& devices_dir) {
  const fs::path dir = devices_dir.lexically_normal();
  fs::path parts = dir;
  if (parts.filename().empty()) parts = parts.parent_path();
  if (parts.filename() == "devices" && parts.parent_path().filename() == "event_source" &&
      parts.parent_path().parent_path().filename() == "bus") {
    return parts.parent_path().parent_path().parent_path();
  }
  return parts.parent_path();
}

// The PMU of one class/hwmon entry, or why perf would not have one.
struct Device {
  std::string link;
  std::uint32_t type = 0;
  std::string name;
  fs::path dir;
};

std::optional<Device> device_of(const fs::directory_entry& entry, const fs::path& root,
                                std::vector<Diagnostic>& diagnostics) {
  const fs::path& path = entry.path();
  std::error_code error;
  if (!entry.is_symlink(error)) {
    diagnostics.push_back(skipped(path, "not a symlink: perf reads only the links of class/hwmon"));
    return std::nullopt;
  }
  // A link must stay inside the tree: a capture's links are never followed out of it.
  const fs::path target = fs::canonical(path, error);
  if (error || !fs::is_directory(target, error)) {
    diagnostics.push_back(skipped(path, "the link names no directory"));
    return std::nullopt;
  }
  const fs::path relative = target.lexically_relative(root);
  if (relative.empty() || *relative.begin() == "..") {
    diagnostics.push_back(skipped(path, "the link leaves the tree, and is not followed"));
    return std::nullopt;
  }
  Device device;
  device.link = path.filename().string();
  // perf reads the number after the link name's fifth character as strtoul does (none: 0) and
  // adds it to the first hwmon type in 32 bits; a type past the range is no hwmon PMU.
  std::uint64_t number = 0;
  for (std::size_t i = 5; i < device.link.size() && device.link[i] >= '0' && device.link[i] <= '9';
       ++i) {
    number = (number * 10 + static_cast<std::uint64_t>(device.link[i] - '0')) & 0xffffffffU;
  }
  const auto type = static_cast<std::uint32_t>(kHwmonFirstType + number);
  if (!is_hwmon_type(type)) {
    diagnostics.push_back(
        skipped(path, fmt::format("its number gives type {:#x}, outside the hwmon types "
                                  "0xffff0000-0xfffffffd (perf 7.3: \"Unable to encode hwmon "
                                  "type\", or not a hwmon PMU)",
                                  type)));
    return std::nullopt;
  }
  device.type = type;
  const auto name = read_small(target / "name", kMaxHwmonValueBytes);
  if (!name) {
    diagnostics.push_back(skipped(path, "no readable name file: perf skips the device"));
    return std::nullopt;
  }
  device.name = "hwmon_" + mangled(first_line(*name));
  if (device.name.size() > kMaxPmuNameLength) device.name.resize(kMaxPmuNameLength);
  device.dir = target;
  return device;
}

Pmu pmu_of(const Device& device, std::vector<Diagnostic>& diagnostics) {
  std::map<std::pair<std::uint8_t, std::uint16_t>, Sensor> sensors;
  std::error_code error;
  std::size_t files = 0;
  for (fs::directory_iterator it(device.dir, error), end; !error && it != end;
       it.increment(error)) {
    if (++files > kMaxHwmonFiles) {
      diagnostics.push_back(skipped(
          device.dir, fmt::format("more than {} files: the rest are not read", kMaxHwmonFiles)));
      break;
    }
    std::error_code status_error;
    // Regular files only: perf skips links and directories among them.
    if (!it->is_regular_file(status_error) || it->is_symlink(status_error)) continue;
    const auto item = parse_item_name(it->path().filename().string());
    if (!item) continue;
    Sensor& sensor = sensors[{item->kind->code, item->number}];
    sensor.kind = item->kind;
    sensor.number = item->number;
    sensor.items[{item->item, item->alarm}] = it->path();
  }
  PmuInfo info;
  info.name = device.name;
  info.attributes.type = device.type;
  info.attributes.type_text = std::to_string(device.type);
  const std::string unit_name = device.name.substr(6);
  const std::pair<std::size_t, bool> input{*item_index("input"), false};
  const std::pair<std::size_t, bool> label_key{*item_index("label"), false};
  for (const auto& [key, sensor] : sensors) {
    const auto found = sensor.items.find(input);
    if (found == sensor.items.end()) continue;  // no _input: perf removes the sensor
    std::string label;
    if (const auto label_file = sensor.items.find(label_key); label_file != sensor.items.end()) {
      label = read_small(label_file->second, kMaxLabelBytes).value_or("");
      while (!label.empty() && label.back() == '\n') label.pop_back();
    }
    Event event = make_event(sensor_name(sensor), sensor, found->second);
    if (const std::string alias_label = first_line(label); !alias_label.empty()) {
      std::string alias = fmt::format("{}_{}", sensor.kind->prefix, mangled(alias_label));
      if (alias.size() > kMaxLabelBytes) alias.resize(kMaxLabelBytes);
      Event named = make_event(std::move(alias), sensor, found->second);
      info.events.push_back(std::move(named));
    }
    info.events.push_back(std::move(event));
  }
  // Two sensors may share a label: the first (by kind and number) is the one found by it.
  std::stable_sort(info.events.begin(), info.events.end(),
                   [](const Event& a, const Event& b) { return a.name < b.name; });
  return Pmu::from_info(std::move(info));
}

}  // namespace

std::span<const HwmonSensorKind> hwmon_sensor_kinds() {
  return kKinds;
}

std::optional<HwmonEventKey> parse_hwmon_event_key(std::string_view name) {
  const std::optional<SensorPrefix> split = split_sensor(name);
  if (!split || !split->number) return std::nullopt;
  return HwmonEventKey{split->kind, *split->number};
}

HwmonPmus read_hwmon_pmus(const fs::path& devices_dir) {
  HwmonPmus out;
  if (devices_dir.empty()) return out;
  std::error_code error;
  const fs::path root = fs::canonical(sysfs_root_of(devices_dir), error);
  if (error) return out;
  const fs::path class_hwmon = root / "class" / "hwmon";
  if (!fs::is_directory(class_hwmon, error)) return out;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(class_hwmon, error), end; !error && it != end;
       it.increment(error)) {
    if (entries.size() == kMaxHwmonDevices) {
      out.diagnostics.push_back(
          skipped(class_hwmon,
                  fmt::format("more than {} entries: the rest are not read", kMaxHwmonDevices)));
      break;
    }
    entries.push_back(*it);
  }
  std::vector<Device> devices;
  for (const fs::directory_entry& entry : entries) {
    if (auto device = device_of(entry, root, out.diagnostics))
      devices.push_back(std::move(*device));
  }
  // perf lists its non-core PMUs by name.
  std::stable_sort(devices.begin(), devices.end(), [](const Device& a, const Device& b) {
    return a.name != b.name ? a.name < b.name : natural_less(a.link, b.link);
  });
  for (const Device& device : devices) {
    out.pmus.push_back(pmu_of(device, out.diagnostics));
    out.links.push_back(device.link);
  }
  return out;
}

std::vector<const Pmu*> select_hwmon_pmus(const HwmonPmus& hwmon, std::string_view pmu_name) {
  std::vector<const Pmu*> selected;
  for (const Pmu& pmu : hwmon.pmus) {
    if (pmu.name() == pmu_name) return {&pmu};
  }
  for (std::size_t i = 0; i < hwmon.pmus.size(); ++i) {
    const std::string_view link = hwmon.links[i];
    if (!link.starts_with(pmu_name)) continue;
    const std::string_view suffix = link.substr(pmu_name.size());
    if (std::all_of(suffix.begin(), suffix.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
        (pmu_name.size() > 5 || !suffix.empty())) {
      selected.push_back(&hwmon.pmus[i]);
    }
  }
  if (!selected.empty() || pmu_name.find_first_of("*?[") == std::string_view::npos) {
    return selected;
  }
  // A glob over their names (`hwmon_*`, `hwmon_k10*`).
  const std::string pattern(pmu_name);
  for (const Pmu& pmu : hwmon.pmus) {
    if (::fnmatch(pattern.c_str(), pmu.name().c_str(), 0) == 0) selected.push_back(&pmu);
  }
  return selected;
}

std::optional<HwmonListEntry> hwmon_list_entry(const Pmu& pmu, const Event& event) {
  const fs::path input(event.path);
  const auto own = parse_item_name(input.filename().string());
  if (!own || pmu.name().size() < 6) return std::nullopt;
  Sensor sensor;
  sensor.kind = own->kind;
  sensor.number = own->number;
  std::error_code error;
  std::size_t files = 0;
  for (fs::directory_iterator it(input.parent_path(), error), end;
       !error && it != end && ++files <= kMaxHwmonFiles; it.increment(error)) {
    std::error_code status_error;
    if (!it->is_regular_file(status_error) || it->is_symlink(status_error)) continue;
    const auto item = parse_item_name(it->path().filename().string());
    if (item && item->kind == sensor.kind && item->number == sensor.number) {
      sensor.items[{item->item, item->alarm}] = it->path();
    }
  }
  std::string label;
  if (const auto file = sensor.items.find({*item_index("label"), false});
      file != sensor.items.end()) {
    label = read_small(file->second, kMaxLabelBytes).value_or("");
    while (!label.empty() && label.back() == '\n') label.pop_back();
  }
  const std::string plain = sensor_name(sensor);
  const bool labelled = !first_line(label).empty();
  if (labelled && event.name == plain) return std::nullopt;
  // Two sensors of one label: perf lists the name once, for the first.
  for (const Event& other : pmu.events()) {
    if (&other == &event) break;
    if (other.name == event.name) return std::nullopt;
  }
  const std::uint64_t config = std::uint64_t{sensor.kind->code} << 16 | sensor.number;
  HwmonListEntry entry;
  entry.event_name = event.name;
  if (labelled) entry.event_alias = plain;
  if (!sensor.kind->unit.empty()) {
    entry.scale_unit = scale_text(sensor.kind->scale) + std::string(sensor.kind->unit);
  }
  entry.description = describe(sensor, std::string_view(pmu.name()).substr(6), label);
  entry.encoding = fmt::format("{}/config={:#x}/", pmu.name(), config);
  return entry;
}

bool may_name_hwmon_sensor(std::string_view name) {
  std::size_t prefix = 0;
  if (kind_of_prefix(name, prefix) == nullptr || name.size() <= prefix) return false;
  if (name[prefix] >= '0' && name[prefix] <= '9') return true;
  return name[prefix] == '_' && name.size() > prefix + 1;
}

const Event* find_hwmon_event(const Pmu& pmu, std::string_view name) {
  if (const auto key = parse_hwmon_event_key(name)) {
    const std::string canonical =
        fmt::format("{}{}", key->kind->prefix, static_cast<std::int16_t>(key->number));
    return pmu.find_event(canonical);
  }
  // A label's name (`temp_tctl`), in any case; the kind's prefix as written.
  std::size_t prefix = 0;
  if (kind_of_prefix(name, prefix) == nullptr || name.size() <= prefix + 1 || name[prefix] != '_') {
    return nullptr;
  }
  return pmu.find_event(name);
}

PMUCAT_END_NAMESPACE
