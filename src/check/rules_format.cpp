// Rules over format/ files: each file on its own, then every pair of fields.
#include <fmt/core.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cctype>

#include "context.h"
#include "pmucat/diagnostic_ids.h"

PMUCAT_BEGIN_NAMESPACE
namespace check::detail {
namespace {

// Name parts that mean "one bit on or off" in driver format names.
constexpr std::array<std::string_view, 11> kFlagWords = {
    "edge", "inv", "invert", "en", "enable", "enabled", "any", "pc", "det", "qor", "excl"};

bool is_name_byte(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
}

bool is_flag_like(std::string_view name) {
  auto underscore = name.rfind('_');
  std::string_view last = underscore == std::string_view::npos ? name : name.substr(underscore + 1);
  return std::find(kFlagWords.begin(), kFlagWords.end(), last) != kFlagWords.end();
}

Diagnostic at_range(const Format& format, const BitRange& range, Severity severity,
                    std::string message) {
  return make_diagnostic(severity, "", format.path, format.text, range.offset, range.length,
                         std::move(message));
}

// Where `configN` is written, for word-level findings.
Diagnostic at_word(const Format& format, Severity severity, std::string message) {
  auto at = format.text.find("config");
  if (at == std::string::npos) at = 0;
  std::size_t end = at + 6;
  while (end < format.text.size() && format.text[end] >= '0' && format.text[end] <= '9') ++end;
  return make_diagnostic(severity, "", format.path, format.text, at, end - at, std::move(message));
}

// The parser lints reversed, overlapping and out-of-range items; only the width is left here.
void check_wide_ranges(PmuContext& context, const Format& format) {
  for (const BitRange& range : format.spec.ranges) {
    std::uint32_t span = range.first <= range.last ? range.last - range.first + 1 : 0;
    if (span > 32 && format.spec.width() < 64) {
      context.add(DiagId::format_wide_range, at_range(format, range, Severity::note,
                                                      fmt::format("range {}-{} spans {} bits",
                                                                  range.first, range.last, span)));
    }
  }
}

void check_one_format(PmuContext& context, const Format& format) {
  const FormatSpec& spec = format.spec;
  const std::string& name = format.name;
  if (auto bad = std::find_if_not(name.begin(), name.end(), is_name_byte); bad != name.end()) {
    context.add(DiagId::format_name_charset,
                make_file_diagnostic(
                    Severity::warning, "", format.path,
                    fmt::format("format name '{}' has the byte {:#04x}, outside [A-Za-z0-9._-]",
                                name, static_cast<unsigned char>(*bad))));
  }
  if (!spec.word_supported()) {
    context.add(DiagId::format_unsupported_word,
                at_word(format, Severity::error,
                        fmt::format("field '{}' lives in {}, which perf_event_attr does not have",
                                    format.name, config_word_name(spec.word))));
  }
  check_wide_ranges(context, format);
  if (is_flag_like(format.name) && spec.width() > 1) {
    auto diagnostic = make_diagnostic(
        Severity::warning, "", format.path, format.text, 0, format.text.find_last_not_of('\n') + 1,
        fmt::format("flag-like field '{}' spans {} bits ({}:{})", format.name, spec.width(),
                    config_word_name(spec.word), bits_text(spec.mask)));
    diagnostic.hint = "a flag is normally one bit; check the driver's format string";
    context.add(DiagId::format_flag_wide, std::move(diagnostic));
  }
}

void check_format_pairs(PmuContext& context, std::span<const Format> formats) {
  for (std::size_t j = 0; j < formats.size(); ++j) {
    for (std::size_t i = 0; i < j; ++i) {
      const Format& a = formats[i];
      const Format& b = formats[j];
      if (a.spec.word != b.spec.word || (a.spec.mask & b.spec.mask) == 0) continue;
      std::string word = config_word_name(b.spec.word);
      std::size_t length = b.text.find_last_not_of('\n') + 1;
      std::uint64_t shared = a.spec.mask & b.spec.mask;
      if (shared == a.spec.mask || shared == b.spec.mask) {
        // Same bits, or one field contains the other: an alias or an umbrella field (POWER
        // `event` over its sub-fields, `offcore_rsp` over `ldlat`), which drivers do on purpose.
        std::string relation = a.spec.mask == b.spec.mask ? "an alias of"
                               : shared == b.spec.mask    ? "contained in"
                                                          : "a superset of";
        context.add(DiagId::format_alias,
                    make_diagnostic(Severity::note, "", b.path, b.text, 0, length,
                                    fmt::format("field '{}' is {} '{}' ({}:{})", b.name, relation,
                                                a.name, word, bits_text(b.spec.mask))));
        continue;
      }
      auto diagnostic =
          make_diagnostic(Severity::warning, "", b.path, b.text, 0, length,
                          fmt::format("field '{}' overlaps field '{}' in {} bits {}", b.name,
                                      a.name, word, bits_text(a.spec.mask & b.spec.mask)));
      diagnostic.hint = fmt::format("'{}' is {}:{}; '{}' is {}:{}", a.name, word,
                                    bits_text(a.spec.mask), b.name, word, bits_text(b.spec.mask));
      context.add(DiagId::format_field_overlap, std::move(diagnostic));
    }
  }
}

}  // namespace

void check_formats(PmuContext& context) {
  auto formats = context.pmu().formats();
  for (const Format& format : formats) check_one_format(context, format);
  check_format_pairs(context, formats);
}

}  // namespace check::detail
PMUCAT_END_NAMESPACE
