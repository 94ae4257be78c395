// One pass over the common spec shape `pmu/name[=value],.../mods`. It accepts only text for which
// the full grammar (spec.cpp and the term parser) would produce no diagnostic and no lint, so
// whatever it accepts it describes exactly as the full parser would; everything else is left to
// the full parser.
#include <cstdint>
#include <utility>

#include "parser/char_class.h"
#include "parser/spec_views.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace spec_detail {
namespace {

using char_class::in;
using char_class::kDigit;
using char_class::kHexDigit;
using char_class::kNameChar;
using char_class::kNameStart;
using char_class::kPmuChar;

class Scanner {
 public:
  Scanner(std::string_view text, SpecViews& out) : text_(text), out_(out) {}

  // False when the text is not of the simple shape (out then holds a partial result).
  bool scan_event() {
    // The PMU name runs up to the first '/', which is no PMU byte.
    skip(kPmuChar);
    const std::size_t open = pos_;
    if (open == 0 || peek() != '/') return false;
    // The one event this shape gives, kept from the last scan rather than built anew (building
    // one zeroes the whole object first, a `rep stos`, slow to start), so every member is set
    // here.
    out_.events.resize(1);
    EventSpecView& event = out_.events.front();
    event.form = SpecForm::pmu_terms;
    event.text = text_;
    event.offset = 0;
    event.pmu = text_.substr(0, open);
    event.pmu_offset = 0;
    event.name = {};
    event.raw_config = 0;
    event.terms_begin = static_cast<std::uint32_t>(out_.terms.size());
    pos_ = open + 1;
    if (!scan_terms()) return false;  // leaves pos_ at the closing '/'
    event.terms_end = static_cast<std::uint32_t>(out_.terms.size());
    event.lints_begin = event.lints_end = static_cast<std::uint32_t>(out_.lints.size());
    return scan_modifiers(event);
  }

 private:
  bool at_end() const { return pos_ >= text_.size(); }
  // NUL past the end: it is in no byte class, so class loops stop there without a bounds test.
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  // Advances past the bytes of class `bits`, in locals: the loop is most of the scan.
  void skip(unsigned bits) {
    const char* const data = text_.data();
    const std::size_t size = text_.size();
    std::size_t at = pos_;
    while (at < size && in(data[at], bits)) ++at;
    pos_ = at;
  }
  // text_.substr without its range check (the scanner's positions never pass the end).
  std::string_view slice(std::size_t begin, std::size_t end) const {
    return std::string_view(text_.data() + begin, end - begin);
  }

  bool scan_terms() {
    if (at_end()) return false;
    if (peek() == '/') return true;  // `pmu//`
    for (;;) {
      if (!scan_term()) return false;
      if (at_end()) return false;
      if (peek() == '/') return true;
      if (peek() != ',') return false;
      ++pos_;
    }
  }

  bool scan_term() {
    if (!in(peek(), kNameStart)) return false;
    // Built in place: a local copied in afterwards is read back by wide loads right after its
    // narrow stores, which stalls store forwarding.
    TermView& term = out_.terms.emplace_back();
    const std::size_t start = pos_;
    skip(kNameChar);
    term.name = slice(start, pos_);
    term.offset = static_cast<std::uint32_t>(start);
    term.value_offset = term.offset;
    if (peek() == '=') {
      ++pos_;
      const std::size_t value_start = pos_;
      if (in(peek(), kDigit)) {
        if (!scan_number(term)) return false;
      } else if (in(peek(), kNameStart)) {
        skip(kNameChar);
        term.text = slice(value_start, pos_);
        term.kind = term.text == "?" ? TermValueKind::param : TermValueKind::string;
        term.value = 0;
      } else {
        return false;
      }
      term.value_offset = static_cast<std::uint32_t>(value_start);
      term.value_length = static_cast<std::uint32_t>(pos_ - value_start);
    }
    term.length = static_cast<std::uint32_t>(pos_ - start);
    return true;
  }

  // Decimal without a leading zero (the parser lints `010`) or `0x` hex; no overflow, and no
  // name bytes glued to the number.
  bool scan_number(TermView& term) {
    const std::size_t start = pos_;
    std::uint64_t value = 0;
    if (peek() == '0' && pos_ + 1 < text_.size() && text_[pos_ + 1] == 'x') {
      pos_ += 2;
      const std::size_t digits = pos_;
      bool upper = false;
      for (; in(peek(), kHexDigit); ++pos_) {
        const char d = peek();
        unsigned digit = 0;
        if (d <= '9') {
          digit = static_cast<unsigned>(d - '0');
        } else if (d >= 'a') {
          digit = static_cast<unsigned>(d - 'a' + 10);
        } else {
          digit = static_cast<unsigned>(d - 'A' + 10);
          upper = true;
        }
        value = (value << 4) | digit;
      }
      if (pos_ == digits || pos_ - digits > 16) return false;
      term.style = upper ? NumberStyle::hex_upper_digits : NumberStyle::hex;
    } else {
      for (; in(peek(), kDigit); ++pos_) {
        value = value * 10 + static_cast<std::uint64_t>(peek() - '0');
      }
      const std::size_t digits = pos_ - start;
      // 19 digits always fit in 64 bits; longer ones go to the full parser's overflow check.
      if (digits > 19 || (digits > 1 && text_[start] == '0')) return false;
      term.style = NumberStyle::decimal;
    }
    if (in(peek(), kNameStart)) return false;
    term.kind = TermValueKind::number;
    term.value = value;
    return true;
  }

  // After the closing '/': modifiers only (the full parser reports anything else).
  bool scan_modifiers(EventSpecView& event) {
    const std::size_t begin = pos_ + 1;
    const std::string_view mods = text_.substr(begin);
    if (mods.empty()) {  // the default Modifiers, as parse_modifiers("") gives
      event.modifiers = Modifiers{};
      return true;
    }
    for (const char c : mods) {
      if (!in(c, kNameStart)) return false;  // not a letter: a ',' or '/' the full parser needs
    }
    if (out_.last_modifiers && out_.last_modifiers->text == mods) {
      event.modifiers = *out_.last_modifiers;
      return true;
    }
    auto modifiers = parse_modifiers(mods, text_, static_cast<std::uint32_t>(begin));
    if (!modifiers) return false;
    event.modifiers = std::move(*modifiers);
    out_.last_modifiers = event.modifiers;
    return true;
  }

  std::string_view text_;
  SpecViews& out_;
  std::size_t pos_ = 0;
};

}  // namespace

bool scan_simple_spec(std::string_view text, SpecViews& out) {
  // Not out.clear(): scan_event() reuses the last scan's event.
  out.terms.clear();
  out.lints.clear();
  return Scanner(text, out).scan_event();
}

}  // namespace spec_detail
PMUCAT_END_NAMESPACE
