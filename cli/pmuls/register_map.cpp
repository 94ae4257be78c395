#include "pmuls/register_map.h"

#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <set>

#include "common/text_table.h"
#include "pmucat/format.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

constexpr unsigned kBits = 64;
constexpr char kFree = '.';
constexpr char kShared = '#';
// Every key character: letters and digits first, then punctuation that cannot be mistaken for
// the free ('.') or shared ('#') marks.
constexpr std::string_view kKeyAlphabet =
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "+*=%&@$~^!<>/|:;_-()[]{}";

// Indices of the formats owning each bit of one config word.
using BitOwners = std::array<std::vector<std::size_t>, kBits>;

BitOwners owners_of_word(std::span<const Format> formats, unsigned word) {
  BitOwners owners;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    if (formats[i].spec.word != word) continue;
    for (unsigned bit = 0; bit < kBits; ++bit) {
      if ((formats[i].spec.mask >> bit) & 1u) owners[bit].push_back(i);
    }
  }
  return owners;
}

std::string bit_range_text(unsigned word, unsigned low, unsigned high) {
  if (low == high) return fmt::format("{}:{}", config_word_name(word), low);
  return fmt::format("{}:{}-{}", config_word_name(word), low, high);
}

std::string label_line(std::size_t prefix_width, std::size_t key_width) {
  std::string line(prefix_width, ' ');
  for (unsigned nibble = 0; nibble < kBits / 4; ++nibble) {
    line += fmt::format("{:<{}}", kBits - 1 - nibble * 4, 4 * key_width + 1);
  }
  while (!line.empty() && line.back() == ' ') line.pop_back();
  return line + '\n';
}

std::string map_line(std::string_view label, std::size_t prefix_width, const BitOwners& owners,
                     const std::vector<std::string>& keys, const Palette& palette) {
  const std::size_t key_width = keys.empty() ? 1 : keys.front().size();
  std::string line = fmt::format("  {:<{}}", label, prefix_width - 2);
  for (unsigned position = 0; position < kBits; ++position) {
    const unsigned bit = kBits - 1 - position;
    if (position > 0 && position % 4 == 0) line += ' ';
    const auto& owning = owners[bit];
    if (owning.empty()) {
      line += palette.dim();
      line.append(key_width, kFree);
      line += palette.reset();
    } else if (owning.size() == 1) {
      line += keys[owning.front()];
    } else {
      line += palette.red();
      line.append(key_width, kShared);
      line += palette.reset();
    }
  }
  return line + '\n';
}

// Runs of consecutive bits shared by the same formats, lowest first.
std::string shared_lines(std::span<const Format> formats, unsigned word, const BitOwners& owners) {
  std::string out;
  unsigned bit = 0;
  while (bit < kBits) {
    if (owners[bit].size() < 2) {
      ++bit;
      continue;
    }
    unsigned high = bit;
    while (high + 1 < kBits && owners[high + 1] == owners[bit]) ++high;
    std::string names;
    for (std::size_t index : owners[bit]) {
      if (!names.empty()) names += ", ";
      names += formats[index].name;
    }
    out += fmt::format("    {:<14}  {}\n", bit_range_text(word, bit, high), names);
    bit = high + 1;
  }
  return out;
}

// The bits column: the bits perf uses ("no bits" for an empty field: reversed, unparsable or
// beyond the word), and the written bits it ignores because they are beyond the 64-bit word
// (`config:65` is a field of no bits, not `config:64`).
std::string bits_text(const FormatSpec& spec) {
  std::string ignored;
  for (const BitRange& range : spec.ranges) {
    const std::uint32_t last = range.is_range && range.last != 0 ? range.last : range.first;
    if (range.first > last || last < kBits) continue;
    const std::uint32_t from = std::max<std::uint32_t>(range.first, kBits);
    if (!ignored.empty()) ignored += ',';
    ignored += from == last ? std::to_string(from) : fmt::format("{}-{}", from, last);
  }
  // to_string() spells an empty field `config:64` (what parses back to it); here it is said.
  const std::string used =
      spec.mask == 0 ? config_word_name(spec.word) + ": no bits" : to_string(spec);
  if (ignored.empty()) return used;
  return fmt::format("{} ({} beyond bit 63, ignored)", used, ignored);
}

// Key `number` (0-based) of `width` characters, counting in kKeyAlphabet.
std::string numbered_key(std::size_t number, std::size_t width) {
  std::string key(width, kKeyAlphabet.front());
  for (std::size_t i = width; i-- > 0; number /= kKeyAlphabet.size()) {
    key[i] = kKeyAlphabet[number % kKeyAlphabet.size()];
  }
  return key;
}

}  // namespace

std::vector<std::string> assign_format_keys(std::span<const Format> formats) {
  // Fields low in the register get first pick, so `event` (bit 0) gets 'e' before `edge` does.
  std::vector<std::size_t> order(formats.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  auto lowest_bit = [&](std::size_t i) {
    const std::uint64_t mask = formats[i].spec.mask;
    return mask == 0 ? kBits : static_cast<unsigned>(__builtin_ctzll(mask));
  };
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (formats[a].spec.word != formats[b].spec.word) {
      return formats[a].spec.word < formats[b].spec.word;
    }
    return lowest_bit(a) < lowest_bit(b);
  });

  std::vector<std::string> keys(formats.size());
  if (formats.size() > kKeyAlphabet.size()) {
    // More fields than characters: keys of equal width, numbered, so each stays distinct and
    // the map keeps one column group per bit.
    std::size_t width = 1;
    for (std::size_t room = kKeyAlphabet.size(); room < formats.size();
         room *= kKeyAlphabet.size()) {
      ++width;
    }
    for (std::size_t rank = 0; rank < order.size(); ++rank) {
      keys[order[rank]] = numbered_key(rank, width);
    }
    return keys;
  }
  std::set<char> used;
  for (std::size_t index : order) {
    std::string& key = keys[index];
    auto try_take = [&](char candidate) {
      if (!key.empty() || kKeyAlphabet.find(candidate) == std::string_view::npos) return;
      if (used.insert(candidate).second) key.assign(1, candidate);
    };
    for (char c : formats[index].name) {
      if (std::isalnum(static_cast<unsigned char>(c))) {
        try_take(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
      }
    }
    for (char c : kKeyAlphabet) try_take(c);
  }
  return keys;
}

std::string render_formats(std::span<const Format> formats, const Palette& palette) {
  if (formats.empty()) return "  (no formats)\n";
  const std::vector<std::string> keys = assign_format_keys(formats);

  TextTable table({TextTable::Align::left, TextTable::Align::left, TextTable::Align::left,
                   TextTable::Align::right, TextTable::Align::right});
  table.add_row({"key", "format", "bits", "width", "max"});
  std::set<unsigned> words;
  for (std::size_t i = 0; i < formats.size(); ++i) {
    const FormatSpec& spec = formats[i].spec;
    words.insert(spec.word);
    std::string bits = bits_text(spec);
    if (!spec.word_supported()) bits += " (not in perf_event_attr)";
    table.add_row({keys[i], formats[i].name, bits, std::to_string(spec.width()),
                   fmt::format("{:#x}", spec.max_value())});
  }
  std::string out = table.render("  ");

  std::size_t label_width = 0;
  for (unsigned word : words) label_width = std::max(label_width, config_word_name(word).size());
  const std::size_t prefix_width = 2 + label_width + 2;
  out += '\n';
  out += label_line(prefix_width, keys.front().size());
  std::string shared;
  for (unsigned word : words) {
    const BitOwners owners = owners_of_word(formats, word);
    out += map_line(config_word_name(word), prefix_width, owners, keys, palette);
    shared += shared_lines(formats, word, owners);
  }
  if (!shared.empty()) {
    out += fmt::format("  {}{}{} bits owned by more than one format:\n", palette.red(), kShared,
                       palette.reset());
    out += shared;
  }
  return out;
}

}  // namespace cli
PMUCAT_END_NAMESPACE
