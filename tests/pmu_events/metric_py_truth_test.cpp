// Every metric of every table of linux 6.12, read with pmucat under 6.12's rules, against the
// expression perf 6.12's own build wrote into its generated pmu-events.c. Needs both the JSON
// tree and a perf 6.12 build (scripts/perf-oracle-6.12.sh); skipped with a message otherwise.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "pmucat/metric_expr.h"
#include "pmucat/vendor_events.h"

namespace fs = std::filesystem;

PMUCAT_BEGIN_NAMESPACE
namespace {

// (PMU table, MetricName, MetricExpr) as perf's table holds them.
using Entry = std::tuple<std::string, std::string, std::string>;
using Tables = std::map<std::string, std::multiset<Entry>>;

// The C escapes jevents writes in its string comments: `\\`, `\"`, `\n`, `\r`; `\000` is the
// field separator and is split on before this runs.
std::string c_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '\\' || i + 1 >= s.size()) {
      out += s[i];
      continue;
    }
    const char c = s[++i];
    out += c == 'n' ? '\n' : c == 'r' ? '\r' : c;
  }
  return out;
}

std::vector<std::string> split_fields(std::string_view s) {
  std::vector<std::string> fields;
  while (true) {
    const std::size_t at = s.find("\\000");
    fields.push_back(c_unescape(s.substr(0, at)));
    if (at == std::string_view::npos) break;
    s.remove_prefix(at + 4);
  }
  return fields;
}

// The metric tables of a generated pmu-events.c: each `pmu_table_entry pmu_metrics__T[]` names
// its per-PMU arrays and their PMU; each array entry carries the entry's string in a comment
// (name\000group\000expr\000...).
Tables read_perf_tables(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(std::move(line));

  constexpr std::string_view kArray = "static const struct compact_pmu_event pmu_metrics__";
  constexpr std::size_t kArrayNameAt = kArray.size() - std::string_view("pmu_metrics__").size();
  constexpr std::string_view kTable = "const struct pmu_table_entry pmu_metrics__";
  std::map<std::string, std::vector<Entry>> arrays;  // array name -> entries, PMU still empty
  std::map<std::string, std::pair<std::string, std::string>> array_owner;  // -> (table, PMU)
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const std::string& line = lines[i];
    if (line.starts_with(kArray)) {
      const std::string array = line.substr(kArrayNameAt, line.find('[') - kArrayNameAt);
      std::vector<Entry>& entries = arrays[array];
      for (++i; i < lines.size() && !lines[i].starts_with("};"); ++i) {
        const std::size_t open = lines[i].find("/* ");
        const std::size_t close = lines[i].rfind(" */");
        if (open == std::string::npos || close == std::string::npos || close < open) continue;
        const std::vector<std::string> fields =
            split_fields(std::string_view(lines[i]).substr(open + 3, close - open - 3));
        if (fields.size() < 3) continue;
        entries.emplace_back(std::string(), fields[0], fields[2]);
      }
    } else if (line.starts_with(kTable)) {
      const std::string table = line.substr(kTable.size(), line.find('[') - kTable.size());
      std::string array;
      for (++i; i < lines.size() && !lines[i].starts_with("};"); ++i) {
        const std::string& l = lines[i];
        if (const std::size_t at = l.find(".entries = "); at != std::string::npos) {
          array = l.substr(at + 11, l.find(',', at) - at - 11);
        } else if (const std::size_t name = l.find(".pmu_name = { "); name != std::string::npos) {
          const std::size_t open = l.find("/* ", name);
          const std::size_t end = l.find("\\000", open);
          if (open != std::string::npos && end != std::string::npos) {
            array_owner[array] = {table, l.substr(open + 3, end - open - 3)};
          }
        }
      }
    }
  }
  Tables tables;
  for (auto& [array, entries] : arrays) {
    const auto owner = array_owner.find(array);
    if (owner == array_owner.end()) continue;
    for (Entry& entry : entries) {
      std::get<0>(entry) = owner->second.second;
      tables[owner->second.first].insert(std::move(entry));
    }
  }
  return tables;
}

// perf's table name of a model directory: its path under the architecture, '/' and '-' as '_'.
std::string table_name(const fs::path& relative) {
  std::string name = relative.generic_string();
  std::replace(name.begin(), name.end(), '/', '_');
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

bool has_json_file(const fs::path& dir) {
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") return true;
  }
  return false;
}

// pmucat's view of the same tables: every directory below an architecture that holds JSON
// files, read as a model under 6.12's rules.
Tables read_pmucat_tables(const fs::path& root, std::vector<std::string>& unparsed) {
  Tables tables;
  for (const fs::directory_entry& arch : fs::directory_iterator(root)) {
    if (!arch.is_directory()) continue;
    for (const fs::directory_entry& dir : fs::recursive_directory_iterator(arch.path())) {
      if (!dir.is_directory() || !has_json_file(dir.path())) continue;
      const fs::path relative = fs::relative(dir.path(), arch.path());
      Expected<VendorModel> model =
          load_vendor_model(arch.path(), relative.generic_string(), PerfRelease::v6_12);
      if (!model) {
        ADD_FAILURE() << dir.path() << ": " << model.error().message;
        continue;
      }
      // The written text, as 6.1's rules keep it: a stored expression pmucat's own parser
      // refuses is a regression only when it took the written one.
      std::map<std::pair<std::string, std::string>, std::string> written;
      if (Expected<VendorModel> old =
              load_vendor_model(arch.path(), relative.generic_string(), PerfRelease::v6_1)) {
        for (const VendorMetric& metric : old->metrics) {
          written[{metric.pmu, metric.name}] = metric.expr;
        }
      }
      for (const VendorMetric& metric : model->metrics) {
        tables[table_name(relative)].emplace(metric.pmu.empty() ? "default_core" : metric.pmu,
                                             metric.name, metric.expr);
        if (metric_expr::parse(metric.expr)) continue;
        const auto before = written.find({metric.pmu, metric.name});
        if (before != written.end() && metric_expr::parse(before->second)) {
          unparsed.push_back(relative.generic_string() + " " + metric.name + ": " + before->second +
                             " -> " + metric.expr);
        }
      }
    }
  }
  return tables;
}

TEST(MetricPyTruth, EveryMetricExpressionIsTheOnePerf612Stores) {
  const fs::path json_root = PMUCAT_TEST_EVENTS_DIR_6_12;
  const fs::path perf_c = PMUCAT_PERF_6_12_PMU_EVENTS_C;
  if (json_root.empty() || !fs::is_directory(json_root)) {
    GTEST_SKIP() << "no linux 6.12 events dir (PMUCAT_PMU_EVENTS_DIR or the 6.12 source tarball)";
  }
  if (!fs::is_regular_file(perf_c)) {
    GTEST_SKIP() << "no " << perf_c.string()
                 << " (perf 6.12's generated tables; scripts/perf-oracle-6.12.sh builds them)";
  }
  const Tables perf = read_perf_tables(perf_c);
  ASSERT_FALSE(perf.empty()) << "no metric table found in " << perf_c;
  std::vector<std::string> unparsed;
  const Tables ours = read_pmucat_tables(json_root, unparsed);

  std::size_t compared = 0;
  std::vector<std::string> differences;
  std::set<std::string> names;
  for (const auto& [name, entries] : perf) names.insert(name);
  for (const auto& [name, entries] : ours) names.insert(name);
  for (const std::string& name : names) {
    const auto p = perf.find(name);
    const auto o = ours.find(name);
    const std::multiset<Entry> empty;
    const std::multiset<Entry>& in_perf = p == perf.end() ? empty : p->second;
    const std::multiset<Entry>& in_ours = o == ours.end() ? empty : o->second;
    compared += in_perf.size();
    std::vector<Entry> only_perf;
    std::vector<Entry> only_ours;
    std::set_difference(in_perf.begin(), in_perf.end(), in_ours.begin(), in_ours.end(),
                        std::back_inserter(only_perf));
    std::set_difference(in_ours.begin(), in_ours.end(), in_perf.begin(), in_perf.end(),
                        std::back_inserter(only_ours));
    for (const auto& [pmu, metric, expr] : only_perf) {
      differences.push_back(name + " " + pmu + " " + metric + "\n    perf 6.12: " + expr);
    }
    for (const auto& [pmu, metric, expr] : only_ours) {
      differences.push_back(name + " " + pmu + " " + metric + "\n    pmucat:    " + expr);
    }
  }
  std::ostringstream report;
  for (std::size_t i = 0; i < differences.size() && i < 40; ++i) report << differences[i] << '\n';
  std::cout << "[ metric.py ] " << compared << " metrics of " << perf.size()
            << " perf 6.12 tables compared, " << differences.size() << " differing entries\n";
  EXPECT_GT(compared, 0U);
  EXPECT_TRUE(differences.empty()) << report.str();
  // Whatever perf 6.12 prints must stay readable by pmucat's own expression parser where the
  // written text was (6.12's has_event and new literals are refused either way).
  std::ostringstream unparsed_report;
  for (std::size_t i = 0; i < unparsed.size() && i < 20; ++i)
    unparsed_report << unparsed[i] << '\n';
  EXPECT_TRUE(unparsed.empty()) << unparsed.size()
                                << " stored expressions pmucat's metric parser refuses but not "
                                   "their written text:\n"
                                << unparsed_report.str();
}

}  // namespace
PMUCAT_END_NAMESPACE
