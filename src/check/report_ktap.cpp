// KTAP v1 (Documentation/dev-tools/ktap.rst): one test per PMU, one subtest per check.
#include <fmt/core.h>

#include "pmucat/version.h"
#include "reporters.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

// Every line of `text` as a KTAP diagnostic line at `indent`.
void add_diagnostic_lines(std::string& out, std::string_view indent, std::string_view text) {
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    out += fmt::format("{}#{}{}\n", indent, line.empty() ? "" : " ", line);
    start = end + 1;
  }
}

// A test name as KTAP's result and Subtest lines may carry it: the description ends at a '#'
// (where a directive starts) or a newline (where the line ends), so a PMU directory named with
// either would forge results. Those, the escape character and other control bytes are escaped.
std::string description(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '#' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out += c;
    }
  }
  return out;
}

bool has_baselined_failure(const std::vector<Finding>& findings) {
  for (const Finding& finding : findings) {
    if (finding.baselined && finding.diagnostic.severity != Severity::note) return true;
  }
  return false;
}

// `ok`/`not ok` plus the directive: a group whose only failures are baselined is an expected
// failure (TODO), so TAP consumers count it as passing.
std::string result_line(std::string_view indent, std::size_t number, std::string_view name,
                        bool fails, bool known_failures, std::string_view skip_reason) {
  if (!skip_reason.empty()) {
    return fmt::format("{}ok {} {} # SKIP {}\n", indent, number, name, skip_reason);
  }
  if (fails) return fmt::format("{}not ok {} {}\n", indent, number, name);
  if (known_failures) {
    return fmt::format("{}not ok {} {} # TODO known findings (baseline)\n", indent, number, name);
  }
  return fmt::format("{}ok {} {}\n", indent, number, name);
}

}  // namespace

std::string render_ktap(const Report& report) {
  std::string out = "KTAP version 1\n";
  out += fmt::format("1..{}\n", report.pmus.size() + 1);
  for (const Finding& finding : report.tree_findings) {
    add_diagnostic_lines(out, "", detail::plain_text(finding));
  }
  out += result_line("", 1, detail::kTreeTestName, detail::tree_fails(report),
                     has_baselined_failure(report.tree_findings), "");
  std::size_t number = 1;
  for (const PmuReport& pmu : report.pmus) {
    ++number;
    const std::string name = description(pmu.name);
    out += fmt::format("  KTAP version 1\n  # Subtest: {}\n  1..{}\n", name, pmu.groups.size());
    bool known = false;
    std::size_t sub = 0;
    for (const GroupResult& group : pmu.groups) {
      ++sub;
      for (const Finding& finding : group.findings) {
        add_diagnostic_lines(out, "  ", detail::plain_text(finding));
      }
      bool group_known = has_baselined_failure(group.findings);
      known = known || group_known;
      out += result_line("  ", sub, to_string(group.group), detail::group_fails(report, group),
                         group_known, group.applicable ? "" : group.skip_reason);
    }
    out += result_line("", number, name, detail::pmu_fails(report, pmu), known, "");
  }
  return out;
}

}  // namespace check
PMUCAT_END_NAMESPACE
