// Internal unit test of pmuls' listing code (cli/pmuls: catalog_json, event_listing), checked
// against perf 6.12's `perf list` (and perf 6.1's text listing): for x86 models of the events
// dir's mapfile (a tree made for the model's events, bind-mounted over
// /sys/bus/event_source/devices, PERF_CPUID naming the model) and for the vendor fixture trees with
// their own models, every PMU and JSON event `perf list -j pmu` prints against the listing pmuls
// builds from the same catalog (pmu_to_json(), which `pmuls --json` prints, with --deprecated:
// perf's JSON lists deprecated events and marks them): the set of (Unit, EventName) pairs and, for
// each, every field perf prints (Encoding, Topic, descriptions, ScaleUnit, Deprecated, EventAlias,
// EventType). Then the text listing: every bracketed description of `perf list pmu` (deprecated
// events hidden) against those of pmuls' text listing (render_pmu_events, as `pmuls --pmu P` prints
// it).
//
// Normalisations, all presentation (docs/testing.md, "Listings"):
//  * pmuls lists per PMU, every uncore instance (docs/perf-compat.md, "Listing"); perf lists a
//    JSON event with a description once under its Unit (perf_list_unit(): `uncore_cha` for
//    uncore_cha_0..3), and its Encoding names that unit. pmuls' Unit is perf's; its Encoding
//    names the instance, which is renamed to the Unit; every instance must give the same entry.
//  * A field perf leaves out equals pmuls' empty string (pmuls writes Topic always).
//  * Text descriptions are compared unwrapped: perf runs with COLUMNS=100000, pmuls with no
//    wrapping (both print runs of blanks as one).
//
// Against perf 7.3 (PMUCAT_DIFF_PERF_VERSION=7.3, the `.perf7.3` tests) pmuls' listing takes
// `--perf-semantics=7.3`'s fields (list_json_fields: the terms as the tables hold them, no public
// text that repeats the brief one, no core sysfs event named as a legacy one) and leaves out
// deprecated events, as perf 7.3's `perf list -j` does; perf 7.3 also lists its tool PMU's events
// (Unit `tool`), which pmuls lists as built-in events (`--kind tool`): counted as documented, and
// their text entries are not compared.
//
// CI: a seeded sample of models (PMUCAT_LISTING_DIFF_COUNT, default 6; PMUCAT_DIFF_SEED) and the
// three fixture trees; PMUCAT_LISTING_DIFF_ALL=1: every model. perf 6.1 has no `perf list -j`:
// against it (the default; PMUCAT_DIFF_PERF_VERSION=6.12 and the `.perf6.12` tests take 6.12) only
// the text listing is compared, with linux 6.1's tables and rules. Skipped without root, perf or
// an events dir.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "common/diagnostics.h"
#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/vendor_events.h"
#include "pmuls/catalog_json.h"
#include "pmuls/event_filter.h"
#include "pmuls/event_listing.h"
#include "support/command.h"
#include "support/scratch_dir.h"
#include "vendor_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {
namespace fs = std::filesystem;

bool all_models() {
  return full_run("PMUCAT_LISTING_DIFF_ALL");
}

using testing::shell_quote;

// `perf list ARGS` with the tree over /sys/bus/event_source/devices: its standard output.
std::string run_perf_list(const fs::path& devices, const std::string& cpuid,
                          const std::string& perf, const std::string& args) {
  const std::string command = fmt::format(
      "cd /tmp && COLUMNS=100000 PERF_CONFIG=/dev/null PERF_CPUID={} timeout 120 unshare -m sh -c "
      "{} "
      "{} {} list {} 2>/dev/null",
      shell_quote(cpuid),
      shell_quote("mount --bind \"$0\" /sys/bus/event_source/devices || exit 99; exec \"$@\""),
      shell_quote(devices.string()), shell_quote(perf), args);
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return output;
  std::array<char, 65536> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    output.append(buffer.data(), n);
  ::pclose(pipe);
  return output;
}

// The fields of perf list -j's object for a PMU or JSON event.
constexpr std::array<const char*, 10> kPerfFields = {
    "Unit",      "Topic",      "EventName",        "EventAlias",        "ScaleUnit",
    "EventType", "Deprecated", "BriefDescription", "PublicDescription", "Encoding"};

using Key = std::pair<std::string, std::string>;  // (Unit, EventName)
using Listing = std::map<Key, nlohmann::json>;

std::string field(const nlohmann::json& object, const char* name) {
  const auto it = object.find(name);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// perf's objects of EventType "Kernel PMU event" (its PMU and JSON events).
Listing perf_listing(const nlohmann::json& document) {
  Listing listing;
  if (!document.is_array()) return listing;
  for (const auto& object : document) {
    if (field(object, "EventType") != "Kernel PMU event") continue;
    listing[{field(object, "Unit"), field(object, "EventName")}] = object;
  }
  return listing;
}

// pmuls' listing of the catalog, each PMU's events as pmu_to_json() gives them, keyed as perf
// lists them; every instance's entry must be the same.
Listing pmucat_listing(const Catalog& catalog, const Profile& semantics,
                       std::vector<std::string>& instance_differences) {
  // perf 6.12's perf list -j lists deprecated events (marked), perf 7.3's leaves them out, as
  // pmuls does without --deprecated.
  cli::EventFilter filter;
  filter.deprecated = !semantics.has(Behaviour::list_json_fields);
  Listing listing;
  for (const Pmu& pmu : catalog.pmus()) {
    const cli::Json json = cli::pmu_to_json(pmu, nullptr, filter, semantics);
    if (!json.contains("events")) continue;
    for (const auto& event : json["events"]) {
      if (!event.contains("EventName")) continue;
      nlohmann::json object = nlohmann::json::object();
      for (const char* name : kPerfFields) {
        if (event.contains(name)) object[name] = event[name].get<std::string>();
      }
      // perf's Encoding names the Unit it lists the event under, pmuls' the instance.
      const std::string unit = field(object, "Unit");
      std::string encoding = field(object, "Encoding");
      if (encoding.starts_with(pmu.name() + "/"))
        encoding = unit + encoding.substr(pmu.name().size());
      object["Encoding"] = encoding;
      const Key key{unit, field(object, "EventName")};
      const auto [it, inserted] = listing.emplace(key, object);
      if (!inserted && it->second != object) {
        instance_differences.push_back(fmt::format("{} {}: instances differ: {} vs {}", key.first,
                                                   key.second, it->second.dump(), object.dump()));
      }
    }
  }
  return listing;
}

// The bracketed descriptions of a text listing, perf's or pmuls': (event name, description with
// its words joined by single blanks), for every event line followed by a description. pmuls'
// `PMU/name/` is taken as `name`.
std::multiset<std::pair<std::string, std::string>> text_descriptions(const std::string& text) {
  std::multiset<std::pair<std::string, std::string>> out;
  std::istringstream lines(text);
  std::string line;
  std::string name;
  std::string description;
  bool in_description = false;
  while (std::getline(lines, line)) {
    if (in_description) {
      description += ' ' + line;
    } else if (line.starts_with("       [")) {
      description = line.substr(8);
      in_description = true;
    } else if (line.starts_with("  ") && line.size() > 2 && line[2] != ' ') {
      std::istringstream words(line);
      words >> name;
      if (name.size() > 2 && name.back() == '/') {
        name.pop_back();
        name = name.substr(name.find('/') + 1);
      }
      continue;
    } else {
      continue;
    }
    if (!description.empty() && description.back() == ']') {
      description.pop_back();
      std::istringstream words(description);
      std::string word;
      std::string joined;
      while (words >> word) joined += joined.empty() ? word : ' ' + word;
      out.emplace(name, joined);
      in_description = false;
    }
  }
  return out;
}

struct Tally {
  std::size_t perf_entries = 0;
  std::size_t pmucat_entries = 0;
  std::size_t compared = 0;  // in both
  std::size_t equal = 0;
  // perf's `PMU//` for a PMU without events, and perf 7.3's tool-PMU events, which pmuls lists
  // as built-in events (--kind tool) (docs/perf-compat.md)
  std::size_t documented = 0;
  std::size_t descriptions = 0;
  std::size_t descriptions_equal = 0;
  std::vector<std::string> differences;
};

// The whole comparison on one tree.
void compare_listings(const fs::path& devices, const std::string& cpuid, const Catalog& catalog,
                      const OracleOptions& options, Tally& tally) {
  // The tool-PMU events perf lists (documented above): their text entries are not compared either.
  std::set<std::string> tool_events;
  // perf 6.1 has no `perf list -j`: its text listing only.
  if (options.version != PerfRelease::v6_1) {
    const std::string json_text = run_perf_list(devices, cpuid, options.perf, "-j pmu");
    const auto document = nlohmann::json::parse(json_text, nullptr, false);
    ASSERT_TRUE(document.is_array()) << "perf list -j pmu printed no JSON array:\n"
                                     << json_text.substr(0, 2000);
    const Listing perf = perf_listing(document);
    const Profile semantics = Profile::perf(options.version);
    const Listing ours = pmucat_listing(catalog, semantics, tally.differences);
    tally.perf_entries += perf.size();
    tally.pmucat_entries += ours.size();
    for (const auto& [key, object] : perf) {
      const auto it = ours.find(key);
      if (it == ours.end()) {
        // A PMU perf lists as an event of its own (`intel_pt//`), no encoding: pmuls lists PMUs
        // in its summary (documented).
        if (!object.contains("Encoding") && key.second == key.first + "//") {
          ++tally.documented;
        } else if (key.first == "tool" && catalog.find_pmu("tool") == nullptr) {
          ++tally.documented;
          tool_events.insert(key.second);
        } else {
          tally.differences.push_back(
              fmt::format("{} {}: only perf lists it: {}", key.first, key.second, object.dump()));
        }
        continue;
      }
      ++tally.compared;
      std::vector<std::string> fields;
      for (const char* name : kPerfFields) {
        if (field(object, name) != field(it->second, name)) {
          fields.push_back(fmt::format("{}: perf '{}', pmucat '{}'", name, field(object, name),
                                       field(it->second, name)));
        }
      }
      if (fields.empty()) {
        ++tally.equal;
      } else {
        std::string text;
        for (const auto& f : fields) text += "\n      " + f;
        tally.differences.push_back(fmt::format("{} {}:{}", key.first, key.second, text));
      }
    }
    for (const auto& [key, object] : ours) {
      if (!perf.contains(key)) {
        tally.differences.push_back(
            fmt::format("{} {}: only pmucat lists it: {}", key.first, key.second, object.dump()));
      }
    }
  }

  // The text listing's descriptions.
  const auto perf_text = text_descriptions(run_perf_list(devices, cpuid, options.perf, "pmu"));
  std::string text;
  // Warnings about the tree are not what is compared.
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> sink(std::fopen("/dev/null", "w"), &std::fclose);
  ASSERT_NE(sink, nullptr);
  cli::DiagnosticPrinter printer(sink.get(), false, "pmuls");
  for (const Pmu& pmu : catalog.pmus()) {
    cli::EventListing listing;
    listing.columns = 0;
    text += cli::render_pmu_events(pmu, listing, printer);
  }
  const auto our_text = text_descriptions(text);
  // pmuls prints an uncore event once per instance: compare each (name, description) once.
  std::set<std::pair<std::string, std::string>> perf_set(perf_text.begin(), perf_text.end());
  std::erase_if(perf_set, [&](const auto& entry) { return tool_events.contains(entry.first); });
  const std::set<std::pair<std::string, std::string>> our_set(our_text.begin(), our_text.end());
  tally.descriptions += perf_set.size();
  for (const auto& entry : perf_set) {
    if (our_set.contains(entry)) {
      ++tally.descriptions_equal;
    } else {
      tally.differences.push_back(
          fmt::format("text {}: perf's description '{}' not in pmuls'", entry.first, entry.second));
    }
  }
  for (const auto& entry : our_set) {
    if (!perf_set.contains(entry)) {
      tally.differences.push_back(
          fmt::format("text {}: pmuls' description '{}' not in perf's", entry.first, entry.second));
    }
  }
}

std::string report(const Tally& tally) {
  std::string text;
  std::size_t shown = 0;
  for (const auto& d : tally.differences) {
    if (++shown > 40) {
      text += fmt::format("  ... {} more\n", tally.differences.size() - 40);
      break;
    }
    text += fmt::format("  {}\n", d);
  }
  return text;
}

void print_summary(const std::string& label, const std::string& cpuid, const OracleOptions& options,
                   const Tally& tally) {
  if (options.version == PerfRelease::v6_1) {
    std::printf(
        "[ listing  ] %s (%s): perf 6.1 (no perf list -j): %zu text descriptions, %zu equal, %zu "
        "differences\n",
        label.c_str(), cpuid.c_str(), tally.descriptions, tally.descriptions_equal,
        tally.differences.size());
    return;
  }
  std::printf(
      "[ listing  ] %s (%s): perf lists %zu PMU/JSON events, pmucat %zu; %zu compared, %zu equal, "
      "%zu documented, %zu differences; %zu text descriptions, %zu equal\n",
      label.c_str(), cpuid.c_str(), tally.perf_entries, tally.pmucat_entries, tally.compared,
      tally.equal, tally.documented, tally.differences.size(), tally.descriptions,
      tally.descriptions_equal);
}

// nullopt when the suite can run here, else the reason to skip.
std::optional<std::string> unavailable(const OracleOptions& options) {
  if (auto why = oracle_unavailable(options)) return "perf oracle unavailable: " + *why;
  return std::nullopt;
}

// The x86 models of linux 6.12's mapfile whatever PMUCAT_DIFF_PERF_VERSION says (ctest lists the
// `.perf6.12` tests without the variable; 6.1's models are among them and 6.1's run skips the
// others), or of $PMUCAT_EVENTS_DIR's; a placeholder the tests skip when there is none.
std::vector<std::string> listing_models() {
  const char* dir = std::getenv("PMUCAT_EVENTS_DIR");
  const std::string json_dir = PMUCAT_EVENTS_JSON_DIR;
  if ((dir != nullptr && *dir != '\0') || json_dir.empty()) return model_directories();
  const fs::path path = fs::path(json_dir) / "x86" / "mapfile.csv";
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  std::vector<std::string> models;
  const Mapfile mapfile = parse_mapfile(text.str(), path.string(), "x86");
  for (const auto& row : mapfile.rows) {
    if (std::find(models.begin(), models.end(), row.directory) == models.end())
      models.push_back(row.directory);
  }
  if (models.empty()) models.emplace_back("no_events_dir");
  return models;
}

// The CI sample: PMUCAT_LISTING_DIFF_COUNT models, picked by the seed.
bool sampled(const std::string& directory) {
  if (all_models()) return true;
  std::vector<std::string> models =
      oracle_perf_version() == PerfRelease::v6_1 ? model_directories() : listing_models();
  std::mt19937_64 rng(seed());
  std::shuffle(models.begin(), models.end(), rng);
  const auto count = static_cast<std::size_t>(env_number("PMUCAT_LISTING_DIFF_COUNT", 6));
  if (models.size() > count) models.resize(count);
  return std::find(models.begin(), models.end(), directory) != models.end();
}

class ListingModel : public ::testing::TestWithParam<std::string> {};

TEST_P(ListingModel, PmuListMatchesPerf) {
  const std::string directory = GetParam();
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = unavailable(options)) GTEST_SKIP() << *why;
  const auto mapfile = read_x86_mapfile();
  if (!mapfile)
    GTEST_SKIP() << "no vendor events dir (x86/mapfile.csv) at '" << events_dir() << "'";
  if (!sampled(directory))
    GTEST_SKIP() << "not in this seed's sample of models (seed " << seed()
                 << "; PMUCAT_LISTING_DIFF_ALL=1 compares every model)";
  const auto row = std::find_if(mapfile->rows.begin(), mapfile->rows.end(),
                                [&](const MapfileRow& r) { return r.directory == directory; });
  if (row == mapfile->rows.end())
    GTEST_SKIP() << directory << " is not a model of this release's tables (" << events_dir()
                 << ")";
  const auto cpuid = x86_cpuid_for_row(*mapfile, *row);
  ASSERT_TRUE(cpuid.has_value());
  auto model = load_vendor_model(events_dir() / "x86", directory, oracle_perf_version());
  ASSERT_TRUE(model.has_value()) << model.error().message;
  const VendorTree tree = make_vendor_tree(model->events, vendor_of_cpuid(*cpuid));
  testing::ScratchDir scratch("listing");
  const fs::path devices = scratch / "devices";
  write_vendor_tree(tree, devices);
  auto catalog = Catalog::open(
      devices, VendorOptions{catalog_events_dir(), *cpuid, {}, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  // PMUCAT_LISTING_DIFF_KEEP=DIR keeps a copy of each model's tree there, to replay perf on it.
  if (const char* keep = std::getenv("PMUCAT_LISTING_DIFF_KEEP"); keep != nullptr && *keep) {
    fs::create_directories(fs::path(keep) / directory);
    fs::copy(devices, fs::path(keep) / directory / "devices",
             fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  }
  Tally tally;
  compare_listings(devices, *cpuid, *catalog, options, tally);
  print_summary(directory, *cpuid, options, tally);
  EXPECT_GT(options.version == PerfRelease::v6_1 ? tally.descriptions : tally.compared, 0U)
      << directory;
  EXPECT_TRUE(tally.differences.empty())
      << directory << " (" << *cpuid << "): " << tally.differences.size() << " differences:\n"
      << report(tally);
}

INSTANTIATE_TEST_SUITE_P(ListingDiff, ListingModel, ::testing::ValuesIn(listing_models()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

// The vendor fixture trees, whose PMUs have sysfs events too (core and uncore, hybrid core PMUs,
// instances with and without siblings), with the model their CPU identifier picks.
struct FixtureCase {
  const char* tree;
  const char* cpuid;
};
class ListingFixture : public ::testing::TestWithParam<FixtureCase> {};

TEST_P(ListingFixture, PmuListMatchesPerf) {
  const FixtureCase fixture = GetParam();
  const OracleOptions options = OracleOptions::from_environment();
  if (auto why = unavailable(options)) GTEST_SKIP() << *why;
  if (!read_x86_mapfile())
    GTEST_SKIP() << "no vendor events dir (x86/mapfile.csv) at '" << events_dir() << "'";
  auto copy = MaterialisedTree::copy_of(fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" /
                                        fixture.tree / "devices");
  ASSERT_TRUE(copy.has_value()) << fixture.tree;
  auto catalog = Catalog::open(
      copy->devices_dir(),
      VendorOptions{catalog_events_dir(), fixture.cpuid, {}, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  Tally tally;
  compare_listings(copy->devices_dir(), fixture.cpuid, *catalog, options, tally);
  print_summary(fixture.tree, fixture.cpuid, options, tally);
  EXPECT_GT(options.version == PerfRelease::v6_1 ? tally.descriptions : tally.compared, 0U)
      << fixture.tree;
  EXPECT_TRUE(tally.differences.empty()) << fixture.tree << " (" << fixture.cpuid
                                         << "): " << tally.differences.size() << " differences:\n"
                                         << report(tally);
}

INSTANTIATE_TEST_SUITE_P(ListingDiff, ListingFixture,
                         ::testing::Values(FixtureCase{"intel-spr", "GenuineIntel-6-8F-8"},
                                           FixtureCase{"intel-adl-hybrid", "GenuineIntel-6-97-2"},
                                           FixtureCase{"amd-zen4", "AuthenticAMD-25-11-1"}),
                         [](const ::testing::TestParamInfo<FixtureCase>& param_info) {
                           std::string name = param_info.param.tree;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
