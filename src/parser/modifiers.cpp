// Event modifiers (`u`, `k`, `ppp`, `G`, ...): parsed and printed.
#include <fmt/format.h>

#include <string>

#include "parser/spec_diagnostics.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/spec.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

constexpr std::string_view kValidModifiers = "u k h p P G H S D I W e b R X";
constexpr unsigned kMaxPrecise = 3;

// The flag a modifier letter sets, or nullptr for `p` (counted) and unknown letters.
bool* flag_for(char letter, Modifiers& mods) {
  switch (letter) {
    case 'u':
      return &mods.user;
    case 'k':
      return &mods.kernel;
    case 'h':
      return &mods.hypervisor;
    case 'P':
      return &mods.max_precise;
    case 'G':
      return &mods.guest_only;
    case 'H':
      return &mods.host_only;
    case 'S':
      return &mods.sample_read;
    case 'D':
      return &mods.pinned;
    case 'I':
      return &mods.exclude_idle;
    case 'W':
      return &mods.weak_group;
    case 'e':
      return &mods.exclusive;
    case 'b':
      return &mods.bpf_counter;
    case 'R':
      return &mods.retire_latency;
    case 'X':
      return &mods.no_regroup;
    default:
      return nullptr;
  }
}

}  // namespace

Expected<Modifiers> parse_modifiers(std::string_view text, std::string_view spec,
                                    std::uint32_t base_offset) {
  Modifiers mods;
  mods.text = std::string(text);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char letter = text[i];
    const std::size_t at = base_offset + i;
    if (letter == 'p') {
      if (++mods.precise > kMaxPrecise) {
        auto d = spec_detail::spec_error(DiagId::modifier_precise, spec, at, 1,
                                         "precise level above 3 ('ppp' is the highest)");
        d.fixit = FixIt{d.range, ""};
        return unexpected(std::move(d));
      }
      continue;
    }
    bool* flag = flag_for(letter, mods);
    if (flag == nullptr) {
      const bool printable = letter > ' ' && letter < 0x7f;
      auto d = spec_detail::spec_error(DiagId::modifier_unknown, spec, at, 1,
                                       printable ? fmt::format("unknown modifier '{}'", letter)
                                                 : fmt::format("unknown modifier byte 0x{:02x}",
                                                               static_cast<unsigned char>(letter)));
      d.hint = letter == ':' ? "modifiers follow the closing '/' directly, without ':'"
                             : fmt::format("valid modifiers: {}", kValidModifiers);
      return unexpected(std::move(d));
    }
    if (*flag) {  // perf rejects repeated modifiers other than `p`
      auto d = spec_detail::spec_error(DiagId::modifier_repeated, spec, at, 1,
                                       fmt::format("modifier '{}' given twice", letter));
      d.fixit = FixIt{d.range, ""};
      return unexpected(std::move(d));
    }
    *flag = true;
  }
  return mods;
}

// Canonical modifier text in a fixed order perf's length check accepts.
std::string canonical_modifiers(const Modifiers& modifiers) {
  std::string out;
  if (modifiers.user) out += 'u';
  if (modifiers.kernel) out += 'k';
  if (modifiers.hypervisor) out += 'h';
  if (modifiers.guest_only) out += 'G';
  if (modifiers.host_only) out += 'H';
  out.append(modifiers.precise, 'p');
  if (modifiers.max_precise) out += 'P';
  if (modifiers.sample_read) out += 'S';
  if (modifiers.pinned) out += 'D';
  if (modifiers.exclude_idle) out += 'I';
  if (modifiers.weak_group) out += 'W';
  if (modifiers.exclusive) out += 'e';
  if (modifiers.bpf_counter) out += 'b';
  if (modifiers.retire_latency) out += 'R';
  if (modifiers.no_regroup) out += 'X';
  return out;
}

PMUCAT_END_NAMESPACE
