// Bit-level helpers of format specs: naming, width, canonical text, scatter and gather.
#include <bit>

#include "pmucat/format.h"

PMUCAT_BEGIN_NAMESPACE

std::string config_word_name(unsigned word) {
  if (word == 0) return "config";
  return "config" + std::to_string(word);
}

unsigned FormatSpec::width() const {
  return static_cast<unsigned>(std::popcount(mask));
}

std::uint64_t FormatSpec::max_value() const {
  const unsigned bits = width();
  return bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
}

std::string to_string(const FormatSpec& spec) {
  std::string text = config_word_name(spec.word);
  text += ':';
  if (spec.mask == 0) {
    // No bit list parses to an empty mask except one outside the word; perf reads bit 64 as none.
    text += "64";
    return text;
  }
  std::uint64_t rest = spec.mask;
  bool first_item = true;
  while (rest != 0) {
    const int low = std::countr_zero(rest);
    const int run = std::countr_one(rest >> low);
    const int high = low + run - 1;
    if (!first_item) text += ',';
    first_item = false;
    text += std::to_string(low);
    if (high != low) {
      text += '-';
      text += std::to_string(high);
    }
    rest = run + low >= 64 ? 0 : rest & ~((~0ULL >> (64 - run)) << low);
  }
  return text;
}

std::uint64_t format_detail::scatter_bits_by_bit(std::uint64_t value, std::uint64_t mask) {
  std::uint64_t word = 0;
  while (mask != 0 && value != 0) {
    const std::uint64_t lowest = mask & (~mask + 1);
    if ((value & 1) != 0) word |= lowest;
    value >>= 1;
    mask &= mask - 1;
  }
  return word;
}

std::uint64_t gather_bits(std::uint64_t word, std::uint64_t mask) {
  std::uint64_t value = 0;
  std::uint64_t next_bit = 1;
  while (mask != 0) {
    const std::uint64_t lowest = mask & (~mask + 1);
    if ((word & lowest) != 0) value |= next_bit;
    next_bit <<= 1;
    mask &= mask - 1;
  }
  return value;
}

PMUCAT_END_NAMESPACE
