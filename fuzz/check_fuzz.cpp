// check::run (every rule but the live ones) and all five reporters on a tree built from the input
// (tree_codec.h). Invariants: JSON reports parse as JSON; a baseline written from the findings
// parses back and covers every one of them.
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "fuzz_target.h"
#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "tree_codec.h"

namespace {

using pmucat::Catalog;
namespace check = pmucat::check;

std::optional<Catalog> open_catalog(const std::filesystem::path& root) {
  auto catalog = Catalog::open(root);
  if (!catalog) catalog = Catalog::open(root / "devices");
  if (!catalog) return std::nullopt;
  return std::move(*catalog);
}

check::Options all_offline_rules() {
  check::Options options;
  for (const check::Rule& rule : check::rules()) {
    if (!rule.enabled_by_default && rule.group != check::Group::live) {
      options.enabled.emplace_back(rule.id);
    }
  }
  options.werror = true;
  return options;
}

void check_json(const std::string& text) {
  PMUCAT_FUZZ_CHECK(!nlohmann::json::parse(text, nullptr, false).is_discarded());
}

void check_report(const check::Report& report) {
  PMUCAT_FUZZ_CHECK(!check::render_text(report, {.color = true}).empty());
  PMUCAT_FUZZ_CHECK(!check::render_ktap(report).empty());
  PMUCAT_FUZZ_CHECK(!check::render_junit(report).empty());
  check_json(check::render_json(report));
  check_json(check::render_kcidb(report));

  const std::vector<check::Finding> findings = report.all_findings();
  auto baseline = check::parse_baseline(check::format_baseline(findings), "<baseline>");
  PMUCAT_FUZZ_CHECK(baseline.has_value());
  for (const check::Finding& finding : findings) PMUCAT_FUZZ_CHECK(baseline->covers(finding));
  (void)check::exit_status(report, report.werror);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto entries = pmucat::fuzz::decode_tree({data, size});
  const pmucat::fuzz::ScratchDir dir;  // outlives the catalog below
  pmucat::fuzz::write_tree(dir.path(), entries);
  const std::optional<Catalog> catalog = open_catalog(dir.path());
  if (!catalog) return 0;
  check_report(check::run(*catalog, check::Options{}));
  check_report(check::run(*catalog, all_offline_rules()));
  return 0;
}
