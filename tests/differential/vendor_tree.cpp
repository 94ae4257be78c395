#include "vendor_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "diff_env.h"
#include "pmucat/version.h"

#ifndef PMUCAT_EVENTS_DIR_BUILD
#define PMUCAT_EVENTS_DIR_BUILD ""
#endif
#ifndef PMUCAT_EVENTS_JSON_DIR
#define PMUCAT_EVENTS_JSON_DIR ""
#endif
#ifndef PMUCAT_EVENTS_DIR_BUILD_6_1
#define PMUCAT_EVENTS_DIR_BUILD_6_1 ""
#endif
#ifndef PMUCAT_EVENTS_JSON_DIR_6_1
#define PMUCAT_EVENTS_JSON_DIR_6_1 ""
#endif
#ifndef PMUCAT_EVENTS_VERSION
#define PMUCAT_EVENTS_VERSION ""
#endif

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace fs = std::filesystem;

namespace {

// The build's table set of the oracle's perf (cmake/PmucatEvents.cmake): 6.1's for perf 6.1,
// the default set when it is the oracle's release, else 6.12's for perf 6.12; empty when the
// build has no such set.
fs::path built_tables(std::string_view newest, std::string_view for_6_12,
                      std::string_view for_6_1) {
  if (oracle_perf_version() == PerfRelease::v6_1) return fs::path(for_6_1);
  if (parse_perf_release(PMUCAT_EVENTS_VERSION) == oracle_perf_version()) return fs::path(newest);
  if (oracle_perf_version() == PerfRelease::v6_12) return fs::path(for_6_12);
  return {};
}

}  // namespace

fs::path events_dir() {
  if (const char* dir = std::getenv("PMUCAT_EVENTS_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  return built_tables(PMUCAT_EVENTS_JSON_DIR, PMUCAT_EVENTS_JSON_DIR_OF_6_12,
                      PMUCAT_EVENTS_JSON_DIR_6_1);
}

fs::path catalog_events_dir() {
  if (const char* dir = std::getenv("PMUCAT_EVENTS_DIR"); dir != nullptr && *dir != '\0') {
    return dir;
  }
  const fs::path index = built_tables(PMUCAT_EVENTS_DIR_BUILD, PMUCAT_EVENTS_DIR_BUILD_OF_6_12,
                                      PMUCAT_EVENTS_DIR_BUILD_6_1);
  return index.empty() ? events_dir() : index;
}

namespace {

// A term's bits: the layout the kernel uses, and the wider one it uses where values need more
// (Intel uncore event_ext / umask_ext5, AMD's 12-bit event), both as format file text.
struct Layout {
  std::string_view term;
  std::string_view bits;
  std::string_view wide_bits;  // empty: none known
};

// Intel core `cpu` (arch/x86/events/intel/core.c), AMD core (amd/core.c).
constexpr std::array<Layout, 12> kIntelCore{{
    {"event", "config:0-7", ""},
    {"umask", "config:8-15", ""},
    {"edge", "config:18", ""},
    {"pc", "config:19", ""},
    {"any", "config:21", ""},
    {"inv", "config:23", ""},
    {"cmask", "config:24-31", ""},
    {"in_tx", "config:32", ""},
    {"in_tx_cp", "config:33", ""},
    {"ldlat", "config1:0-15", ""},
    {"offcore_rsp", "config1:0-63", ""},
    {"frontend", "config1:0-23", ""},
}};
// The formats every Intel core PMU has, used or not.
constexpr std::array<std::string_view, 6> kIntelCoreAlways{"event", "umask", "edge",
                                                           "pc",    "inv",   "cmask"};
constexpr std::array<Layout, 5> kAmdCore{{
    {"event", "config:0-7,32-35", ""},
    {"umask", "config:8-15", ""},
    {"edge", "config:18", ""},
    {"inv", "config:23", ""},
    {"cmask", "config:24-31", ""},
}};
// Intel uncore building blocks (uncore_snbep.c and the client uncore): thresh8 is the server
// name of the counter mask, `cmask` the client cbox's; ch_mask/fc_mask are the IIO port and
// function masks (SKX 8/3 bits, ICX+ 12/3 bits higher up).
constexpr std::array<Layout, 11> kIntelUncore{{
    {"event", "config:0-7", "config:0-7,21"},
    {"umask", "config:8-15", "config:8-15,32-63"},
    {"edge", "config:18", ""},
    {"inv", "config:23", ""},
    {"thresh", "config:24-31", ""},
    {"cmask", "config:24-28", "config:24-31"},
    {"ch_mask", "config:36-43", "config:36-47"},
    {"filter_state", "config1:18-22", "config1:17-26"},
    {"filter_opc", "config1:23-31", "config1:52-60"},
    {"filter_tid", "config1:0-5", "config1:0-9"},
    {"filter_nc", "config1:62", ""},
}};
constexpr std::array<std::string_view, 5> kIntelUncoreAlways{"event", "umask", "edge", "inv",
                                                             "thresh"};
constexpr std::array<Layout, 2> kAmdL3{{
    {"event", "config:0-7", ""},
    {"umask", "config:8-15", ""},
}};
constexpr std::array<Layout, 2> kAmdDf{{
    {"event", "config:0-7,32-35,59-60", ""},
    {"umask", "config:8-15", ""},
}};

// Terms perf handles itself, with no format file.
bool is_builtin_term(const std::string& name) {
  return name == "config" || name == "config1" || name == "config2" || name == "period" ||
         name == "name";
}

std::uint64_t value_of(const std::string& text) {
  if (text.empty()) return 1;  // a bare term is =1
  try {
    return std::stoull(text, nullptr, 0);
  } catch (const std::exception&) {
    return UINT64_MAX;  // needs every bit: the test then places it on free bits or fails loudly
  }
}

// Bits a value needs (at least one: a flag).
unsigned bits_needed(std::uint64_t value) {
  return std::max(1U, static_cast<unsigned>(std::bit_width(value)));
}

unsigned width_of(const std::string& bits) {
  const auto field = parse_field(bits);
  return field ? field->width() : 0;
}

struct PmuPlan {
  std::map<std::string, std::uint64_t> max_value;  // term -> largest value used
};

template <std::size_t N>
const Layout* find_layout(const std::array<Layout, N>& table, const std::string& term) {
  const auto it = std::find_if(table.begin(), table.end(),
                               [&](const Layout& layout) { return layout.term == term; });
  return it == table.end() ? nullptr : &*it;
}

// Picks bits for every term of one PMU.
class FormatPlanner {
 public:
  FormatPlanner(const std::string& pmu, CpuVendor vendor) : pmu_(pmu), vendor_(vendor) {}

  void place(const std::string& term, std::uint64_t max_value, VendorTree& out, PmuModel& model) {
    const unsigned needed = bits_needed(max_value);
    std::string bits;
    if (const Layout* layout = layout_for(term)) {
      if (width_of(std::string(layout->bits)) >= needed) {
        bits = layout->bits;
      } else if (!layout->wide_bits.empty() && width_of(std::string(layout->wide_bits)) >= needed) {
        bits = layout->wide_bits;
      }
    }
    if (bits.empty()) {
      // No kernel fact: free bits of config2, which no layout above uses.
      bits = needed >= 64 ? "config2:0-63"
                          : fmt::format("config2:{}-{}", next_free_, next_free_ + needed - 1);
      next_free_ += needed;
      out.invented.push_back(pmu_ + "/" + term);
    }
    if (term == "ch_mask" && bits.find("36-47") != std::string::npos) wide_ch_mask_ = true;
    auto field = parse_field(bits);
    if (field) model.fields[term] = *field;
  }

  // Called after ch_mask: fc_mask sits above the wider port mask on ICX+ (config:48-50).
  std::string fc_mask_bits() const { return wide_ch_mask_ ? "config:48-50" : "config:44-46"; }

 private:
  const Layout* layout_for(const std::string& term) const {
    if (is_core_pmu(pmu_)) {
      return vendor_ == CpuVendor::amd ? find_layout(kAmdCore, term)
                                       : find_layout(kIntelCore, term);
    }
    if (pmu_ == "amd_l3") return find_layout(kAmdL3, term);
    if (pmu_ == "amd_df") return find_layout(kAmdDf, term);
    return find_layout(kIntelUncore, term);
  }

  std::string pmu_;
  CpuVendor vendor_;
  unsigned next_free_ = 0;
  bool wide_ch_mask_ = false;
};

void write_text(const fs::path& path, const std::string& text) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text << '\n';
}

}  // namespace

std::vector<std::pair<std::string, std::string>> split_terms(const std::string& terms) {
  std::vector<std::pair<std::string, std::string>> result;
  for (const auto& term : split_event_terms(terms)) result.emplace_back(term.name, term.value);
  return result;
}

std::optional<std::string> x86_cpuid_for_row(const Mapfile& mapfile, const MapfileRow& row) {
  const auto first = row.cpuid.find('-');
  const auto second = first == std::string::npos ? first : row.cpuid.find('-', first + 1);
  if (second == std::string::npos) return std::nullopt;
  const std::string vendor_family = row.cpuid.substr(0, second);
  // Cheap test of this row first (one regcomp); the whole mapfile only for candidates.
  for (unsigned stepping = 0; stepping < 16; ++stepping) {
    for (unsigned model = 0; model < 256; ++model) {
      const std::string cpuid = fmt::format("{}-{:X}-{:X}", vendor_family, model, stepping);
      if (!cpuid_matches(row.cpuid, cpuid, CpuidRules::x86)) continue;
      if (find_mapfile_row(mapfile, cpuid) == &row) return cpuid;
    }
  }
  return std::nullopt;
}

CpuVendor vendor_of_cpuid(const std::string& cpuid) {
  return cpuid.starts_with("AuthenticAMD") || cpuid.starts_with("HygonGenuine") ? CpuVendor::amd
                                                                                : CpuVendor::intel;
}

bool is_core_pmu(const std::string& pmu) {
  return pmu.empty() || pmu == "cpu" || pmu == "cpu_core" || pmu == "cpu_atom";
}

std::string core_pmu_for(const std::string& pmu) {
  return pmu.empty() ? "cpu" : pmu;
}

std::vector<std::string> instance_names(const std::string& pmu) {
  // Units a socket has once (and the kernel names without a suffix).
  static constexpr std::array<std::string_view, 7> kSingle{
      "uncore_pcu",    "uncore_ubox", "uncore_arb", "uncore_clock",
      "uncore_r2pcie", "amd_l3",      "amd_df"};
  if (is_core_pmu(pmu)) return {core_pmu_for(pmu)};
  if (std::find(kSingle.begin(), kSingle.end(), pmu) != kSingle.end()) return {pmu};
  return {pmu + "_0", pmu + "_1"};
}

VendorTree make_vendor_tree(const std::vector<VendorEvent>& events, CpuVendor vendor) {
  std::map<std::string, PmuPlan> plans;  // mapped PMU name -> terms used
  plans["cpu"];  // x86 always has its core PMU (dropped below for hybrid models)
  for (const auto& event : events) {
    PmuPlan& plan = plans[core_pmu_for(event.pmu)];
    for (const auto& [name, value] : split_terms(event.terms)) {
      if (is_builtin_term(name)) continue;
      auto& max = plan.max_value[name];
      max = std::max(max, value_of(value));
    }
  }
  // A hybrid model's events all name cpu_core/cpu_atom: then there is no `cpu` PMU.
  if (plans.contains("cpu_core") || plans.contains("cpu_atom")) {
    if (plans["cpu"].max_value.empty()) plans.erase("cpu");
  }

  VendorTree out;
  std::uint32_t next_type = 10020;
  for (auto& [pmu, plan] : plans) {
    const bool core = is_core_pmu(pmu);
    if (core && vendor == CpuVendor::intel) {
      for (auto term : kIntelCoreAlways) plan.max_value.try_emplace(std::string(term), 0);
    } else if (core) {
      for (const auto& layout : kAmdCore) plan.max_value.try_emplace(std::string(layout.term), 0);
    } else if (!pmu.starts_with("amd_")) {
      for (auto term : kIntelUncoreAlways) plan.max_value.try_emplace(std::string(term), 0);
    }
    PmuModel model;
    FormatPlanner planner(pmu, vendor);
    // ch_mask before fc_mask, whose bits depend on it.
    std::vector<std::string> terms;
    for (const auto& [term, max] : plan.max_value) {
      if (term != "fc_mask") terms.push_back(term);
    }
    for (const auto& term : terms) planner.place(term, plan.max_value[term], out, model);
    if (plan.max_value.contains("fc_mask")) {
      const std::string bits = core ? std::string() : planner.fc_mask_bits();
      const unsigned needed = bits_needed(plan.max_value["fc_mask"]);
      if (!bits.empty() && width_of(bits) >= needed) {
        model.fields["fc_mask"] = *parse_field(bits);
      } else {
        planner.place("fc_mask", plan.max_value["fc_mask"], out, model);
      }
    }
    for (const auto& name : instance_names(pmu)) {
      PmuModel instance = model;
      instance.name = name;
      if (pmu == "cpu" || pmu == "cpu_core") {
        instance.type_text = "4";
      } else {
        instance.type_text = std::to_string(next_type++);
      }
      if (pmu == "cpu_core" || pmu == "cpu_atom") {
        out.hybrid.insert(name);
      } else if (!core) {
        instance.cpumask = "0";
      }
      out.tree.pmus.push_back(std::move(instance));
    }
  }
  std::sort(out.tree.pmus.begin(), out.tree.pmus.end(),
            [](const PmuModel& a, const PmuModel& b) { return a.name < b.name; });
  return out;
}

void write_vendor_tree(const VendorTree& tree, const fs::path& devices_dir) {
  write_tree(tree.tree, devices_dir);
  // cpu_core on CPU 0, cpu_atom on CPU 1 (perf reads the file; nothing runs there).
  for (const auto& name : tree.hybrid) {
    write_text(devices_dir / name / "cpus", name == "cpu_atom" ? "1" : "0");
  }
}

std::optional<Mapfile> read_x86_mapfile() {
  const std::filesystem::path path = events_dir() / "x86" / "mapfile.csv";
  std::ifstream in(path, std::ios::binary);
  if (events_dir().empty() || !in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_mapfile(text.str(), path.string(), "x86");
}

std::vector<std::string> model_directories() {
  std::vector<std::string> directories;
  if (const auto mapfile = read_x86_mapfile()) {
    for (const auto& row : mapfile->rows) {
      if (std::find(directories.begin(), directories.end(), row.directory) == directories.end()) {
        directories.push_back(row.directory);
      }
    }
  }
  if (directories.empty()) directories.push_back("no_events_dir");
  return directories;
}

}  // namespace differential
PMUCAT_END_NAMESPACE
