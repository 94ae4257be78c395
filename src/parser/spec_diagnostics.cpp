#include "parser/spec_diagnostics.h"

#include <fmt/format.h>

#include <utility>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {

std::string describe_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte > ' ' && byte < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", byte);
}

Diagnostic spec_error(DiagId id, std::string_view spec, std::size_t offset, std::size_t length,
                      std::string message) {
  return make_diagnostic(Severity::error, id, kSpecFile, spec, offset, length, std::move(message));
}

}  // namespace spec_detail
PMUCAT_END_NAMESPACE
