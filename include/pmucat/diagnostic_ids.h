// Every diagnostic id pmucat produces, from one table (pmucat/diagnostic_ids.def): the enum the
// producers use, the stable kebab-case id that outputs carry, the default severity, the pmucheck
// rule it is filed under and a one-line summary.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

enum class DiagId : std::uint16_t {
#define PMUCAT_DIAG(name, id, severity, summary) name,
#include "pmucat/diagnostic_ids.def"
};

struct DiagInfo {
  DiagId id;
  std::string_view name;  // kebab-case, as outputs print it ("terms-missing-comma")
  Severity severity;      // the severity it is produced with (a rule's: pmucheck's)
  // The pmucheck rule it is filed under (itself for a rule); none: reported under its own id.
  std::optional<DiagId> rule;
  std::string_view summary;  // one line; a rule's rationale
  bool is_rule() const { return rule == id; }
};

// Every id, in table order.
std::span<const DiagInfo> diagnostic_ids();
const DiagInfo& info(DiagId id);
std::string_view to_string(DiagId id);
// The id spelt `name`, or nothing when the table has no such id.
std::optional<DiagId> find_diagnostic_id(std::string_view name);

// Gives `diagnostic` the id `id`: its code and its text.
void set_id(Diagnostic& diagnostic, DiagId id);
// The same for an id named by data (a rule of a capture manifest or a baseline): its code is the
// table's id of that name, none when the table has no such id.
void set_id(Diagnostic& diagnostic, std::string_view name);

// make_diagnostic / make_file_diagnostic (pmucat/diagnostic.h) for a registered id.
Diagnostic make_diagnostic(Severity severity, DiagId id, std::string_view file,
                           std::string_view text, std::size_t offset, std::size_t length,
                           std::string message);
Diagnostic make_file_diagnostic(Severity severity, DiagId id, std::string_view file,
                                std::string message);

PMUCAT_END_NAMESPACE
