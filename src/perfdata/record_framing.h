// How a byte stream splits into records, as rules the reader's record walk, its pipe framing
// (input.cpp) and the writer's checks share, so that every record the writer emits is read back
// as it was given: where a record's data outside header.size ends, and which records of a pipe
// stream belong to its header.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "perfdata/bytes.h"
#include "pmucat/perfdata.h"

PMUCAT_BEGIN_NAMESPACE
namespace perfdata {

// AUXTRACE data and a pipe-mode HEADER_TRACING_DATA blob follow their record outside
// header.size; no other record type carries any.
inline bool carries_trailer(std::uint32_t type) {
  return type == record_type::auxtrace || type == record_type::header_tracing_data;
}

// A pipe stream's reader takes every HEADER_ATTR and HEADER_FEATURE record into the header,
// wherever it stands, never into the records.
inline bool is_pipe_header_record(std::uint32_t type) {
  return type == record_type::header_attr || type == record_type::header_feature;
}

// The bytes perf places after a record of `type` whose header is followed by `payload`: an
// AUXTRACE record's data (its first u64) and a HEADER_TRACING_DATA blob (its first u32, padded
// to 8); 0 for every other type. nullopt when the payload is too short to hold that size.
inline std::optional<std::uint64_t> declared_trailer_size(std::uint32_t type,
                                                          std::span<const std::byte> payload,
                                                          bool swap) {
  ByteReader body(payload, swap);
  if (type == record_type::auxtrace) return body.read<std::uint64_t>();
  if (type == record_type::header_tracing_data) {
    const auto size = body.read<std::uint32_t>();
    if (!size) return std::nullopt;
    return (std::uint64_t{*size} + 7) / 8 * 8;
  }
  return 0;
}

}  // namespace perfdata
PMUCAT_END_NAMESPACE
