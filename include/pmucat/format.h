// The `format/<term>` grammar: `config[N]:BITS`, BITS a comma list of `a` or `a-b`.
#pragma once

#include <bit>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/small_vector.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// config, config1, config2, config3, config4 are the words perf_event_attr has today (config3:
// kernel 6.3; config4: PERF_ATTR_SIZE_VER9, in linux 7.2's headers, not in 6.12's).
inline constexpr unsigned kConfigWords = 5;

// "config", "config1", ... for any index (an index >= kConfigWords still has a name).
std::string config_word_name(unsigned word);

// One `a` or `a-b` item exactly as written, with its byte position in the file text.
struct BitRange {
  std::uint32_t first = 0;
  std::uint32_t last = 0;    // == first for a single bit
  bool is_range = false;     // written as `a-b`
  std::uint32_t offset = 0;  // byte offset of `a` in the text
  std::uint32_t length = 0;  // bytes spanned by the item
  friend bool operator==(const BitRange&, const BitRange&) = default;
};

// A parsed format file. `word` and `mask` are what perf 6.1 encodes with:
//  - `a-b` with b == 0 means the single bit a; a > b (b != 0) contributes no bits;
//  - bits >= 64 are dropped; overlapping items are OR-ed;
//  - when a file holds several `configN:` terms, the first one is used (perf 6.1; see FormatTerm).
// Everything the ABI does not allow but perf tolerates is reported in `lints` (warnings), so a
// validator can flag it while encoders still agree with perf.
struct FormatSpec {
  unsigned word = 0;                // 0 = config, 1 = config1, ...
  std::uint64_t mask = 0;           // effective bits of `word`
  SmallVector<BitRange, 4> ranges;  // items of the effective term, as written (rarely > 4)
  std::vector<Diagnostic> lints;    // ids listed in docs/grammar.md (format-*)

  // Number of value bits the field holds.
  unsigned width() const;
  // Largest value that fits: 2^width - 1 (all ones for 64 bits, 0 for an empty field).
  std::uint64_t max_value() const;
  // True when `word` is one perf_event_attr has (config..config4).
  bool word_supported() const { return word < kConfigWords; }
  friend bool operator==(const FormatSpec&, const FormatSpec&) = default;
};

// Which term of a file with several (`config:0-3 config1:0-3`) a FormatSpec holds: perf 6.1
// (and pmucat) encode with the first, perf 6.12 with the last.
enum class FormatTerm : std::uint8_t { first, last };

// Parses the contents of one format file. Errors (no `config` term, a missing bit list, a number
// that overflows, `configN` with no `:`) are located in `file`. Ids: docs/grammar.md section 1.
Expected<FormatSpec> parse_format(std::string_view text, std::string_view file,
                                  FormatTerm which = FormatTerm::first);

// Canonical text of a spec's effective bits: `config1:0-7,21` (ranges merged, ascending); an
// empty mask prints as `configN:64`, which perf (and parse_format) read as no bits.
std::string to_string(const FormatSpec& spec);

namespace format_detail {
// scatter_bits for any mask, one bit at a time: its general case, out of line.
std::uint64_t scatter_bits_by_bit(std::uint64_t value, std::uint64_t mask);
}  // namespace format_detail

// Distributes the low bits of `value` over the set bits of `mask`, lowest first (perf's
// pmu_format_value; PDEP). Value bits beyond popcount(mask) are dropped. Inline because the
// encoder scatters every field: nearly every format is one run of bits, which takes a shift.
inline std::uint64_t scatter_bits(std::uint64_t value, std::uint64_t mask) {
  if (mask == 0) return 0;
  const int shift = std::countr_zero(mask);
  const std::uint64_t run = mask >> shift;
  if ((run & (run + 1)) == 0) return (value << shift) & mask;
  return format_detail::scatter_bits_by_bit(value, mask);
}

// Inverse of scatter_bits: collects the bits of `word` under `mask` into a dense value (PEXT).
std::uint64_t gather_bits(std::uint64_t word, std::uint64_t mask);

PMUCAT_END_NAMESPACE
