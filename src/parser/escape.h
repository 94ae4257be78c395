// Excerpts of input bytes that are safe to put in a one-line diagnostic message.
#pragma once

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace parser_detail {

// The first `limit` bytes of `bytes`, printable ASCII as is and anything else as `\xNN`, with
// "..." when cut.
inline std::string escape_excerpt(std::string_view bytes, std::size_t limit) {
  std::string out;
  out.reserve(std::min(bytes.size(), limit) + 3);
  for (char c : bytes.substr(0, limit)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) {
      out.push_back(c);
    } else {
      out += fmt::format("\\x{:02x}", byte);
    }
  }
  if (bytes.size() > limit) out += "...";
  return out;
}

}  // namespace parser_detail
PMUCAT_END_NAMESPACE
