// The diagnostic id table (include/pmucat/diagnostic_ids.def) as data.
#include "pmucat/diagnostic_ids.h"

#include <algorithm>
#include <array>

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr std::array kTable = {
#define PMUCAT_DIAG(name, id, severity, summary) \
  DiagInfo{DiagId::name, id, Severity::severity, std::nullopt, summary},
#define PMUCAT_DIAG_UNDER(name, id, severity, rule, summary) \
  DiagInfo{DiagId::name, id, Severity::severity, DiagId::rule, summary},
#define PMUCAT_RULE(name, id, severity, group, enabled_by_default, rationale) \
  DiagInfo{DiagId::name, id, Severity::severity, DiagId::name, rationale},
#include "pmucat/diagnostic_ids.def"
};

// info() indexes the table by enum value: both come from the same rows in the same order.
constexpr bool table_in_enum_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i) {
    if (static_cast<std::size_t>(kTable[i].id) != i) return false;
  }
  return true;
}
static_assert(table_in_enum_order());

}  // namespace

std::span<const DiagInfo> diagnostic_ids() {
  return kTable;
}

const DiagInfo& info(DiagId id) {
  return kTable[static_cast<std::size_t>(id)];
}

std::string_view to_string(DiagId id) {
  return info(id).name;
}

std::optional<DiagId> find_diagnostic_id(std::string_view name) {
  auto it = std::find_if(kTable.begin(), kTable.end(),
                         [&](const DiagInfo& entry) { return entry.name == name; });
  if (it == kTable.end()) return std::nullopt;
  return it->id;
}

void set_id(Diagnostic& diagnostic, DiagId id) {
  diagnostic.code = id;
  diagnostic.id = std::string(to_string(id));
}

void set_id(Diagnostic& diagnostic, std::string_view name) {
  diagnostic.code = name.empty() ? std::nullopt : find_diagnostic_id(name);
  diagnostic.id = std::string(name);
}

Diagnostic make_diagnostic(Severity severity, DiagId id, std::string_view file,
                           std::string_view text, std::size_t offset, std::size_t length,
                           std::string message) {
  Diagnostic diagnostic =
      make_diagnostic(severity, std::string_view(), file, text, offset, length, std::move(message));
  set_id(diagnostic, id);
  return diagnostic;
}

Diagnostic make_file_diagnostic(Severity severity, DiagId id, std::string_view file,
                                std::string message) {
  Diagnostic diagnostic =
      make_file_diagnostic(severity, std::string_view(), file, std::move(message));
  set_id(diagnostic, id);
  return diagnostic;
}

PMUCAT_END_NAMESPACE
