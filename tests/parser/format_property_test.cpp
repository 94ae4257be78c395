// Properties of parse_format, to_string, scatter_bits and gather_bits.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>

#include "pmucat/format.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

FormatSpec spec_of(unsigned word, std::uint64_t mask) {
  FormatSpec spec;
  spec.word = word;
  spec.mask = mask;
  return spec;
}

// The bit-by-bit definition of scatter (perf's pmu_format_value): the k-th set bit of the mask,
// counting from bit 0, receives bit k of the value.
std::uint64_t naive_scatter(std::uint64_t value, std::uint64_t mask) {
  std::uint64_t word = 0;
  unsigned k = 0;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (((mask >> bit) & 1) == 0) continue;
    if (k < 64 && ((value >> k) & 1) != 0) word |= 1ULL << bit;
    ++k;
  }
  return word;
}

std::uint64_t naive_gather(std::uint64_t word, std::uint64_t mask) {
  std::uint64_t value = 0;
  unsigned k = 0;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if (((mask >> bit) & 1) == 0) continue;
    if (((word >> bit) & 1) != 0) value |= 1ULL << k;
    ++k;
  }
  return value;
}

// Masks with structure (runs of bits) as well as uniformly random ones.
rc::Gen<std::uint64_t> gen_mask() {
  return rc::gen::oneOf(
      rc::gen::arbitrary<std::uint64_t>(),
      rc::gen::map(rc::gen::pair(rc::gen::inRange(0, 64), rc::gen::inRange(1, 65)),
                   [](std::pair<int, int> run) {
                     const int low = run.first;
                     const int width = std::min(run.second, 64 - low);
                     const std::uint64_t ones = width >= 64 ? ~0ULL : (1ULL << width) - 1;
                     return ones << low;
                   }),
      rc::gen::just<std::uint64_t>(0), rc::gen::just<std::uint64_t>(~0ULL));
}

RC_GTEST_PROP(FormatProperty, CanonicalTextParsesBackToTheSameBits, ()) {
  const std::uint64_t mask = *gen_mask();
  const unsigned word = *rc::gen::inRange(0u, 6u);
  const FormatSpec spec = spec_of(word, mask);
  const std::string text = to_string(spec);
  const auto parsed = parse_format(text, "format/p");
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->mask == mask);
  RC_ASSERT(parsed->word == word);
  RC_ASSERT(to_string(*parsed) == text);
}

RC_GTEST_PROP(FormatProperty, WrittenBitListsGiveTheUnionOfTheirItems, ()) {
  const auto items = *rc::gen::nonEmpty(rc::gen::container<std::vector<std::pair<int, int>>>(
      rc::gen::pair(rc::gen::inRange(0, 64), rc::gen::inRange(0, 64))));
  std::string text = "config2:";
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const auto [low, high] = items[i];
    if (i != 0) text += ',';
    if (low < high) {
      text += std::to_string(low) + '-' + std::to_string(high);
      for (int bit = low; bit <= high; ++bit) expected |= 1ULL << bit;
    } else {
      text += std::to_string(low);
      expected |= 1ULL << low;
    }
  }
  const auto parsed = parse_format(text + "\n", "format/p");
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->mask == expected);
  RC_ASSERT(parsed->ranges.size() == items.size());
}

RC_GTEST_PROP(FormatProperty, ScatterMatchesTheBitByBitModel, (std::uint64_t value)) {
  const std::uint64_t mask = *gen_mask();
  RC_ASSERT(scatter_bits(value, mask) == naive_scatter(value, mask));
  RC_ASSERT((scatter_bits(value, mask) & ~mask) == 0);
}

// scatter_bits shifts a one-run mask; the shift must give what the bit-by-bit routine gives.
RC_GTEST_PROP(FormatProperty, ScatterShiftMatchesTheBitByBitRoutine, (std::uint64_t value)) {
  const int low = *rc::gen::inRange(0, 64);
  const int width = *rc::gen::inRange(1, 65 - low);
  const std::uint64_t mask = (width >= 64 ? ~0ULL : (1ULL << width) - 1) << low;
  RC_ASSERT(scatter_bits(value, mask) == format_detail::scatter_bits_by_bit(value, mask));
  const std::uint64_t any_mask = *gen_mask();
  RC_ASSERT(scatter_bits(value, any_mask) == format_detail::scatter_bits_by_bit(value, any_mask));
}

RC_GTEST_PROP(FormatProperty, GatherMatchesTheBitByBitModel, (std::uint64_t word)) {
  const std::uint64_t mask = *gen_mask();
  RC_ASSERT(gather_bits(word, mask) == naive_gather(word, mask));
}

RC_GTEST_PROP(FormatProperty, GatherInvertsScatterForValuesThatFit, (std::uint64_t value)) {
  const std::uint64_t mask = *gen_mask();
  const FormatSpec spec = spec_of(0, mask);
  const std::uint64_t fitting = value & spec.max_value();
  RC_ASSERT(gather_bits(scatter_bits(fitting, mask), mask) == fitting);
  RC_ASSERT(scatter_bits(gather_bits(value, mask), mask) == (value & mask));
  RC_ASSERT(spec.width() == static_cast<unsigned>(std::popcount(mask)));
}

// Messages are one printable ASCII line whatever bytes the input held.
bool printable_line(const std::string& message) {
  for (char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) return false;
  }
  return !message.empty();
}

// Any input gives a value or an error located inside the text.
void check_total(const std::string& text) {
  const auto parsed = parse_format(text, "format/fuzz");
  if (parsed) {
    for (const auto& lint : parsed->lints) {
      RC_ASSERT(lint.severity == Severity::warning);
      RC_ASSERT(lint.range.offset + lint.range.length <= text.size());
      RC_ASSERT(!lint.id.empty());
      RC_ASSERT(printable_line(lint.message));
    }
    for (const auto& range : parsed->ranges) {
      RC_ASSERT(std::uint64_t{range.offset} + range.length <= text.size());
    }
    return;
  }
  const Diagnostic& error = parsed.error();
  RC_ASSERT(error.severity == Severity::error);
  RC_ASSERT(error.range.offset <= text.size());
  RC_ASSERT(error.range.offset + error.range.length <= text.size());
  RC_ASSERT(error.range.line >= 1u);
  RC_ASSERT(!error.id.empty());
  RC_ASSERT(printable_line(error.message));
  RC_ASSERT(!render(error).empty());
}

RC_GTEST_PROP(FormatProperty, RandomBytesNeverCrash, (const std::string& text)) {
  check_total(text);
}

RC_GTEST_PROP(FormatProperty, RandomTokenSoupNeverCrashes, ()) {
  const auto pieces = *rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
      "config", "config1", "CONFIG", ":", "-", ",", "0", "7", "63", "64", "0x1", "0X2",
      "99999999999999999999", " ", "\n", "\r", "x", "\t", std::string(1, '\0')));
  std::string text;
  for (const auto& piece : pieces) text += piece;
  check_total(text);
}

}  // namespace
PMUCAT_END_NAMESPACE
