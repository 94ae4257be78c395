// Helpers shared by the check tests: running tools, reading files, building in-memory PMUs.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/format.h"
#include "pmucat/terms.h"

namespace pmucat::check::testing {

struct CommandResult {
  int status = -1;
  std::string out;
};

// Runs `command` with /bin/sh from the source root; stdout is captured, stderr passes through.
inline CommandResult run_command(const std::string& command) {
  CommandResult result;
  std::string full = "cd '" PMUCAT_SOURCE_DIR "' && " + command;
  FILE* pipe = popen(full.c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[4096];
  std::size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, got);
  int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

inline std::string tool(const std::string& name) {
  return std::string(PMUCAT_BINARY_DIR) + "/cli/" + name + "/" + name;
}

inline std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A fresh directory below the build tree, removed first if it exists. The process id keeps
// tests that ctest runs in parallel (one process each) apart.
inline std::filesystem::path scratch_dir(const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(PMUCAT_BINARY_DIR) / "check-scratch" /
                              (name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

// The distinct rule ids of a report.
inline std::set<std::string> rule_ids(const Report& report) {
  std::set<std::string> ids;
  for (const Finding& finding : report.all_findings()) ids.insert(finding.rule);
  return ids;
}

// A PMU built from format and event texts, as if read from files named after them.
inline Pmu make_pmu(const std::string& name, std::uint32_t type,
                    const std::vector<std::pair<std::string, std::string>>& formats,
                    const std::vector<std::pair<std::string, std::string>>& events) {
  PmuInfo info;
  info.name = name;
  info.attributes.type = type;
  info.attributes.type_text = std::to_string(type) + "\n";
  for (const auto& [format_name, text] : formats) {
    std::string path = name + "/format/" + format_name;
    auto spec = parse_format(text, path);
    if (!spec) continue;
    info.formats.push_back(Format{format_name, *spec, path, text});
  }
  for (const auto& [event_name, text] : events) {
    Event event;
    event.name = event_name;
    event.path = name + "/events/" + event_name;
    event.text = text;
    event.metadata_loaded = true;
    auto terms = parse_terms(text, event.path);
    if (terms) {
      event.terms = *terms;
    } else {
      event.error = terms.error();
    }
    info.events.push_back(std::move(event));
  }
  std::sort(info.formats.begin(), info.formats.end(),
            [](const Format& a, const Format& b) { return a.name < b.name; });
  std::sort(info.events.begin(), info.events.end(),
            [](const Event& a, const Event& b) { return a.name < b.name; });
  return Pmu::from_info(std::move(info));
}

}  // namespace pmucat::check::testing
