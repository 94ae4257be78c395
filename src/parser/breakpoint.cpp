// `mem:ADDR[/LEN][:rwx][:mods]`: hardware breakpoints, taken as perf 6.1's lexer and grammar
// take them (see docs/grammar.md, "Breakpoints", for the accepted shapes).
#include <fmt/format.h>

#include <limits>
#include <utility>

#include "parser/char_class.h"
#include "parser/spec_diagnostics.h"
#include "parser/spec_views.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {
namespace {

constexpr std::string_view kNumberHint = "a decimal number or 0x followed by hex digits";

bool is_access_letter(char c) {
  return c == 'r' || c == 'w' || c == 'x';
}

// A number at `pos`: `0x[hex]+` or `[0-9]+` (perf's mem-state lexer: no octal, `0X` is not hex).
// Advances `pos`; nullopt-like failure is reported as a diagnostic.
Expected<std::uint64_t> parse_number(std::string_view text, std::size_t& pos, std::size_t end,
                                     std::string_view what) {
  const std::size_t start = pos;
  const std::optional<ScannedNumber> number = scan_number(text, pos, end);
  if (!number) {
    auto d = spec_error(DiagId::spec_breakpoint_number, text, start, pos < end ? 1 : 0,
                        fmt::format("expected the breakpoint {} here", what));
    d.hint = std::string(kNumberHint);
    return unexpected(std::move(d));
  }
  if (number->overflow) {
    return unexpected(spec_error(DiagId::spec_breakpoint_number, text, start, pos - start,
                                 fmt::format("breakpoint {} does not fit in 64 bits", what)));
  }
  return number->value;
}

}  // namespace

std::optional<ScannedNumber> scan_number(std::string_view text, std::size_t& pos, std::size_t end) {
  std::size_t at = pos;
  unsigned base = 10;
  if (end - at > 2 && text[at] == '0' && text[at + 1] == 'x' &&
      char_class::is_hex_digit(text[at + 2])) {
    base = 16;
    at += 2;
  }
  const std::size_t digits = at;
  ScannedNumber number;
  while (at < end &&
         (base == 16 ? char_class::is_hex_digit(text[at]) : char_class::is_digit(text[at]))) {
    const auto lower = static_cast<unsigned>(static_cast<unsigned char>(text[at]) | 0x20);
    const unsigned digit = char_class::is_digit(text[at]) ? lower - '0' : lower - 'a' + 10;
    if (number.value > (std::numeric_limits<std::uint64_t>::max() - digit) / base) {
      number.overflow = true;
    }
    number.value = number.value * base + digit;
    ++at;
  }
  if (at == digits) return std::nullopt;
  pos = at;
  return number;
}

std::optional<Diagnostic> parse_breakpoint_item(std::string_view text, std::size_t begin,
                                                std::size_t end, EventSpecView& spec) {
  std::size_t pos = begin + 4;  // after `mem:`
  auto addr = parse_number(text, pos, end, "address");
  if (!addr) return std::move(addr).error();
  std::uint64_t len = 0;
  if (pos < end && text[pos] == '/') {
    ++pos;
    auto parsed = parse_number(text, pos, end, "length");
    if (!parsed) return std::move(parsed).error();
    len = *parsed;
  }
  // perf's lexer stays in its breakpoint state after the number: `:` separates, [rwx]{1,3} is
  // the access, anything else starts the event modifiers (`mem:0x1000k` is `k`).
  std::uint8_t access = 0;
  std::size_t mods_begin = pos;
  if (pos < end && is_access_letter(text[pos])) {
    return spec_error(DiagId::spec_breakpoint_access, text, pos, 1,
                      "the access letters (r, w, x) follow a ':' after the address");
  }
  if (pos < end && text[pos] == ':') {
    ++pos;
    const std::size_t access_begin = pos;
    while (pos < end && pos - access_begin < 3 && is_access_letter(text[pos])) {
      const std::uint8_t bit = text[pos] == 'r'   ? breakpoint_access::read
                               : text[pos] == 'w' ? breakpoint_access::write
                                                  : breakpoint_access::execute;
      if ((access & bit) != 0) {
        auto d = spec_error(DiagId::spec_breakpoint_access, text, pos, 1,
                            fmt::format("breakpoint access '{}' given twice", text[pos]));
        d.fixit = FixIt{d.range, ""};
        return d;
      }
      access |= bit;
      ++pos;
    }
    if (pos < end && is_access_letter(text[pos])) {
      return spec_error(DiagId::spec_breakpoint_access, text, pos, 1,
                        "more than three breakpoint access letters");
    }
    // After the access, one optional ':' before the modifiers.
    if (pos > access_begin && pos < end && text[pos] == ':') ++pos;
    mods_begin = pos;
  }
  if (mods_begin < end && (text[mods_begin] == ':' || text[mods_begin] == '/')) {
    return spec_error(DiagId::spec_breakpoint_access, text, mods_begin, 1,
                      fmt::format("unexpected '{}' in a breakpoint (mem:ADDR[/LEN][:rwx][:mods])",
                                  text[mods_begin]));
  }
  if (mods_begin < end) {
    auto mods = parse_modifiers(text.substr(mods_begin, end - mods_begin), text,
                                static_cast<std::uint32_t>(mods_begin));
    if (!mods) return std::move(mods).error();
    spec.modifiers = std::move(*mods);
  }
  if (access == 0) access = breakpoint_access::read | breakpoint_access::write;
  if (len == 0) len = access == breakpoint_access::execute ? sizeof(long) : 4;
  spec.form = SpecForm::breakpoint;
  spec.bp_addr = *addr;
  spec.bp_len = len;
  spec.bp_type = access;
  spec.name = text.substr(begin, end - begin);
  return std::nullopt;
}

}  // namespace spec_detail
PMUCAT_END_NAMESPACE
