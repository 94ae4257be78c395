// Rules across PMUs (duplicate types) and over PMU names; the catalog reports unreadable or
// malformed type, cpumask and cpus files itself.
#include <fmt/core.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <system_error>

#include "context.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {
namespace {

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())))
    text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
    text.remove_suffix(1);
  return text;
}

}  // namespace

namespace {

bool is_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
}

// The text after the last '_' when it is one or two hex digits with a letter (`_1f`, `_a`):
// perf takes only decimal or 3+ hex digit suffixes as instance numbers.
std::optional<std::string_view> short_hex_suffix(std::string_view name) {
  auto underscore = name.rfind('_');
  if (underscore == std::string_view::npos || underscore == 0) return std::nullopt;
  std::string_view suffix = name.substr(underscore + 1);
  bool hex = std::all_of(suffix.begin(), suffix.end(),
                         [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; });
  bool letter = std::any_of(suffix.begin(), suffix.end(), [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) != 0;
  });
  if (suffix.empty() || suffix.size() > 2 || !hex || !letter) return std::nullopt;
  return suffix;
}

}  // namespace

std::vector<Finding> check_pmu_names(const Catalog& catalog,
                                     const std::vector<const Pmu*>& selected) {
  // Only a name with siblings is meant as an instance (`amd_df` alone is just a name).
  std::map<std::string, int> instances_of;
  for (const Pmu& pmu : catalog.pmus()) {
    auto underscore = pmu.name().rfind('_');
    if (underscore == std::string::npos) continue;
    std::string_view suffix = std::string_view(pmu.name()).substr(underscore + 1);
    bool hex = !suffix.empty() && std::all_of(suffix.begin(), suffix.end(), [](char c) {
      return std::isxdigit(static_cast<unsigned char>(c)) != 0;
    });
    if (hex) ++instances_of[pmu.name().substr(0, underscore)];
  }
  std::vector<Finding> findings;
  for (const Pmu* pmu : selected) {
    const std::string& name = pmu->name();
    if (auto bad = std::find_if_not(name.begin(), name.end(), is_name_byte); bad != name.end()) {
      Finding finding;
      finding.rule = to_string(DiagId::pmu_name_charset);
      finding.group = Group::pmu_name;
      finding.pmu = name;
      const std::string file = pmu->path().empty() ? name : pmu->path().string();
      finding.file = relative_to(file, catalog.devices_dir());
      finding.diagnostic = make_file_diagnostic(
          Severity::warning, DiagId::pmu_name_charset, file,
          fmt::format("PMU name '{}' has the byte {:#04x}, outside [A-Za-z0-9._-]", name,
                      static_cast<unsigned char>(*bad)));
      findings.push_back(std::move(finding));
    }
    auto suffix = short_hex_suffix(name);
    if (!suffix) continue;
    std::string base = name.substr(0, name.size() - suffix->size() - 1);
    if (instances_of[base] < 2) continue;
    std::string file = pmu->path().empty() ? name : pmu->path().string();
    auto diagnostic = make_diagnostic(
        Severity::warning, DiagId::pmu_name_suffix, file, name, base.size() + 1, suffix->size(),
        fmt::format("PMU '{}' looks like an instance of '{}', but perf does not take '_{}' as an "
                    "instance suffix",
                    name, base, *suffix));
    diagnostic.hint = fmt::format(
        "'{}' will not select this PMU; number instances in decimal or with 3+ hex digits", base);
    Finding finding;
    finding.rule = to_string(DiagId::pmu_name_suffix);
    finding.group = Group::pmu_name;
    finding.pmu = name;
    finding.file = relative_to(file, catalog.devices_dir());
    finding.diagnostic = std::move(diagnostic);
    findings.push_back(std::move(finding));
  }
  return findings;
}

std::vector<Finding> check_duplicate_types(const Catalog& catalog,
                                           const std::vector<const Pmu*>& selected) {
  std::map<std::uint32_t, std::vector<const Pmu*>> by_type;
  for (const Pmu& pmu : catalog.pmus()) {
    if (auto type = pmu.type()) by_type[*type].push_back(&pmu);
  }
  std::vector<Finding> findings;
  for (const Pmu* pmu : selected) {
    auto type = pmu->type();
    if (!type) continue;
    const auto& owners = by_type[*type];
    if (owners.size() < 2) continue;
    std::string others;
    for (const Pmu* other : owners) {
      if (other == pmu) continue;
      if (!others.empty()) others += ", ";
      others += other->name();
    }
    std::string file = pmu->path().empty() ? pmu->name() : (pmu->path() / "type").string();
    const std::string& text = pmu->attributes().type_text;
    std::string_view trimmed = trim(text);
    std::size_t offset = static_cast<std::size_t>(trimmed.data() - text.data());
    auto diagnostic = make_diagnostic(Severity::error, DiagId::type_duplicate, file, text,
                                      trimmed.empty() ? 0 : offset, trimmed.size(),
                                      fmt::format("type {} is also the type of {}", *type, others));
    Finding finding;
    finding.rule = to_string(DiagId::type_duplicate);
    finding.group = Group::attributes;
    finding.pmu = pmu->name();
    finding.file = relative_to(file, catalog.devices_dir());
    finding.diagnostic = std::move(diagnostic);
    findings.push_back(std::move(finding));
  }
  return findings;
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
