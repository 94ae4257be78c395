// Each output format is read back by a real consumer: perl's TAP::Parser for KTAP, xmllint for
// JUnit XML, python's jsonschema for the JSON document and the KCIDB fragment.
#include <gtest/gtest.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "support/command.h"
#include "support/files.h"
#include "support/scratch_dir.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

namespace fs = std::filesystem;
using pmucat::testing::run_command;

Report broken_report(const std::string& fixture, Options options = {}) {
  fs::current_path(PMUCAT_SOURCE_DIR);
  auto catalog = Catalog::open("fixtures/sysfs/broken/" + fixture + "/devices");
  EXPECT_TRUE(catalog.has_value());
  return run(*catalog, options);
}

bool have(const std::string& probe) {
  return run_command(probe + " >/dev/null 2>&1").status == 0;
}

std::map<std::string, std::string> ktap_summaries(const std::string& ktap) {
  const pmucat::testing::ScratchDir scratch("ktap");
  fs::path file = scratch / "out.ktap";
  pmucat::testing::write_text(file, ktap);
  auto result = run_command("perl tests/check/ktap_summary.pl '" + file.string() + "'");
  EXPECT_EQ(result.status, 0) << result.out;
  std::map<std::string, std::string> by_name;
  std::istringstream in(result.out);
  std::string line;
  while (std::getline(in, line)) {
    EXPECT_EQ(line.rfind("error:", 0), std::string::npos) << line;
    auto space = line.find(' ');
    by_name[line.substr(0, space)] = line.substr(space + 1);
  }
  return by_name;
}

TEST(CheckConsumers, KtapIsAcceptedByTapParser) {
  if (!have("perl -MTAP::Parser -e 1")) GTEST_SKIP() << "perl TAP::Parser missing";
  Report report = broken_report("type");
  auto summaries = ktap_summaries(render_ktap(report));
  // devices + 6 PMUs; every PMU but nopmu, trailing fails on an error.
  EXPECT_EQ(summaries["top"], "run=7 passed=3 failed=4 skipped=0 todo=0 plan=good errors=0");
  EXPECT_EQ(summaries["sub:hextype"],
            "run=8 passed=7 failed=1 skipped=5 todo=0 plan=good errors=0");
  EXPECT_EQ(summaries["sub:nopmu"], "run=8 passed=8 failed=0 skipped=5 todo=0 plan=good errors=0");
  EXPECT_EQ(summaries.size(), 7u);
}

// A PMU directory name is bytes a tree's author chose: a newline or '#' in it must not forge a
// KTAP result line or directive.
TEST(CheckConsumers, KtapEscapesPmuNamesThatWouldForgeResults) {
  const pmucat::testing::ScratchDir scratch("ktap-names");
  const std::string evil = "x\nok 99 injected-pmu # SKIP\\";
  const fs::path devices = scratch / "devices";
  pmucat::testing::write_text(devices / evil / "type", "42\n");
  pmucat::testing::write_text(devices / "cpu" / "type", "4\n");
  auto catalog = Catalog::open(devices);
  ASSERT_TRUE(catalog.has_value());
  const std::string ktap = render_ktap(run(*catalog, {}));
  std::istringstream lines(ktap);
  std::string line;
  std::size_t results = 0;
  while (std::getline(lines, line)) {
    const std::string trimmed = line.substr(std::min(line.find_first_not_of(' '), line.size()));
    EXPECT_FALSE(trimmed.starts_with("ok 99")) << ktap;
    if (line.starts_with("ok ") || line.starts_with("not ok ")) ++results;
  }
  EXPECT_EQ(results, 3u) << ktap;  // devices, cpu and the one PMU: nothing forged
  EXPECT_NE(ktap.find(" x\\x0aok 99 injected-pmu \\# SKIP\\\\\n"), std::string::npos) << ktap;
  if (have("perl -MTAP::Parser -e 1")) {
    auto summaries = ktap_summaries(ktap);
    EXPECT_EQ(summaries["top"].substr(0, 6), "run=3 ") << summaries["top"];
  }
}

TEST(CheckConsumers, KtapMarksBaselinedFailuresTodo) {
  if (!have("perl -MTAP::Parser -e 1")) GTEST_SKIP() << "perl TAP::Parser missing";
  Options options;
  options.baseline = *parse_baseline("event-value-overflow uncore_cha_55\n", "b");
  auto summaries = ktap_summaries(render_ktap(broken_report("cha-umask", options)));
  EXPECT_EQ(summaries["top"], "run=2 passed=2 failed=0 skipped=0 todo=1 plan=good errors=0");
  EXPECT_EQ(summaries["sub:uncore_cha_55"],
            "run=8 passed=8 failed=0 skipped=2 todo=1 plan=good errors=0");
}

TEST(CheckConsumers, JunitIsWellFormedXmlWithOneCasePerCheck) {
  if (!have("xmllint --version")) GTEST_SKIP() << "xmllint missing (Debian libxml2-utils)";
  Report report = broken_report("metadata");
  const pmucat::testing::ScratchDir scratch("junit");
  fs::path file = scratch / "out.xml";
  pmucat::testing::write_text(file, render_junit(report));
  auto count = [&](const std::string& xpath) {
    auto result = run_command("xmllint --xpath '" + xpath + "' '" + file.string() + "'");
    EXPECT_EQ(result.status, 0) << xpath;
    std::string out = result.out;
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
  };
  EXPECT_EQ(count("count(//testsuite)"), "2");
  EXPECT_EQ(count("count(//testcase)"), "9");  // devices + 8 checks of `power`
  EXPECT_EQ(count("count(//testcase/failure)"), "1");
  EXPECT_EQ(count("string(//testsuite[@name=\"power\"]/@failures)"), "1");
  EXPECT_EQ(count("string(//testcase[@name=\"metadata\"]/failure/@message)"), "4 failing findings");
  // The control byte of unit-ctl.unit is escaped, so the document stays XML 1.0.
  EXPECT_EQ(run_command("xmllint --noout '" + file.string() + "'").status, 0);
}

void validate(const std::string& document, const std::string& schema) {
  const pmucat::testing::ScratchDir scratch("schema");
  fs::path file = scratch / "doc.json";
  pmucat::testing::write_text(file, document);
  auto result = run_command(
      "/usr/bin/python3 -c 'import json,sys,jsonschema; "
      "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))); "
      "print(\"valid\")' '" +
      file.string() + "' " + schema + " 2>&1");
  EXPECT_EQ(result.status, 0) << result.out;
  EXPECT_EQ(result.out, "valid\n");
}

TEST(CheckConsumers, JsonMatchesItsSchema) {
  if (!have("/usr/bin/python3 -c 'import jsonschema'"))
    GTEST_SKIP() << "python3-jsonschema missing";
  for (const char* fixture : {"terms", "files", "format-grammar"}) {
    SCOPED_TRACE(fixture);
    Report report = broken_report(fixture);
    std::string json = render_json(report);
    validate(json, "docs/schema/pmucheck.schema.json");
    auto parsed = nlohmann::json::parse(json);
    EXPECT_EQ(parsed["summary"]["errors"], report.count(Severity::error));
    EXPECT_EQ(parsed["summary"]["status"], "fail");
  }
}

TEST(CheckConsumers, SchemaRejectsAMalformedDocument) {
  if (!have("/usr/bin/python3 -c 'import jsonschema'"))
    GTEST_SKIP() << "python3-jsonschema missing";
  auto parsed = nlohmann::json::parse(render_json(broken_report("names")));
  parsed["pmus"][0]["checks"][0]["status"] = "maybe";
  const pmucat::testing::ScratchDir scratch("schema-bad");
  fs::path file = scratch / "doc.json";
  pmucat::testing::write_text(file, parsed.dump());
  auto result = run_command(
      "/usr/bin/python3 -c 'import json,sys,jsonschema; "
      "jsonschema.validate(json.load(open(sys.argv[1])), json.load(open(sys.argv[2])))' '" +
      file.string() + "' docs/schema/pmucheck.schema.json 2>/dev/null");
  EXPECT_NE(result.status, 0);
}

std::set<std::string> kcidb_ids(const std::string& json) {
  std::set<std::string> ids;
  const nlohmann::json parsed = nlohmann::json::parse(json);
  for (const auto& test : parsed["tests"]) {
    ids.insert(test["id"].get<std::string>());
  }
  return ids;
}

// KCIDB takes an id as naming one submission: two runs never share an id (neither
// `<origin>:<path>` nor a placeholder build is unique); a supplied run id makes the output
// reproducible.
TEST(CheckConsumers, KcidbIdsAreUniqueToTheRun) {
  Report report = broken_report("cha-umask");
  ::unsetenv("PMUCAT_KCIDB_RUN_ID");
  const std::string first = render_kcidb(report, {});
  const std::string second = render_kcidb(report, {});
  const std::set<std::string> first_ids = kcidb_ids(first);
  const std::set<std::string> second_ids = kcidb_ids(second);
  ASSERT_EQ(first_ids.size(), 9u);
  for (const std::string& id : first_ids) EXPECT_EQ(second_ids.count(id), 0u) << id;
  const auto parsed = nlohmann::json::parse(first);
  EXPECT_NE(parsed["tests"][0]["build_id"], "pmucheck:build");
  EXPECT_NE(parsed["tests"][0]["build_id"], nlohmann::json::parse(second)["tests"][0]["build_id"]);
  EXPECT_NE(make_kcidb_run_id(), make_kcidb_run_id());

  KcidbOptions options;
  options.run_id = "run-7";
  const std::string fixed = render_kcidb(report, options);
  EXPECT_EQ(fixed, render_kcidb(report, options));
  const auto fixed_parsed = nlohmann::json::parse(fixed);
  EXPECT_EQ(fixed_parsed["tests"][0]["id"], "pmucheck:run-7:pmu_sysfs.devices.entries");
  EXPECT_EQ(fixed_parsed["tests"][0]["build_id"], "pmucheck:run-7");

  ::setenv("PMUCAT_KCIDB_RUN_ID", "from-env", 1);
  EXPECT_EQ(nlohmann::json::parse(render_kcidb(report, {}))["tests"][0]["id"],
            "pmucheck:from-env:pmu_sysfs.devices.entries");
  ::unsetenv("PMUCAT_KCIDB_RUN_ID");
}

TEST(CheckConsumers, KcidbFragmentMatchesTheV5TestSchema) {
  if (!have("/usr/bin/python3 -c 'import jsonschema'"))
    GTEST_SKIP() << "python3-jsonschema missing";
  KcidbOptions options;
  options.origin = "ourci";
  options.build_id = "ourci:build-42";
  Report report = broken_report("cha-umask");
  std::string json = render_kcidb(report, options);
  validate(json, "tests/check/kcidb-v5-tests.schema.json");
  auto parsed = nlohmann::json::parse(json);
  ASSERT_EQ(parsed["tests"].size(), 9u);
  bool failed = false;
  for (const auto& test : parsed["tests"]) {
    EXPECT_EQ(test["build_id"], "ourci:build-42");
    if (test["path"] == "pmu_sysfs.uncore_cha_55.events") {
      EXPECT_EQ(test["status"], "FAIL");
      failed = true;
    }
  }
  EXPECT_TRUE(failed);
}

}  // namespace
}  // namespace check
PMUCAT_END_NAMESPACE
