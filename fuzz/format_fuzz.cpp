// parse_format on arbitrary text, plus the invariants a parsed format must keep: its mask is the
// union of its ranges (perf 6.1's rules), width and max_value agree with the mask, scatter and
// gather invert each other under the mask, and the canonical text parses back to the same bits.
#include <bit>
#include <string_view>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/format.h"

namespace {

using pmucat::BitRange;
using pmucat::FormatSpec;

std::uint64_t bits_of(const BitRange& range) {
  auto bit = [](std::uint32_t index) { return index < 64 ? std::uint64_t{1} << index : 0; };
  if (!range.is_range || range.last == 0) return bit(range.first);
  if (range.first > range.last) return 0;
  std::uint64_t bits = 0;
  for (std::uint32_t i = range.first; i <= range.last && i < 64; ++i) bits |= bit(i);
  return bits;
}

// A value to scatter that depends on the whole input, so the fuzzer steers it too.
std::uint64_t value_from(std::string_view text) {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

void check_invariants(const FormatSpec& spec, std::string_view text) {
  std::uint64_t union_of_ranges = 0;
  for (const BitRange& range : spec.ranges) {
    PMUCAT_FUZZ_CHECK(range.offset <= text.size() && range.length <= text.size() - range.offset);
    union_of_ranges |= bits_of(range);
  }
  PMUCAT_FUZZ_CHECK(spec.mask == union_of_ranges);
  PMUCAT_FUZZ_CHECK(spec.width() == static_cast<unsigned>(std::popcount(spec.mask)));
  PMUCAT_FUZZ_CHECK(std::popcount(spec.max_value()) == std::popcount(spec.mask));

  for (std::uint64_t value : {value_from(text), ~std::uint64_t{0}, std::uint64_t{1}}) {
    const std::uint64_t word = pmucat::scatter_bits(value, spec.mask);
    PMUCAT_FUZZ_CHECK((word & ~spec.mask) == 0);
    PMUCAT_FUZZ_CHECK(pmucat::gather_bits(word, spec.mask) == (value & spec.max_value()));
    PMUCAT_FUZZ_CHECK(pmucat::scatter_bits(pmucat::gather_bits(value, spec.mask), spec.mask) ==
                      (value & spec.mask));
  }

  const std::string canonical = pmucat::to_string(spec);
  auto reparsed = pmucat::parse_format(canonical, "<canonical>");
  PMUCAT_FUZZ_CHECK(reparsed.has_value());
  PMUCAT_FUZZ_CHECK(reparsed->word == spec.word && reparsed->mask == spec.mask);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto parsed = pmucat::parse_format(text, "format/fuzz");
  if (!parsed) {
    PMUCAT_FUZZ_CHECK(!pmucat::render(parsed.error()).empty());
    return 0;
  }
  for (const pmucat::Diagnostic& lint : parsed->lints) {
    PMUCAT_FUZZ_CHECK(lint.range.offset <= text.size());
    PMUCAT_FUZZ_CHECK(!pmucat::render(lint, {.color = true}).empty());
  }
  check_invariants(*parsed, text);
  return 0;
}
