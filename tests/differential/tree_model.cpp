#include "tree_model.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <fstream>
#include <sstream>
#include <system_error>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace fs = std::filesystem;

namespace {

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::optional<std::string> read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream out;
  out << in.rdbuf();
  std::string text = out.str();
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << text << '\n';
}

bool parse_decimal(const std::string& text, std::size_t& pos, unsigned& value) {
  const std::size_t start = pos;
  value = 0;
  while (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
    value = value * 10 + static_cast<unsigned>(text[pos] - '0');
    if (value > 1000) return false;
    ++pos;
  }
  return pos > start;
}

// Suffixes perf treats as event metadata rather than events.
std::optional<std::string> metadata_base(const std::string& file_name, std::string& suffix) {
  for (const char* candidate : {".unit", ".scale", ".per-pkg", ".snapshot"}) {
    const std::string s = candidate;
    if (file_name.size() > s.size() && file_name.ends_with(s)) {
      suffix = s;
      return file_name.substr(0, file_name.size() - s.size());
    }
  }
  return std::nullopt;
}

std::vector<fs::path> sorted_entries(const fs::path& dir) {
  std::vector<fs::path> entries;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
    entries.push_back(it->path());
  }
  std::sort(entries.begin(), entries.end());
  return entries;
}

}  // namespace

unsigned FieldModel::width() const {
  return static_cast<unsigned>(std::popcount(mask));
}

std::uint64_t FieldModel::max_value() const {
  const unsigned bits = width();
  return bits >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << bits) - 1;
}

std::vector<std::string> EventModel::params() const {
  std::vector<std::string> names;
  for (const auto& term : terms) {
    if (term.value == "?") names.push_back(term.name);
  }
  return names;
}

std::optional<FieldModel> parse_field(const std::string& raw) {
  const std::string text = trim(raw);
  if (!text.starts_with("config")) return std::nullopt;
  std::size_t pos = 6;
  FieldModel field;
  field.text = text;
  if (pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])) != 0) {
    if (!parse_decimal(text, pos, field.word)) return std::nullopt;
  }
  if (pos >= text.size() || text[pos] != ':') return std::nullopt;
  ++pos;
  while (true) {
    unsigned first = 0;
    unsigned last = 0;
    if (!parse_decimal(text, pos, first)) return std::nullopt;
    last = first;
    if (pos < text.size() && text[pos] == '-') {
      ++pos;
      if (!parse_decimal(text, pos, last)) return std::nullopt;
    }
    if (first > last || last > 63) return std::nullopt;  // only plain, in-range lists
    for (unsigned bit = first; bit <= last; ++bit) field.mask |= std::uint64_t{1} << bit;
    if (pos == text.size()) break;
    if (text[pos] != ',') return std::nullopt;
    ++pos;
  }
  return field;
}

std::vector<EventTermModel> split_event_terms(const std::string& text) {
  std::vector<EventTermModel> terms;
  std::stringstream items(text);
  std::string item;
  while (std::getline(items, item, ',')) {
    item = trim(item);
    if (item.empty()) continue;
    const auto equals = item.find('=');
    if (equals == std::string::npos) {
      terms.push_back({item, ""});
    } else {
      terms.push_back({trim(item.substr(0, equals)), trim(item.substr(equals + 1))});
    }
  }
  return terms;
}

TreeModel read_tree(const fs::path& devices_dir) {
  TreeModel tree;
  for (const auto& pmu_dir : sorted_entries(devices_dir)) {
    std::error_code error;
    if (!fs::is_directory(pmu_dir, error)) continue;
    PmuModel pmu;
    pmu.name = pmu_dir.filename().string();
    pmu.type_text = read_text(pmu_dir / "type");
    pmu.cpumask = read_text(pmu_dir / "cpumask");
    for (const auto& file : sorted_entries(pmu_dir / "caps")) {
      if (auto text = read_text(file)) pmu.caps[file.filename().string()] = *text;
    }
    for (const auto& file : sorted_entries(pmu_dir / "format")) {
      if (auto text = read_text(file)) {
        if (auto field = parse_field(*text)) pmu.fields[file.filename().string()] = *field;
      }
    }
    std::vector<fs::path> metadata;
    for (const auto& file : sorted_entries(pmu_dir / "events")) {
      std::string suffix;
      if (metadata_base(file.filename().string(), suffix)) {
        metadata.push_back(file);
        continue;
      }
      if (auto text = read_text(file)) {
        EventModel event;
        event.text = *text;
        event.terms = split_event_terms(trim(*text));
        pmu.events[file.filename().string()] = event;
      }
    }
    for (const auto& file : metadata) {
      std::string suffix;
      const auto base = metadata_base(file.filename().string(), suffix);
      const auto found = pmu.events.find(*base);
      const auto text = read_text(file);
      if (found == pmu.events.end() || !text) continue;
      if (suffix == ".unit") found->second.unit = *text;
      if (suffix == ".scale") found->second.scale = *text;
    }
    tree.pmus.push_back(std::move(pmu));
  }
  return tree;
}

void write_tree(const TreeModel& tree, const fs::path& devices_dir) {
  fs::create_directories(devices_dir);
  for (const auto& pmu : tree.pmus) {
    const fs::path dir = devices_dir / pmu.name;
    fs::create_directories(dir);
    if (pmu.type_text) write_text(dir / "type", *pmu.type_text);
    if (pmu.cpumask) write_text(dir / "cpumask", *pmu.cpumask);
    for (const auto& [name, text] : pmu.caps) write_text(dir / "caps" / name, text);
    for (const auto& [name, field] : pmu.fields) write_text(dir / "format" / name, field.text);
    for (const auto& [name, event] : pmu.events) {
      write_text(dir / "events" / name, event.text);
      if (event.unit) write_text(dir / "events" / (name + ".unit"), *event.unit);
      if (event.scale) write_text(dir / "events" / (name + ".scale"), *event.scale);
    }
  }
}

fs::path devices_folder(const fs::path& dir) {
  std::error_code error;
  const fs::path nested = dir / "bus" / "event_source" / "devices";
  return fs::is_directory(nested, error) ? nested : dir;
}

}  // namespace differential
PMUCAT_END_NAMESPACE
