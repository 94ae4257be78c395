// perf 7.2+'s hwmon PMUs, read from a tree's class/hwmon (docs/hwmon.md: the rules, measured).
#include "pmucat/hwmon.h"

#include <dirent.h>
#include <fcntl.h>
#include <fmt/core.h>
#include <fnmatch.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <map>
#include <system_error>

#include "catalog/sysfs_file.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/sysfs_root.h"
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

// One sensor's item files (index into kItems, alarm or not) by file name.
struct Sensor {
  HwmonEventKey key{};
  std::map<std::pair<std::size_t, bool>, std::string> items;
};
using Sensors = std::map<std::pair<std::uint8_t, std::uint16_t>, Sensor>;

// A file name perf takes as a sensor's item: `<kind><number>_<item>`, `<kind>_<item>` (no
// number: perf's -1) or `<kind><number>_<item>_alarm`.
struct ItemName {
  HwmonEventKey key;
  std::size_t item;
  bool alarm;
};
std::optional<ItemName> parse_item_name(std::string_view name) {
  const std::optional<SensorPrefix> split = split_sensor(name);
  if (!split || !split->rest.starts_with('_')) return std::nullopt;
  const std::string_view rest = split->rest.substr(1);
  const HwmonEventKey key{split->kind, split->number.value_or(0xffff)};
  if (auto item = item_index(rest)) return ItemName{key, *item, false};
  if (rest.ends_with("_alarm")) {
    if (auto item = item_index(rest.substr(0, rest.size() - 6))) return ItemName{key, *item, true};
  }
  return std::nullopt;
}

const std::pair<std::size_t, bool> kInputItem{*item_index("input"), false};
const std::pair<std::size_t, bool> kLabelItem{*item_index("label"), false};

// Whether a listed entry is a regular file, as perf requires of an item (links and directories
// among them are skipped).
bool is_regular(int dir_fd, const detail::DirEntry& entry) {
  if (entry.type != DT_UNKNOWN) return entry.type == DT_REG;
  struct stat status {};
  return ::fstatat(dir_fd, entry.name.c_str(), &status, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISREG(status.st_mode);
}

// The sensors of an open device directory, read as perf does; false when it holds more than
// kMaxHwmonFiles entries (those past it are not read).
bool collect_sensors(detail::Directory& directory, Sensors& sensors) {
  constexpr std::size_t kScanBatchBytes = 8192;
  std::size_t seen = 0;
  bool complete = true;
  directory.scan(kScanBatchBytes, [&](const detail::DirEntry& entry) {
    if (++seen > kMaxHwmonFiles) {
      complete = false;
      return false;
    }
    if (!is_regular(directory.fd(), entry)) return true;
    if (const auto item = parse_item_name(entry.name)) {
      Sensor& sensor = sensors[{item->key.kind->code, item->key.number}];
      sensor.key = item->key;
      sensor.items[{item->item, item->alarm}] = entry.name;
    }
    return true;
  });
  return complete;
}

// An item file's text ("" when it cannot be read, as a description shows it).
std::string read_item(const detail::Directory& directory, const fs::path& dir,
                      const std::string& name) {
  auto text = detail::read_sysfs_file(directory.fd(), name, (dir / name).string(), DT_REG);
  return text ? std::move(*text) : std::string();
}

// A sensor's label as perf reads it: at most its buffer's bytes, trailing newlines removed.
std::string label_of(const detail::Directory& directory, const fs::path& dir,
                     const Sensor& sensor) {
  const auto file = sensor.items.find(kLabelItem);
  if (file == sensor.items.end()) return {};
  std::string label = read_item(directory, dir, file->second);
  if (label.size() > kMaxLabelBytes) label.resize(kMaxLabelBytes);
  while (!label.empty() && label.back() == '\n') label.pop_back();
  return label;
}

std::string scale_text(double scale) {
  return scale == 1 ? "1" : "0.001";
}

// `perf list`'s description: the kind, the device, the label (else the sensor's name), then the
// other items' values in the kind's unit, divided by 1000 whatever the kind (as perf does): the
// plain items, then the alarms, each run in kItems order.
std::string describe(const detail::Directory& directory, const fs::path& dir, const Sensor& sensor,
                     std::string_view device, std::string_view label) {
  const HwmonSensorKind& kind = *sensor.key.kind;
  std::string text = fmt::format("{} in unit {} named {}.", kind.text, device,
                                 label.empty() ? sensor.key.event_name() : std::string(label));
  for (const bool alarm : {false, true}) {
    bool first = true;
    for (const auto& [item, name] : sensor.items) {
      if (item.second != alarm || item == kInputItem || item == kLabelItem) continue;
      const std::string value = read_item(directory, dir, name);
      const double shown = static_cast<double>(std::strtoll(value.c_str(), nullptr, 10)) / 1000;
      text += first ? " " : ", ";
      first = false;
      text +=
          fmt::format("{}{}={:g}{}", kItems[item.first], alarm ? "_alarm" : "", shown, kind.unit);
    }
  }
  return text;
}

Event make_event(std::string name, const Sensor& sensor, const fs::path& input) {
  Event event;
  event.name = std::move(name);
  event.path = input.string();
  event.text = fmt::format("config={:#x}", sensor.key.config());
  auto terms = parse_terms(event.text, event.path, TermSyntax::event_file);
  if (terms) {
    event.terms = std::move(*terms);
  } else {
    event.error = std::move(terms).error();
  }
  event.metadata_loaded = true;
  const HwmonSensorKind& kind = *sensor.key.kind;
  if (!kind.unit.empty()) event.unit = std::string(kind.unit);
  event.scale = kind.scale;
  event.scale_text = scale_text(kind.scale);
  return event;
}

Diagnostic skipped(const fs::path& path, const std::string& why) {
  return make_file_diagnostic(Severity::warning, DiagId::hwmon_entry_skipped, path.string(), why);
}

// The sysfs root of a tree whose PMU devices folder is `devices_dir`: the root above
// bus/event_source/devices, else the folder's parent.
fs::path hwmon_tree_root(const fs::path& devices_dir) {
  if (auto root = sysfs_root_above(devices_dir)) return *root;
  fs::path dir = devices_dir.lexically_normal();
  if (dir.filename().empty()) dir = dir.parent_path();
  return dir.parent_path();
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
  auto name =
      detail::read_sysfs_file(AT_FDCWD, (target / "name").string(), (path / "name").string());
  if (!name) {
    diagnostics.push_back(skipped(path, "no readable name file, so perf skips the device: " +
                                            name.error().diagnostic.message));
    return std::nullopt;
  }
  device.name = "hwmon_" + mangled(detail::first_line(*name));
  if (device.name.size() > kMaxPmuNameLength) device.name.resize(kMaxPmuNameLength);
  device.dir = target;
  return device;
}

Pmu pmu_of(const Device& device, std::vector<Diagnostic>& diagnostics) {
  PmuInfo info;
  info.name = device.name;
  info.attributes.type = device.type;
  info.attributes.type_text = std::to_string(device.type);
  auto directory = detail::Directory::open(AT_FDCWD, device.dir.string(), device.dir.string());
  if (!directory) {
    diagnostics.push_back(std::move(directory.error().diagnostic));
    return Pmu::from_info(std::move(info));
  }
  Sensors sensors;
  if (!collect_sensors(*directory, sensors)) {
    diagnostics.push_back(skipped(
        device.dir, fmt::format("more than {} files: the rest are not read", kMaxHwmonFiles)));
  }
  for (const auto& [key, sensor] : sensors) {
    const auto input = sensor.items.find(kInputItem);
    if (input == sensor.items.end()) continue;  // no _input: perf removes the sensor
    const fs::path input_path = device.dir / input->second;
    const std::string label(detail::first_line(label_of(*directory, device.dir, sensor)));
    if (!label.empty()) {
      std::string alias = fmt::format("{}_{}", sensor.key.kind->prefix, mangled(label));
      if (alias.size() > kMaxLabelBytes) alias.resize(kMaxLabelBytes);
      info.events.push_back(make_event(std::move(alias), sensor, input_path));
    }
    info.events.push_back(make_event(sensor.key.event_name(), sensor, input_path));
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

std::string HwmonEventKey::event_name() const {
  // perf prints the number as a signed 16-bit value (`temp40000_input` lists as `temp-25536`).
  return fmt::format("{}{}", kind->prefix, static_cast<std::int16_t>(number));
}

std::optional<HwmonEventKey> parse_hwmon_event_key(std::string_view name) {
  const std::optional<SensorPrefix> split = split_sensor(name);
  if (!split || !split->number) return std::nullopt;
  return HwmonEventKey{split->kind, *split->number};
}

std::optional<HwmonEventKey> hwmon_event_key_of_config(std::uint64_t config) {
  if (config > 0xffffffU) return std::nullopt;
  for (const HwmonSensorKind& kind : kKinds) {
    if (kind.code == config >> 16) {
      return HwmonEventKey{&kind, static_cast<std::uint16_t>(config & 0xffffU)};
    }
  }
  return std::nullopt;
}

HwmonPmus read_hwmon_pmus(const fs::path& devices_dir) {
  HwmonPmus out;
  if (devices_dir.empty()) return out;
  std::error_code error;
  const fs::path root = fs::canonical(hwmon_tree_root(devices_dir), error);
  if (error) return out;
  const fs::path class_hwmon = root / "class" / "hwmon";
  if (!fs::is_directory(class_hwmon, error)) return out;
  std::vector<Device> devices;
  std::size_t entries = 0;
  for (fs::directory_iterator it(class_hwmon, error), end; !error && it != end;
       it.increment(error)) {
    if (++entries > kMaxHwmonDevices) {
      out.diagnostics.push_back(
          skipped(class_hwmon,
                  fmt::format("more than {} entries: the rest are not read", kMaxHwmonDevices)));
      break;
    }
    if (auto device = device_of(*it, root, out.diagnostics)) devices.push_back(std::move(*device));
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
  // The sensor is the one whose `_input` file the event reads; its directory is read again for
  // the other items, whose values the description shows as they are now.
  const fs::path input(event.path);
  const auto own = parse_item_name(input.filename().string());
  if (!own || pmu.name().size() < 6) return std::nullopt;
  // Two sensors of one label: perf lists the name once, for the first.
  if (const Event* first = pmu.find_event(event.name); first && first->path != event.path) {
    return std::nullopt;
  }
  const fs::path dir = input.parent_path();
  auto directory = detail::Directory::open(AT_FDCWD, dir.string(), dir.string());
  if (!directory) return std::nullopt;
  Sensors sensors;
  collect_sensors(*directory, sensors);
  const auto found = sensors.find({own->key.kind->code, own->key.number});
  if (found == sensors.end()) return std::nullopt;
  const Sensor& sensor = found->second;
  const std::string label = label_of(*directory, dir, sensor);
  const std::string plain = sensor.key.event_name();
  const bool labelled = !detail::first_line(label).empty();
  if (labelled && event.name == plain) return std::nullopt;
  HwmonListEntry entry;
  entry.event_name = event.name;
  if (labelled) entry.event_alias = plain;
  const HwmonSensorKind& kind = *sensor.key.kind;
  if (!kind.unit.empty()) entry.scale_unit = scale_text(kind.scale) + std::string(kind.unit);
  entry.description =
      describe(*directory, dir, sensor, std::string_view(pmu.name()).substr(6), label);
  entry.encoding = fmt::format("{}/config={:#x}/", pmu.name(), sensor.key.config());
  return entry;
}

// A label's name: the kind's prefix as written, `_`, something after it.
bool is_label_name(std::string_view name) {
  const std::optional<SensorPrefix> split = split_sensor(name);
  return split && !split->number && split->rest.size() > 1 && split->rest.front() == '_';
}

bool may_name_hwmon_sensor(std::string_view name) {
  return parse_hwmon_event_key(name).has_value() || is_label_name(name);
}

const Event* find_hwmon_event(const Pmu& pmu, std::string_view name) {
  if (const auto key = parse_hwmon_event_key(name)) return pmu.find_event(key->event_name());
  return is_label_name(name) ? pmu.find_event(name) : nullptr;
}

std::optional<HwmonEventKey> hwmon_term_sensor(const Pmu& pmu, std::string_view term) {
  if (auto key = parse_hwmon_event_key(term)) return key;
  if (!is_label_name(term)) return std::nullopt;
  const Event* labelled = pmu.find_event(term);
  if (labelled == nullptr) return std::nullopt;
  const auto item = parse_item_name(fs::path(labelled->path).filename().string());
  return item ? std::optional<HwmonEventKey>(item->key) : std::nullopt;
}

PMUCAT_END_NAMESPACE
