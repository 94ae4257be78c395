// JUnit XML as GitLab and Jenkins read it: a testsuite per PMU, a testcase per check.
#include <fmt/core.h>

#include "pmucat/version.h"
#include "reporters.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

// Escapes for XML 1.0 text and attributes; bytes XML cannot carry at all become \xNN.
std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    auto byte = static_cast<unsigned char>(c);
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (byte < 0x20 && c != '\n' && c != '\t') {
          out += fmt::format("\\x{:02x}", byte);
        } else {
          out += c;
        }
    }
  }
  return out;
}

struct SuiteText {
  std::string xml;
  std::size_t tests = 0, failures = 0, skipped = 0;
};

void add_case(SuiteText& suite, std::string_view suite_name, std::string_view name,
              const Report& report, const std::vector<Finding>& findings, bool applicable,
              std::string_view skip_reason) {
  ++suite.tests;
  std::string text;
  bool fails = false;
  std::size_t failing = 0;
  for (const Finding& finding : findings) {
    text += detail::plain_text(finding);
    if (report.fails(finding)) {
      fails = true;
      ++failing;
    }
  }
  suite.xml += fmt::format("    <testcase classname=\"pmucheck.{}\" name=\"{}\"",
                           xml_escape(suite_name), xml_escape(name));
  if (applicable && findings.empty()) {
    suite.xml += "/>\n";
    return;
  }
  suite.xml += ">\n";
  if (!applicable) {
    ++suite.skipped;
    suite.xml += fmt::format("      <skipped message=\"{}\"/>\n", xml_escape(skip_reason));
  } else if (fails) {
    ++suite.failures;
    suite.xml += fmt::format(
        "      <failure type=\"pmucheck\" message=\"{} failing finding{}\">{}</failure>\n", failing,
        failing == 1 ? "" : "s", xml_escape(text));
  } else {
    suite.xml += fmt::format("      <system-out>{}</system-out>\n", xml_escape(text));
  }
  suite.xml += "    </testcase>\n";
}

std::string suite_xml(std::string_view name, const SuiteText& suite) {
  return fmt::format(
      "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n{}"
      "  </testsuite>\n",
      xml_escape(name), suite.tests, suite.failures, suite.skipped, suite.xml);
}

}  // namespace

std::string render_junit(const Report& report) {
  std::string body;
  std::size_t tests = 0, failures = 0, skipped = 0;
  auto account = [&](const SuiteText& suite) {
    tests += suite.tests;
    failures += suite.failures;
    skipped += suite.skipped;
  };
  SuiteText tree;
  add_case(tree, detail::kTreeTestName, detail::kTreeTestName, report, report.tree_findings, true,
           "");
  body += suite_xml(detail::kTreeTestName, tree);
  account(tree);
  for (const PmuReport& pmu : report.pmus) {
    SuiteText suite;
    for (const GroupResult& group : pmu.groups) {
      add_case(suite, pmu.name, to_string(group.group), report, group.findings, group.applicable,
               group.skip_reason);
    }
    body += suite_xml(pmu.name, suite);
    account(suite);
  }
  return fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<testsuites name=\"pmucheck\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n"
      "{}</testsuites>\n",
      tests, failures, skipped, body);
}

}  // namespace check
PMUCAT_END_NAMESPACE
