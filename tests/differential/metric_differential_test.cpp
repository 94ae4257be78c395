// Metric expansion against perf 6.1: for x86 models of the events dir's mapfile, `perf stat -vv
// -M NAME true` with PERF_CPUID naming the model and a tree made for the model's events
// bind-mounted over /sys/bus/event_source/devices; every "Parsing metric events '...'" line perf
// prints against pmuencode's expansion (expand_metric_table over the catalog's metrics, with the
// host's literals, as perf reads them). CI: a seeded sample of metrics per model; the full run
// (every metric of every model): PMUCAT_METRIC_DIFF_ALL=1 (docs/testing.md). Skipped without
// root, perf or an events dir.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "diff_env.h"
#include "perf_oracle.h"
#include "pmucat/catalog.h"
#include "pmucat/encode.h"
#include "pmucat/metrics.h"
#include "pmucat/stat_defaults.h"
#include "pmucat/tool_defaults.h"
#include "pmucat/vendor_events.h"
#include "support/command.h"
#include "support/scratch_dir.h"
#include "vendor_tree.h"

PMUCAT_BEGIN_NAMESPACE
namespace differential {
namespace {
namespace fs = std::filesystem;

bool all_metrics() {
  return full_run("PMUCAT_METRIC_DIFF_ALL");
}

unsigned metrics_per_model() {
  return static_cast<unsigned>(env_number("PMUCAT_METRIC_DIFF_COUNT", 3));
}

using testing::shell_quote;

struct PerfMetricRun {
  std::vector<std::string> lists;  // "Parsing metric events" strings, in order
  bool failed = false;             // perf printed an error (cannot find / parse error)
  bool unresolved = false;  // "Cannot resolve IDs for": perf parsed the lists, then failed -M
  std::string output;
};

// perf stat's flags for these options (--metric-no-group, --metric-no-merge, and perf 6.12's
// --metric-no-threshold).
std::string metric_flags(const MetricExpandOptions& options) {
  std::string flags;
  if (options.no_group) flags += " --metric-no-group";
  if (options.no_merge) flags += " --metric-no-merge";
  if (options.no_threshold) flags += " --metric-no-threshold";
  return flags;
}

// Files bind-mounted over the host's, in perf's namespace only: what perf reads as the NMI
// watchdog (/proc/sys/kernel/nmi_watchdog) and as SMT (/sys/devices/system/cpu/smt/active).
struct HostFiles {
  fs::path nmi_watchdog;
  fs::path smt_active;
};

PerfMetricRun run_perf_metric(const fs::path& devices, const std::string& cpuid,
                              const std::string& perf, const std::string& names,
                              const std::string& flags = {},
                              const std::optional<HostFiles>& host = std::nullopt) {
  std::string mounts;
  if (host) {
    mounts = fmt::format(
        "mount --bind {} /proc/sys/kernel/nmi_watchdog && mount --bind {} "
        "/sys/devices/system/cpu/smt/active && ",
        shell_quote(host->nmi_watchdog.string()), shell_quote(host->smt_active.string()));
  }
  std::string command = fmt::format(
      "cd /tmp && PERF_CPUID={} timeout 60 unshare -m bash -c {} {} {} stat -vv -M {}{} true 2>&1",
      shell_quote(cpuid),
      shell_quote("{ mount --bind \"$0\" /sys/bus/event_source/devices && " + mounts +
                  "true; } || exit 99; exec \"$@\""),
      shell_quote(devices.string()), shell_quote(perf), shell_quote(names), flags);
  PerfMetricRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) {
    run.failed = true;
    return run;
  }
  std::array<char, 65536> buffer{};
  while (std::fgets(buffer.data(), static_cast<int>(buffer.size()), pipe) != nullptr) {
    run.output += buffer.data();
  }
  ::pclose(pipe);
  std::istringstream lines(run.output);
  std::string line;
  constexpr std::string_view kPrefix = "Parsing metric events '";
  while (std::getline(lines, line)) {
    if (line.rfind(kPrefix, 0) == 0 && line.size() > kPrefix.size() && line.back() == '\'') {
      run.lists.push_back(line.substr(kPrefix.size(), line.size() - kPrefix.size() - 1));
    }
    if (line.find("Cannot find metric or group") != std::string::npos ||
        line.find("event syntax error") != std::string::npos ||
        line.find("recursion detected") != std::string::npos) {
      run.failed = true;
    }
    if (line.starts_with("Cannot resolve IDs for ")) run.unresolved = true;
  }
  return run;
}

// `perf stat -M NAME` once per name, `options.workers` perf processes at a time, in the names'
// order.
std::vector<PerfMetricRun> run_perf_metrics(const fs::path& devices, const std::string& cpuid,
                                            const OracleOptions& options,
                                            const std::vector<std::string>& names) {
  std::vector<PerfMetricRun> results(names.size());
  const unsigned workers = std::max(1U, options.workers);
  for (std::size_t begin = 0; begin < names.size(); begin += workers) {
    std::vector<std::future<PerfMetricRun>> batch;
    for (std::size_t i = begin; i < std::min(names.size(), begin + workers); ++i) {
      batch.push_back(std::async(std::launch::async, run_perf_metric, devices, cpuid, options.perf,
                                 names[i], std::string(), std::optional<HostFiles>()));
    }
    for (std::size_t i = 0; i < batch.size(); ++i) results[begin + i] = batch[i].get();
  }
  return results;
}

std::string join(const std::vector<std::string>& lists) {
  std::string out;
  for (const auto& l : lists) {
    if (!out.empty()) out += " | ";
    out += l;
  }
  return out;
}

// The model's metrics read from its JSON files in perf's table order, to check the catalog's
// order: perf 6.1's jevents.py sorts by description present, topic, event name, PMU, metric name;
// perf 6.12's by PMU (`default_core` without a Unit), then metric name (then the simplified
// expression and the description, which no x86 model needs to break a tie).
struct JsonMetric {
  std::string name, expr, group, constraint, unit, file, topic, event_name, pmu;
  bool has_desc = false;
};
std::vector<JsonMetric> load_json_metrics(const fs::path& dir) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json")
      files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  std::vector<JsonMetric> out;
  for (const auto& file : files) {
    std::ifstream in(file);
    const auto doc = nlohmann::json::parse(in, nullptr, false);
    if (!doc.is_array()) continue;
    std::string fname = file.filename().string();
    std::string topic;
    if (fname.size() >= 12 && fname.compare(fname.size() - 12, 12, "metrics.json") == 0) {
      topic = "metrics";
    } else {
      topic = fname.substr(0, fname.size() - 5);
      std::replace(topic.begin(), topic.end(), '-', ' ');
    }
    for (const auto& o : doc) {
      if (!o.is_object() || !o.contains("MetricName")) continue;
      auto get = [&](const char* k) {
        return o.contains(k) && o[k].is_string() ? o[k].get<std::string>() : std::string();
      };
      JsonMetric m;
      m.name = get("MetricName");
      m.expr = get("MetricExpr");
      m.group = get("MetricGroup");
      m.constraint = get("MetricConstraint");
      m.unit = get("ScaleUnit");
      m.file = file.string();
      m.topic = topic;
      m.event_name = get("EventName");
      for (char& c : m.event_name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      const std::string unit = get("Unit");
      if (!unit.empty())
        m.pmu = unit == "cpu_core" || unit == "cpu_atom" ? unit : fmt::format("uncore_{}", unit);
      m.has_desc = o.contains("BriefDescription") || !unit.empty();
      out.push_back(std::move(m));
    }
  }
  if (oracle_perf_version() != PerfRelease::v6_1) {
    auto pmu_612 = [](const JsonMetric& m) {
      return m.pmu.empty() ? std::string("default_core") : m.pmu;
    };
    std::stable_sort(out.begin(), out.end(), [&](const JsonMetric& a, const JsonMetric& b) {
      return std::make_tuple(pmu_612(a), a.name) < std::make_tuple(pmu_612(b), b.name);
    });
    if (info(oracle_perf_version()).jevents >= JeventsRules::of_7_2) {
      // linux 7.3's (and 7.2's) generator writes some hybrid models' metrics twice under one name
      // (Panther Lake's `lpm_br_cond_insn_between_branches`, once per core PMU's events); the
      // catalog keeps the first with a vendor-metric-duplicate warning. Then come the common
      // metrics (arch/common/common/metrics.json, `CPUs_utilized` ...), a table of their own.
      std::vector<JsonMetric> kept;
      for (auto& m : out) {
        const bool seen = std::any_of(kept.begin(), kept.end(), [&](const JsonMetric& k) {
          return pmu_612(k) == pmu_612(m) && k.name == m.name;
        });
        if (!seen) kept.push_back(std::move(m));
      }
      out = std::move(kept);
      const fs::path common = dir.parent_path().parent_path() / "common" / "common";
      if (dir.filename() != "common" && fs::is_directory(common)) {
        for (auto& m : load_json_metrics(common)) out.push_back(std::move(m));
      }
    }
    return out;
  }
  std::stable_sort(out.begin(), out.end(), [](const JsonMetric& a, const JsonMetric& b) {
    return std::tie(a.has_desc, a.topic, a.event_name, a.pmu, a.name) <
           std::tie(b.has_desc, b.topic, b.event_name, b.pmu, b.name);
  });
  return out;
}

// A model's tree and catalog, as perf sees them: the mapfile row's CPU identifier, a tree made
// for the model's events (or a fixture tree, materialised for perf), the catalog over it with the
// model's vendor events.
struct ModelSetup {
  std::string cpuid;
  std::unique_ptr<testing::ScratchDir> scratch;
  std::unique_ptr<MaterialisedTree> fixture;
  fs::path devices;
  std::optional<Catalog> catalog;
  std::vector<MetricDefinition> table;
};

// Fails the test (or skips it, without an events dir or perf) unless the model can be set up.
void set_up_model(const std::string& directory, const OracleOptions& options, ModelSetup& out,
                  const std::optional<fs::path>& fixture = std::nullopt) {
  const auto mapfile = read_x86_mapfile();
  if (!mapfile)
    GTEST_SKIP() << "no vendor events dir (x86/mapfile.csv) at '" << events_dir() << "'";
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  const auto row = std::find_if(mapfile->rows.begin(), mapfile->rows.end(),
                                [&](const MapfileRow& r) { return r.directory == directory; });
  ASSERT_NE(row, mapfile->rows.end()) << directory;
  const auto cpuid = x86_cpuid_for_row(*mapfile, *row);
  ASSERT_TRUE(cpuid.has_value());
  out.cpuid = *cpuid;
  if (fixture) {
    auto copy = MaterialisedTree::copy_of(*fixture);
    ASSERT_TRUE(copy.has_value()) << *fixture;
    out.fixture = std::make_unique<MaterialisedTree>(std::move(*copy));
    out.devices = out.fixture->devices_dir();
  } else {
    auto model = load_vendor_model(events_dir() / "x86", directory, oracle_perf_version());
    ASSERT_TRUE(model.has_value()) << model.error().message;
    const VendorTree tree = make_vendor_tree(model->events, vendor_of_cpuid(*cpuid));
    out.scratch = std::make_unique<testing::ScratchDir>("metrics");
    out.devices = *out.scratch / "devices";
    write_vendor_tree(tree, out.devices);
  }
  auto catalog = Catalog::open(
      out.devices, VendorOptions{catalog_events_dir(), *cpuid, {}, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  out.catalog = std::move(*catalog);
  out.table = metric_definitions(*out.catalog);
}

// How many times perf opened `duration_time` (the software dummy, type 1 config 9, is the attr
// perf 6.1 gives its tool events; `perf stat true` opens each once), and how many pmucat's lists
// hold: they are one attr each. perf 6.12 counts tool events itself and prints no attr for them,
// but `-vv` prints each one's reading, once per event: `duration_time: -1: 980045 980045 980045`.
std::size_t duration_time_opens(const PerfResult& printed, const std::string& output) {
  if (oracle_perf_version() == PerfRelease::v6_12) {
    std::size_t n = 0;
    std::istringstream lines(output);
    std::string line;
    constexpr std::string_view kReading = "duration_time: -1: ";
    while (std::getline(lines, line)) {
      if (line.starts_with(kReading)) ++n;
    }
    return n;
  }
  // perf 7.3: the tool PMU's event 1 (type 0xfffffffe).
  const bool tool_pmu = oracle_semantics().has(Behaviour::tool_pmu);
  return static_cast<std::size_t>(
      std::count_if(printed.printed.begin(), printed.printed.end(), [&](const auto& attr) {
        return tool_pmu ? attr.first.type == 0xfffffffeU && attr.first.config[0] == 1
                        : attr.first.type == 1 && attr.first.config[0] == 9;
      }));
}
std::size_t duration_time_attrs(const EncodedMetrics& encoded) {
  return static_cast<std::size_t>(
      std::count_if(encoded.events.begin(), encoded.events.end(),
                    [](const EncodedEvent& ev) { return ev.spec == "duration_time"; }));
}

// The tally of one model's comparisons.
struct MetricTally {
  std::size_t equal = 0;
  std::size_t perf_stopped = 0;  // of `equal`: perf printed a prefix of pmucat's lists
  std::size_t both_reject = 0;
  std::size_t attrs_checked = 0;
  std::size_t opens_checked = 0;  // runs whose duration_time opens were counted
  std::vector<std::string> failures;
};

// One `-M names` (with the flags of `expand_options`) of perf against pmucat: the lists, every
// distinct attr perf printed, and, where perf opened every event (it printed the counts), the
// number of duration_time attrs.
void compare_metric_run(const ModelSetup& model, const std::string& names,
                        const MetricExpandOptions& expand_options, const PerfMetricRun& perf,
                        MetricTally& tally) {
  EncodeOptions encode_options;
  encode_options.semantics = oracle_semantics();
  encode_options.tool = Tool::stat;
  // perf 6.12 and later ask this machine's kernel whether it takes extended types (a hybrid
  // model's tree on a machine that is not: legacy events without a PMU type); so does pmucat.
  if (encode_options.semantics != Profile::perf(PerfRelease::v6_1)) {
    encode_options.extended_type = probe_extended_type(*model.catalog);
  }
  const std::string label = names + metric_flags(expand_options);
  const auto ours = expand_metric_table(model.table, names, expand_options);
  if (!ours) {
    if ((perf.lists.empty() && perf.failed) ||
        (perf.unresolved && ours.error().id == "metric-unresolved")) {
      ++tally.both_reject;
    } else {
      tally.failures.push_back(fmt::format("{}: pmucat rejects ({}), perf: {}", label,
                                           ours.error().message, join(perf.lists)));
    }
    return;
  }
  const auto& lists = ours->event_lists;
  // perf stops at the first list whose events it cannot parse (quietly: perf stat 6.1 then
  // runs its default events): a shorter list is agreement when pmucat's encoder rejects the
  // last list perf printed too.
  if (perf.unresolved) {
    tally.failures.push_back(
        fmt::format("{}: perf cannot resolve a metric's events, pmucat "
                    "expands: {}",
                    label, join(lists)));
    return;
  }
  const bool prefix = !perf.lists.empty() && perf.lists.size() < lists.size() &&
                      std::equal(perf.lists.begin(), perf.lists.end(), lists.begin()) &&
                      !encode(*model.catalog, perf.lists.back(), encode_options).has_value();
  if (perf.lists != lists && !prefix) {
    tally.failures.push_back(fmt::format(
        "{}:\n    perf:   {}\n    pmucat: {}", label,
        perf.failed && perf.lists.empty() ? "rejected" : join(perf.lists), join(lists)));
    return;
  }
  ++tally.equal;
  if (perf.lists != lists) {
    ++tally.perf_stopped;
    return;
  }
  // The attrs: every distinct attr perf printed (it prints each before opening it, and
  // stops at a failing group) is one pmucat encodes for these lists.
  const PerfResult printed = parse_perf_output(perf.output);
  if (printed.attrs.empty()) return;
  auto encoded = encode_metrics(*model.catalog, *ours, encode_options);
  // A list pmucat cannot encode is one perf fails to parse (it then runs its default
  // events, whose attrs are not the metric's): nothing to compare.
  if (!encoded) return;
  std::vector<AttrWords> mine;
  for (const auto& ev : encoded->events) {
    mine.push_back(
        AttrWords{ev.attr.type, {ev.attr.config[0], ev.attr.config[1], ev.attr.config[2], 0}});
  }
  for (const auto& words : printed.attrs) {
    if (std::find(mine.begin(), mine.end(), words) == mine.end()) {
      tally.failures.push_back(
          fmt::format("{}: perf opens {} which pmucat does not encode", label, to_string(words)));
    } else {
      ++tally.attrs_checked;
    }
  }
  // perf opened every event (an event the kernel lacks is "not supported", and perf goes on)
  // unless it stopped at a group it could not open: then it printed no counts.
  if (perf.output.find("Performance counter stats for") != std::string::npos) {
    ++tally.opens_checked;
    const std::size_t opens = duration_time_opens(printed, perf.output);
    if (opens != duration_time_attrs(*encoded)) {
      tally.failures.push_back(fmt::format("{}: perf opens duration_time {} times, pmucat {}",
                                           label, opens, duration_time_attrs(*encoded)));
    }
  }
}

std::string report(const MetricTally& tally) {
  std::string text;
  for (const auto& f : tally.failures) text += fmt::format("  {}\n", f);
  return text;
}

MetricExpandOptions host_expand_options() {
  MetricExpandOptions expand_options;
  expand_options.semantics = oracle_semantics();
  expand_options.literals = host_metric_literals();
  expand_options.nmi_watchdog = host_nmi_watchdog();
  return expand_options;
}

// host_expand_options() whose events are those `catalog` encodes as perf stat would (what perf's
// metricgroup code asks of the parser); `catalog` must outlive the options.
MetricExpandOptions catalog_expand_options(const Catalog& catalog) {
  MetricExpandOptions expand_options = host_expand_options();
  EncodeOptions parse_options;
  parse_options.semantics = oracle_semantics();
  parse_options.tool = Tool::stat;
  expand_options.event_parses = [&catalog, parse_options](std::string_view event) {
    return encode(catalog, event, parse_options).has_value();
  };
  return expand_options;
}

class MetricModel : public ::testing::TestWithParam<std::string> {};

TEST_P(MetricModel, ExpansionMatchesPerf) {
  const std::string directory = GetParam();
  const OracleOptions options = OracleOptions::from_environment();
  ModelSetup model;
  set_up_model(directory, options, model);
  if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
  const auto& table = model.table;
  // The catalog's metrics in perf's table order: the same names and expressions, in the same
  // order, as jevents.py's sort of the model's JSON gives.
  {
    const auto json_metrics = load_json_metrics(events_dir() / "x86" / directory);
    std::vector<std::string> from_json;
    std::vector<std::string> from_catalog;
    // Under perf 6.12's rules the catalog holds each expression as perf 6.12's build prints it
    // back (vendor test MetricPyTruth compares them with perf 6.12's own table): here the names
    // and their order.
    const bool with_exprs = oracle_perf_version() == PerfRelease::v6_1;
    auto line = [&](std::string_view name, std::string_view expr) {
      return with_exprs ? fmt::format("{} = {}", name, expr) : std::string(name);
    };
    for (const auto& m : json_metrics) from_json.push_back(line(m.name, m.expr));
    for (const auto& m : table) from_catalog.push_back(line(m.name, m.expr));
    if (from_catalog != from_json) {
      // The lists are long: name where they part.
      const auto parted = std::mismatch(from_catalog.begin(), from_catalog.end(), from_json.begin(),
                                        from_json.end());
      const auto at = static_cast<std::size_t>(parted.first - from_catalog.begin());
      ADD_FAILURE() << directory << ": the catalog's metric order parts from the JSON's at " << at
                    << " of " << from_catalog.size() << "/" << from_json.size() << ": catalog '"
                    << (parted.first != from_catalog.end() ? *parted.first : "(end)") << "', JSON '"
                    << (parted.second != from_json.end() ? *parted.second : "(end)") << "'";
    }
  }
  if (table.empty()) GTEST_SKIP() << directory << ": no metrics";

  std::vector<std::string> names;
  for (const auto& m : table) {
    if (!m.expr.empty() &&
        std::find(names.begin(), names.end(), std::string(m.name)) == names.end()) {
      names.emplace_back(m.name);
    }
  }
  if (!all_metrics()) {
    std::uint64_t h = seed();
    for (char c : directory) h = h * 1099511628211ULL ^ static_cast<unsigned char>(c);
    std::mt19937_64 rng(h);
    std::shuffle(names.begin(), names.end(), rng);
    if (names.size() > metrics_per_model()) names.resize(metrics_per_model());
    // A metric that needs duration_time (tool events are added to every list of a run), the
    // seed's pick among them, where the model has one.
    std::vector<std::string> timed;
    for (const auto& m : table) {
      if (m.expr.find("duration_time") != std::string_view::npos &&
          std::find(names.begin(), names.end(), std::string(m.name)) == names.end() &&
          std::find(timed.begin(), timed.end(), std::string(m.name)) == timed.end()) {
        timed.emplace_back(m.name);
      }
    }
    if (!timed.empty()) names.push_back(timed[rng() % timed.size()]);
    // Metric groups too: the whole TopdownL1 where the model has it, and perf 6.12's
    // `Default` (what `perf stat` adds by itself; `-M Default` sorts its metrics by
    // DefaultMetricgroupName).
    for (const std::string_view group : {"TopdownL1", "Default"}) {
      for (const auto& m : table) {
        if (metric_matches(m, group, oracle_semantics())) {
          names.emplace_back(group);
          break;
        }
      }
    }
  }

  MetricExpandOptions expand_options = catalog_expand_options(*model.catalog);
  const std::vector<PerfMetricRun> results =
      run_perf_metrics(model.devices, model.cpuid, options, names);

  MetricTally tally;
  std::vector<std::string> joined;  // the names both expand in full: one --metric-no-group run
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::size_t before = tally.failures.size();
    const std::size_t equal = tally.equal - tally.perf_stopped;
    compare_metric_run(model, names[i], expand_options, results[i], tally);
    if (tally.failures.size() == before && tally.equal - tally.perf_stopped > equal)
      joined.push_back(names[i]);
  }
  // The same metrics in one run without groups: perf puts every metric without a modifier in one
  // combined list, the tool events once (docs/metrics.md).
  if (joined.size() > 1) {
    std::string list;
    for (const auto& n : joined) list += list.empty() ? n : "," + n;
    MetricExpandOptions no_group = expand_options;
    no_group.no_group = true;
    const PerfMetricRun perf =
        run_perf_metric(model.devices, model.cpuid, options.perf, list, metric_flags(no_group));
    compare_metric_run(model, list, no_group, perf, tally);
    // And without sharing events between metrics: one list per metric, tool events only where
    // a metric uses them.
    MetricExpandOptions no_merge = expand_options;
    no_merge.no_merge = true;
    const PerfMetricRun unshared =
        run_perf_metric(model.devices, model.cpuid, options.perf, list, metric_flags(no_merge));
    compare_metric_run(model, list, no_merge, unshared, tally);
  }
  std::printf(
      "[ metrics  ] %s (%s): %zu names and %s, %zu equal (%zu where perf stopped early), %zu "
      "rejected by both, %zu differ; %zu attrs equal, duration_time opens equal in %zu runs\n",
      directory.c_str(), model.cpuid.c_str(), names.size(),
      joined.size() > 1 ? "one --metric-no-group and one --metric-no-merge run of them"
                        : "no --metric-no-group run",
      tally.equal, tally.perf_stopped, tally.both_reject, tally.failures.size(),
      tally.attrs_checked, tally.opens_checked);
  EXPECT_TRUE(tally.failures.empty())
      << directory << " (" << model.cpuid << "): " << tally.failures.size() << " differences (seed "
      << seed() << "):\n"
      << report(tally);
}

// Tool events per event list, measured with perf 6.1 on sapphirerapids (docs/metrics.md):
// perf adds every tool event some metric of the run uses to every list it parses, so
// duration_time is opened once per list: once for all the metrics of `--metric-no-group`
// without a modifier (one combined list), once per metric of its own list (grouped metrics
// that share no list, a modifier, `--metric-no-merge`). On the intel-spr fixture, which has
// the topdown events, `msr` and the uncore PMUs these metrics need, so perf parses every list
// and opens every event (the model's generated tree lacks the topdown events).
TEST(MetricNoGroup, DurationTimeOncePerEventList) {
  const OracleOptions options = OracleOptions::from_environment();
  if (options.version != PerfRelease::v6_1)
    GTEST_SKIP() << "the cases name linux 6.1's metrics (6.12 renamed them); MetricDiff covers "
                    "perf 6.12's --metric-no-group and --metric-no-merge runs";
  ModelSetup model;
  set_up_model("sapphirerapids", options, model,
               fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-spr" / "devices");
  if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
  struct Case {
    std::string names;
    bool no_group;
    bool no_merge;
    std::size_t lists;        // what perf 6.1 printed
    bool unresolved = false;  // perf 6.1 then fails -M: "Cannot resolve IDs for ..."
  };
  const std::vector<Case> cases = {
      {"Memory_Bandwidth,Memory_Latency", true, false, 1},
      {"L1D_Cache_Fill_BW,L2_Cache_Fill_BW", false, false, 2},
      {"L1D_Cache_Fill_BW,L2_Cache_Fill_BW", true, false, 1},
      {"L1D_Cache_Fill_BW,L2_Cache_Fill_BW,L1D_Cache_Fill_BW", true, false, 1},
      {"L1D_Cache_Fill_BW:u,L2_Cache_Fill_BW:k", true, false, 2},
      {"L1D_Cache_Fill_BW,L2_Cache_Fill_BW", true, true, 2},
      {"Memory_Bandwidth,L1D_Cache_Fill_BW,IPC", true, false, 1},
      // A metric with a modifier is pointed at the list of the metrics without one.
      {"L1D_Cache_Fill_BW:u,L2_Cache_Fill_BW", true, false, 1, true},
      {"L1D_Cache_Fill_BW:u,L1D_Cache_Fill_BW", true, false, 1},
  };
  MetricTally tally;
  for (const Case& c : cases) {
    MetricExpandOptions expand_options = host_expand_options();
    expand_options.no_group = c.no_group;
    expand_options.no_merge = c.no_merge;
    const PerfMetricRun perf = run_perf_metric(model.devices, model.cpuid, options.perf, c.names,
                                               metric_flags(expand_options));
    EXPECT_EQ(perf.lists.size(), c.lists) << c.names << metric_flags(expand_options);
    EXPECT_EQ(perf.unresolved, c.unresolved) << c.names << metric_flags(expand_options);
    if (c.unresolved) {
      const std::size_t rejected = tally.both_reject;
      compare_metric_run(model, c.names, expand_options, perf, tally);
      EXPECT_EQ(tally.both_reject, rejected + 1) << c.names << metric_flags(expand_options);
      continue;
    }
    const std::size_t checked = tally.opens_checked;
    compare_metric_run(model, c.names, expand_options, perf, tally);
    EXPECT_EQ(tally.opens_checked, checked + 1)
        << c.names << metric_flags(expand_options) << ": perf did not open every event\n"
        << perf.output;
    EXPECT_EQ(duration_time_opens(parse_perf_output(perf.output), perf.output), c.lists)
        << c.names << metric_flags(expand_options);
  }
  EXPECT_TRUE(tally.failures.empty()) << report(tally);
}

// perf 6.12's rules one by one, against perf 6.12 on the intel-spr fixture (the tree perf parses
// the lists on; a model whose events it lacks makes perf stop early, and then the lists it printed
// must start pmucat's): MetricConstraint with the NMI watchdog and SMT off and on (files
// bind-mounted over /proc/sys/kernel/nmi_watchdog and /sys/devices/system/cpu/smt/active in
// perf's namespace only; pmucat takes the same values as options), a threshold with and without
// --metric-no-threshold, MetricgroupNoGroup, `Default` with each flag, modifiers, has_event(),
// `all` and `No_group` (docs/metrics.md, "Agreement with perf 6.12").
TEST(MetricRules612, FixedCasesMatchPerf612) {
  const OracleOptions options = OracleOptions::from_environment();
  if (options.version != PerfRelease::v6_12)
    GTEST_SKIP() << "perf 6.12's rules; linux 6.1's tables have none of these fields";
  struct Case {
    std::string directory;  // the model whose metrics are expanded
    std::string names;
    bool nmi_watchdog = false;
    bool smt_on = false;
    bool no_group = false;
    bool no_merge = false;
    bool no_threshold = false;
  };
  const std::vector<Case> cases = {
      // NO_GROUP_EVENTS_NMI, NO_GROUP_EVENTS_SMT, NO_GROUP_EVENTS.
      {"haswell", "tma_backend_bound"},
      {"haswell", "tma_backend_bound", true},
      {"haswell", "tma_dram_bound"},
      {"haswell", "tma_dram_bound", false, true},
      {"haswell", "tma_l3_bound", true, true},
      {"haswell", "tma_core_bound"},
      // Thresholds.
      {"skylake", "tma_divider"},
      {"skylake", "tma_divider", false, false, false, false, true},
      {"skylake", "TopdownL1,TopdownL2", true, true},
      {"skylake", "TopdownL1:k"},
      // Default: sorted by DefaultMetricgroupName; with every flag.
      {"sapphirerapids", "Default"},
      {"sapphirerapids", "Default", true, true},
      {"sapphirerapids", "Default", false, false, true},
      {"sapphirerapids", "Default", false, false, false, true},
      {"sapphirerapids", "tma_info_thread_ipc:u,tma_info_thread_cpi:u"},
      {"sapphirerapids", "tma_info_thread_ipc:u,tma_info_thread_ipc"},
      {"sapphirerapids", "smi,transaction"},
      {"icelakex", "transaction"},  // has_event(cycles-t): the fixture has it
      {"alderlake", "Default"},     // cpu_core and cpu_atom
      {"elkhartlake", "all"},
      {"elkhartlake", "No_group", false, false, false, false, true},
      {"cascadelakex", "No_group"},
  };
  const fs::path fixture =
      fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" / "intel-spr" / "devices";
  testing::ScratchDir scratch("metric612");
  MetricTally tally;
  std::size_t runs = 0;
  for (const Case& c : cases) {
    ModelSetup model;
    set_up_model(c.directory, options, model, fixture);
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
    HostFiles host{scratch / "nmi_watchdog", scratch / "smt_active"};
    std::ofstream(host.nmi_watchdog) << (c.nmi_watchdog ? "1\n" : "0\n");
    std::ofstream(host.smt_active) << (c.smt_on ? "1\n" : "0\n");
    MetricExpandOptions expand_options = catalog_expand_options(*model.catalog);
    expand_options.nmi_watchdog = c.nmi_watchdog;
    expand_options.literals.smt_on = c.smt_on ? 1.0 : 0.0;
    expand_options.no_group = c.no_group;
    expand_options.no_merge = c.no_merge;
    expand_options.no_threshold = c.no_threshold;
    const PerfMetricRun perf = run_perf_metric(model.devices, model.cpuid, options.perf, c.names,
                                               metric_flags(expand_options), host);
    EXPECT_FALSE(perf.lists.empty()) << c.directory << ": -M " << c.names << "\n" << perf.output;
    const std::size_t before = tally.failures.size();
    compare_metric_run(model, c.names, expand_options, perf, tally);
    for (std::size_t i = before; i < tally.failures.size(); ++i) {
      tally.failures[i] = fmt::format("{} (nmi_watchdog {}, smt {}): {}", c.directory,
                                      c.nmi_watchdog, c.smt_on, tally.failures[i]);
    }
    ++runs;
  }
  std::printf(
      "[ metrics  ] perf 6.12's rules: %zu runs, %zu equal (%zu where perf stopped early)\n", runs,
      tally.equal, tally.perf_stopped);
  EXPECT_TRUE(tally.failures.empty()) << report(tally);
}

// A fixture tree under `cpuid` (any architecture's identifier: perf reads the model's tables by
// it), materialised for perf, and the catalog over it with linux's tables of the oracle's perf.
void set_up_fixture(const std::string& fixture, const std::string& cpuid,
                    const OracleOptions& options, ModelSetup& out) {
  if (events_dir().empty() || !fs::exists(events_dir() / "x86" / "mapfile.csv"))
    GTEST_SKIP() << "no vendor events dir (x86/mapfile.csv) at '" << events_dir() << "'";
  if (auto why = oracle_unavailable(options)) GTEST_SKIP() << "perf oracle unavailable: " << *why;
  out.cpuid = cpuid;
  auto copy = MaterialisedTree::copy_of(fs::path(PMUCAT_SOURCE_DIR) / "fixtures" / "sysfs" /
                                        fixture / "devices");
  ASSERT_TRUE(copy.has_value()) << fixture;
  out.fixture = std::make_unique<MaterialisedTree>(std::move(*copy));
  out.devices = out.fixture->devices_dir();
  auto catalog = Catalog::open(
      out.devices, VendorOptions{catalog_events_dir(), cpuid, {}, {}, oracle_perf_version()});
  ASSERT_TRUE(catalog.has_value()) << catalog.error().message;
  out.catalog = std::move(*catalog);
  out.table = metric_definitions(*out.catalog);
}

// perf 7.3's metric language on the fixture trees of three vendors (perf 7.3 parses their lists
// and prints every attr): the common `Default`..`Default4` groups (`software@cpu\-clock\,name\=
// cpu\-clock@ if #target_cpu else ...`, tool events), TopdownL1, CPUs_utilized, and the metrics
// linux 7.3's build generates (`lpm_*`: `cpu-cycles:kHh` modifiers, `aggr_nr()`), named ones
// and a seeded pick of the others (with PMUCAT_METRIC_DIFF_ALL=1 every metric of the three
// models). perf stat counts a command, so #target_cpu is 0 (docs/metrics.md, "Literals").
TEST(MetricRules73, FixturesMatchPerf73) {
  const OracleOptions options = OracleOptions::from_environment();
  if (info(options.version).metric_dialect < MetricDialect::of_7_2)
    GTEST_SKIP() << "perf 7.2's and 7.3's metric language; older tables have none of it";
  struct Fixture {
    std::string tree, cpuid;
    std::vector<std::string> names;
  };
  const std::vector<Fixture> fixtures = {
      {"intel-spr",
       "GenuineIntel-6-8F-8",
       {"Default", "Default2", "Default3", "Default4", "TopdownL1", "CPUs_utilized",
        "Default,TopdownL1", "lpm_cycles_total", "lpm_miss_lat_loc", "cs_per_second"}},
      {"amd-zen4", "AuthenticAMD-25-11-0", {"Default", "Default2", "CPUs_utilized"}},
      {"arm64-n1", "0x00000000410fd0c0", {"Default", "Default3", "lpm_cycles_total"}},
  };
  MetricTally tally;
  std::size_t runs = 0;
  for (const Fixture& f : fixtures) {
    ModelSetup model;
    set_up_fixture(f.tree, f.cpuid, options, model);
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
    std::vector<std::string> names = f.names;
    // The generated metrics (all of the model's metrics in a full run).
    std::vector<std::string> generated;
    for (const auto& m : model.table) {
      if ((all_metrics() || m.name.starts_with("lpm_")) && !m.expr.empty() &&
          std::find(names.begin(), names.end(), std::string(m.name)) == names.end() &&
          std::find(generated.begin(), generated.end(), std::string(m.name)) == generated.end()) {
        generated.emplace_back(m.name);
      }
    }
    if (!all_metrics()) {
      std::uint64_t h = seed();
      for (char c : f.tree) h = h * 1099511628211ULL ^ static_cast<unsigned char>(c);
      std::mt19937_64 rng(h);
      std::shuffle(generated.begin(), generated.end(), rng);
      if (generated.size() > metrics_per_model()) generated.resize(metrics_per_model());
    }
    names.insert(names.end(), generated.begin(), generated.end());
    MetricExpandOptions expand_options = catalog_expand_options(*model.catalog);
    expand_options.literals.target_cpu = 0;
    const std::vector<PerfMetricRun> results =
        run_perf_metrics(model.devices, model.cpuid, options, names);
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::size_t before = tally.failures.size();
      compare_metric_run(model, names[i], expand_options, results[i], tally);
      for (std::size_t k = before; k < tally.failures.size(); ++k) {
        tally.failures[k] = fmt::format("{} ({}): {}", f.tree, f.cpuid, tally.failures[k]);
      }
      ++runs;
    }
  }
  std::printf(
      "[ metrics  ] perf 7.3's language: %zu runs, %zu equal (%zu where perf stopped early), %zu "
      "rejected by both, %zu differ; %zu attrs equal\n",
      runs, tally.equal, tally.perf_stopped, tally.both_reject, tally.failures.size(),
      tally.attrs_checked);
  EXPECT_TRUE(tally.failures.empty()) << report(tally);
}

// An attr as perf -vv prints it: its non-zero fields ("name value"), sorted.
std::vector<std::string> printed_fields(const Attr& attr) {
  std::vector<std::string> block;
  std::istringstream lines(dump_attr(attr));
  std::string line;
  while (std::getline(lines, line)) {
    // perf prints no zero field (type 0 included), nor config3 and config4.
    std::string normal = normalise_attr_line(line);
    if (normal.empty() || normal == "type 0" || normal.starts_with("config3 ") ||
        normal.starts_with("config4 ")) {
      continue;
    }
    block.push_back(std::move(normal));
  }
  std::sort(block.begin(), block.end());
  return block;
}

// perf 6.1 adds a default hardware event on each hybrid core PMU in the order it found the PMUs
// (the tree's directory order), pmucat in name order: a run of such copies (type 0 or 3, the
// same event in the low 32 config bits, differing in the PMU's extended type) is compared as a
// set.
void sort_per_pmu_copies(std::vector<std::vector<std::string>>& blocks) {
  auto key = [](const std::vector<std::string>& block) -> std::optional<std::string> {
    std::string config;
    for (const std::string& field : block) {
      if (field.starts_with("type ") && field != "type 3") return std::nullopt;
      if (field.starts_with("config ")) config = field.substr(7);
    }
    if (config.size() <= 10) return std::nullopt;  // no extended type above the low 32 bits
    return config.substr(config.size() - 8);
  };
  std::size_t begin = 0;
  while (begin < blocks.size()) {
    std::size_t end = begin + 1;
    const auto run_key = key(blocks[begin]);
    while (run_key && end < blocks.size() && key(blocks[end]) == run_key) ++end;
    std::sort(blocks.begin() + static_cast<std::ptrdiff_t>(begin),
              blocks.begin() + static_cast<std::ptrdiff_t>(end));
    begin = end;
  }
}

std::string show_blocks(const std::vector<std::vector<std::string>>& blocks) {
  std::string text;
  for (const auto& block : blocks) text += fmt::format("  [{}]\n", fmt::join(block, ", "));
  return text;
}

// Plain `perf stat` (no -e, no -M) on fixture trees of every vendor, with -d levels (not -a,
// whose tool defaults pmucat does not model: tests/metrics/stat_defaults_cli_test.cpp has its
// events):
// every attr perf printed, every field, in perf's order, against stat_default_events() with
// perf stat's defaults applied. perf 7.2 and later print every default attr (their defaults may
// fail to open); perf 6.1 and 6.12 stop at the first that fails (cycles, on every fake tree), so
// what they printed must begin our list. A default metric group perf cannot expand (`#slots` on
// arm64 tables, which an x86 perf cannot read) is an error on both sides.
TEST(StatDefaultsDiff, PlainPerfStatMatchesPerf) {
  OracleOptions options = OracleOptions::from_environment();
  struct Case {
    std::string tree, cpuid, flags;
  };
  const std::vector<Case> cases = {
      {"intel-spr", "GenuineIntel-6-8F-8", ""},
      {"intel-spr", "GenuineIntel-6-8F-8", "-d"},
      {"intel-spr", "GenuineIntel-6-8F-8", "-dd"},
      {"intel-spr", "GenuineIntel-6-8F-8", "-ddd"},
      {"amd-zen4", "AuthenticAMD-25-11-0", ""},
      {"amd-zen4", "AuthenticAMD-25-11-0", "-dd"},
      {"amd-zen6", "AuthenticAMD-26-50-0", ""},
      {"arm64-n1", "0x00000000410fd0c0", ""},
      {"arm-neoverse-v3", "0x00000000410fd830", ""},
      {"intel-arl-hybrid", "GenuineIntel-6-C5-0", ""},
      {"intel-adl-hybrid", "GenuineIntel-6-97-0", ""},
      {"intel-cwf", "GenuineIntel-6-DD-1", "-d"},
      // No model: perf 7.2+ opens its common table's Default metrics alone.
      {"intel-spr", "PmucatNone-0-0-0", ""},
      {"intel-spr", "PmucatNone-0-0-0", "-dd"},
  };
  const bool prints_all = oracle_semantics().has(Behaviour::metric_driven_default_stat);
  std::size_t equal = 0;
  std::size_t attrs = 0;
  std::size_t both_reject = 0;
  for (const Case& c : cases) {
    ModelSetup model;
    set_up_fixture(c.tree, c.cpuid, options, model);
    if (::testing::Test::HasFatalFailure() || ::testing::Test::IsSkipped()) return;
    OracleOptions run_options = options;
    run_options.cpuid = c.cpuid;
    run_options.command = c.flags.empty() ? "stat" : "stat " + c.flags;
    OracleRun run = run_perf(model.devices, {""}, run_options);
    ASSERT_TRUE(run.failure.empty()) << run.failure;
    ASSERT_EQ(run.results.size(), 1u);
    // Both sides read the materialised tree, dynamic types moved up alike.
    std::vector<std::vector<std::string>> theirs;
    for (auto block : run.results[0].blocks) {
      std::sort(block.begin(), block.end());
      theirs.push_back(std::move(block));
    }
    StatDefaultsOptions defaults;
    defaults.detail = static_cast<unsigned>(std::count(c.flags.begin(), c.flags.end(), 'd'));
    defaults.metrics = catalog_expand_options(*model.catalog);
    EncodeOptions encode_options;
    encode_options.semantics = oracle_semantics();
    encode_options.tool = Tool::stat;
    // The perfs that probe for extended types find none on this machine (hybrid trees).
    if (encode_options.semantics.has(Behaviour::extended_type_probe)) {
      encode_options.extended_type = ExtendedType::unsupported;
    }
    auto ours = stat_default_events(*model.catalog, defaults, encode_options);
    const std::string label = fmt::format("{} ({}) perf stat {}", c.tree, c.cpuid, c.flags);
    if (!ours) {
      EXPECT_TRUE(theirs.empty()) << label << ": pmucat " << ours.error().message << "\nperf:\n"
                                  << show_blocks(theirs);
      both_reject += theirs.empty() ? 1 : 0;
      continue;
    }
    apply_tool_defaults(ours->events, Tool::stat, encode_options.semantics);
    std::vector<std::vector<std::string>> expected;
    for (const EncodedEvent& event : ours->events) expected.push_back(printed_fields(event.attr));
    sort_per_pmu_copies(theirs);
    sort_per_pmu_copies(expected);
    const bool same = prints_all ? theirs == expected
                                 : !theirs.empty() && theirs.size() <= expected.size() &&
                                       std::equal(theirs.begin(), theirs.end(), expected.begin());
    EXPECT_TRUE(same) << label << "\npmucat:\n"
                      << show_blocks(expected) << "perf:\n"
                      << show_blocks(theirs) << "perf's output:\n"
                      << run.results[0].output.substr(0, 4000);
    equal += same ? 1 : 0;
    attrs += same ? theirs.size() : 0;
  }
  std::printf(
      "[ stat     ] plain perf stat: %zu runs, %zu equal (%zu attrs), %zu rejected by both\n",
      cases.size(), equal, attrs, both_reject);
}

INSTANTIATE_TEST_SUITE_P(MetricDiff, MetricModel, ::testing::ValuesIn(model_directories()),
                         [](const ::testing::TestParamInfo<std::string>& param_info) {
                           std::string name = param_info.param;
                           for (char& c : name)
                             c = std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return name;
                         });

}  // namespace
}  // namespace differential
PMUCAT_END_NAMESPACE
