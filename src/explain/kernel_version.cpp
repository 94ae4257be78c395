// Parsing a kernel release string into the version the attr-field table compares with.
#include <charconv>

#include "pmucat/explain.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// Reads a decimal number at the front of `text` and drops it; nullopt when there is none.
std::optional<std::uint32_t> take_number(std::string_view& text) {
  std::uint32_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc{}) return std::nullopt;
  text.remove_prefix(static_cast<std::size_t>(end - text.data()));
  return value;
}

}  // namespace

std::optional<KernelVersion> parse_kernel_version(std::string_view release) {
  const auto major = take_number(release);
  if (!major || release.empty() || release.front() != '.') return std::nullopt;
  release.remove_prefix(1);
  const auto minor = take_number(release);
  if (!minor) return std::nullopt;
  return KernelVersion{*major, *minor};
}

PMUCAT_END_NAMESPACE
