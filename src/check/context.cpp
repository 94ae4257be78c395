#include "context.h"

#include <fmt/core.h>

#include <bit>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/metadata.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {

std::string PmuContext::path_of(std::string_view relative) const {
  return (pmu_.path() / std::filesystem::path(relative)).string();
}

Finding PmuContext::make(std::string rule, Diagnostic diagnostic) const {
  Finding finding;
  set_id(diagnostic, rule);
  const Rule* known = find_rule(rule);
  finding.group = known != nullptr ? known->group : group_for_path(diagnostic.range.file);
  // Unreadable and oversized files belong to the check of the file they hide.
  if (diagnostic.code == DiagId::file_unreadable || diagnostic.code == DiagId::file_too_large) {
    finding.group = group_for_path(diagnostic.range.file);
  }
  if (known != nullptr) diagnostic.severity = known->severity;
  finding.rule = std::move(rule);
  finding.pmu = pmu_.name();
  finding.file = relative_to(diagnostic.range.file, devices_dir_);
  finding.diagnostic = std::move(diagnostic);
  return finding;
}

void PmuContext::add(DiagId rule, Diagnostic diagnostic) {
  findings_.push_back(make(std::string(to_string(rule)), std::move(diagnostic)));
}

void PmuContext::add(std::string_view rule, Diagnostic diagnostic) {
  findings_.push_back(make(std::string(rule), std::move(diagnostic)));
}

void PmuContext::add_passthrough(Diagnostic diagnostic) {
  std::string rule =
      diagnostic.id.empty() ? std::string(to_string(DiagId::library_diagnostic)) : diagnostic.id;
  findings_.push_back(make(std::move(rule), std::move(diagnostic)));
}

std::string relative_to(std::string_view path, const std::filesystem::path& devices_dir) {
  if (path.empty() || devices_dir.empty()) return std::string(path);
  std::filesystem::path p{std::string(path)};
  auto relative = p.lexically_normal().lexically_relative(devices_dir.lexically_normal());
  if (relative.empty() || *relative.begin() == "..") return std::string(path);
  return relative.generic_string();
}

Group group_for_path(std::string_view path) {
  std::filesystem::path p{std::string(path)};
  std::string parent = p.parent_path().filename().string();
  std::string name = p.filename().string();
  if (parent == "format") return Group::format;
  if (parent == "events") {
    return metadata_suffix(name) == MetadataSuffix::none ? Group::events : Group::metadata;
  }
  if (name == "cpumask" || name == "cpus") return Group::cpumask;
  if (name == "format" || name == "events") return name == "format" ? Group::format : Group::events;
  return Group::attributes;
}

std::string bits_text(std::uint64_t mask) {
  std::string out;
  int bit = 0;
  while (bit < 64) {
    if (((mask >> bit) & 1U) == 0) {
      ++bit;
      continue;
    }
    int end = bit;
    while (end + 1 < 64 && ((mask >> (end + 1)) & 1U) != 0) ++end;
    if (!out.empty()) out += ',';
    out += end == bit ? fmt::format("{}", bit) : fmt::format("{}-{}", bit, end);
    bit = end + 1;
  }
  return out;
}

std::uint64_t range_mask(std::uint32_t first, std::uint32_t last) {
  if (first > last) std::swap(first, last);
  if (first > 63) return 0;
  if (last > 63) last = 63;
  std::uint64_t width = last - first + 1;
  std::uint64_t ones = width == 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << width) - 1);
  return ones << first;
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
