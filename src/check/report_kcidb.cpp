// A KCIDB v5 `tests` fragment: the caller merges it into a submission with its own build.
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <random>

#include "pmucat/version.h"
#include "reporters.h"

PMUCAT_BEGIN_NAMESPACE
namespace check {
namespace {

// KCIDB paths are dot-separated, so dots inside a PMU name would add levels.
std::string path_part(std::string_view text) {
  std::string out(text);
  std::replace(out.begin(), out.end(), '.', '_');
  std::replace(out.begin(), out.end(), '-', '_');
  return out;
}

constexpr std::size_t kMaxLogExcerpt = 16384;  // KCIDB's limit on log_excerpt

// The identity of this run that every id carries (see KcidbOptions).
struct RunIdentity {
  std::string run_id;
  std::string build_id;
};

RunIdentity run_identity(const KcidbOptions& options) {
  RunIdentity identity;
  identity.run_id = options.run_id;
  if (identity.run_id.empty()) {
    const char* given = std::getenv("PMUCAT_KCIDB_RUN_ID");
    identity.run_id = given != nullptr && *given != '\0' ? given : make_kcidb_run_id();
  }
  identity.build_id =
      options.build_id.empty() ? options.origin + ":" + identity.run_id : options.build_id;
  return identity;
}

nlohmann::json test_json(const KcidbOptions& options, const RunIdentity& identity,
                         const Report& report, std::string_view pmu, std::string_view check,
                         const std::vector<Finding>& findings, bool applicable) {
  std::string path = options.path_prefix + "." + path_part(pmu) + "." + path_part(check);
  bool fails = std::any_of(findings.begin(), findings.end(),
                           [&](const Finding& f) { return report.fails(f); });
  std::string excerpt;
  nlohmann::json misc_findings = nlohmann::json::array();
  for (const Finding& finding : findings) {
    excerpt += detail::plain_text(finding);
    misc_findings.push_back(detail::finding_json(finding));
  }
  if (excerpt.size() > kMaxLogExcerpt) excerpt.resize(kMaxLogExcerpt);
  nlohmann::json test = {
      {"id", options.origin + ":" + identity.run_id + ":" + path},
      {"build_id", identity.build_id},
      {"origin", options.origin},
      {"path", path},
      {"status", !applicable ? "SKIP" : (fails ? "FAIL" : "PASS")},
      {"misc", {{"findings", misc_findings}}},
  };
  if (!excerpt.empty()) test["log_excerpt"] = excerpt;
  return test;
}

}  // namespace

std::string make_kcidb_run_id() {
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  std::random_device random;
  const auto now = std::chrono::system_clock::now();
  const std::size_t seed = std::hash<std::string>{}(fmt::format(
      "{}/{}/{}/{}/{}", host, ::getpid(), now.time_since_epoch().count(), random(), random()));
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  ::gmtime_r(&seconds, &utc);
  char time_text[32] = {};
  std::strftime(time_text, sizeof time_text, "%Y%m%dT%H%M%SZ", &utc);
  return fmt::format("{}-{:08x}", time_text, static_cast<std::uint32_t>(seed ^ (seed >> 32)));
}

std::string render_kcidb(const Report& report, const KcidbOptions& options) {
  const RunIdentity identity = run_identity(options);
  nlohmann::json tests = nlohmann::json::array();
  tests.push_back(test_json(options, identity, report, detail::kTreeTestName, "entries",
                            report.tree_findings, true));
  for (const PmuReport& pmu : report.pmus) {
    for (const GroupResult& group : pmu.groups) {
      tests.push_back(test_json(options, identity, report, pmu.name, to_string(group.group),
                                group.findings, group.applicable));
    }
  }
  nlohmann::json out = {{"version", {{"major", 5}, {"minor", 3}}}, {"tests", tests}};
  return out.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace check
PMUCAT_END_NAMESPACE
