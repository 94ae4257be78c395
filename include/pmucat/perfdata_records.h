// Typed views of perf.data records: SAMPLE payloads and sample_id_all trailers decoded from and
// encoded into a Record's raw bytes (pmucat/perfdata.h), and builders of the records perf writes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/perfdata.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// The fields a SAMPLE (or a sample_id_all trailer) can carry; which are present follows the
// attr's sample_type. Unused members stay 0/empty.
struct SampleFields {
  std::uint64_t identifier = 0, ip = 0;
  std::uint32_t pid = 0, tid = 0;
  std::uint64_t time = 0, addr = 0, id = 0, stream_id = 0;
  std::uint32_t cpu = 0, cpu_reserved = 0;
  std::uint64_t period = 0;
  std::vector<std::uint64_t> read_values;  // the READ block, as u64 words
  std::vector<std::uint64_t> callchain;
  std::vector<std::byte> raw;               // RAW data (without its u32 size)
  std::vector<std::uint64_t> branch_stack;  // the BRANCH_STACK block after `nr`, as u64 words
  std::uint64_t branch_nr = 0;
  std::vector<std::byte> rest;  // every field after BRANCH_STACK, undecoded
  friend bool operator==(const SampleFields&, const SampleFields&) = default;
};

// Encodes a SAMPLE payload for `attr`. Fields after BRANCH_STACK are copied from `rest`.
std::vector<std::byte> encode_sample(const SampleFields& sample, const Attr& attr);
// Decodes a SAMPLE payload; nullopt when the payload does not match the attr's layout.
std::optional<SampleFields> decode_sample(std::span<const std::byte> payload, const Attr& attr);

// The sample_id_all trailer of a non-SAMPLE kernel record ({TID}{TIME}{ID}{STREAM_ID}{CPU}
// {IDENTIFIER} as the attr selects); empty when the attr has no sample_id_all.
std::vector<std::byte> encode_sample_id(const SampleFields& id, const Attr& attr);
std::size_t sample_id_size(const Attr& attr);

// Builders of common records (payload aligned to 8, sample_id trailer from `id_attr`).
Record make_comm_record(std::uint32_t pid, std::uint32_t tid, std::string_view comm, bool exec,
                        const SampleFields& id, const Attr& id_attr);
Record make_mmap_record(std::uint32_t pid, std::uint32_t tid, std::uint64_t start,
                        std::uint64_t len, std::uint64_t pgoff, std::string_view filename,
                        std::uint16_t cpumode, const SampleFields& id, const Attr& id_attr);
Record make_fork_record(bool exit, std::uint32_t pid, std::uint32_t ppid, std::uint32_t tid,
                        std::uint32_t ptid, std::uint64_t time, const SampleFields& id,
                        const Attr& id_attr);
Record make_sample_record(const SampleFields& sample, const Attr& attr, std::uint16_t cpumode);
Record make_finished_round_record();

PMUCAT_END_NAMESPACE
