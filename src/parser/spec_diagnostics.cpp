#include "parser/spec_diagnostics.h"

#include <utility>

namespace pmucat::spec_detail {

Diagnostic spec_error(DiagId id, std::string_view spec, std::size_t offset, std::size_t length,
                      std::string message) {
  return make_diagnostic(Severity::error, id, kSpecFile, spec, offset, length, std::move(message));
}

}  // namespace pmucat::spec_detail
