// Printing term lists in the canonical form parse_terms reads back.
#include <fmt/format.h>

#include "parser/char_class.h"
#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// A string value prints bare when it lexes as one name (and is not the parameter marker), else
// quoted with whichever quote it does not contain.
std::string print_string(std::string_view text) {
  if (char_class::is_plain_name(text) && text != "?") return std::string(text);
  const char quote = text.find('\'') == std::string_view::npos ? '\'' : '"';
  return fmt::format("{}{}{}", quote, text, quote);
}

}  // namespace

std::string print_term_value(const Term& term) {
  switch (term.kind) {
    case TermValueKind::none:
      return {};
    case TermValueKind::number:
      return fmt::format("{:#x}", term.value);
    case TermValueKind::param:
      return "?";
    case TermValueKind::string:
      // Driver config values are lexed with the name and are never quoted.
      if (!term.name.empty() && term.name.front() == '@') return term.text;
      return print_string(term.text);
  }
  return {};
}

std::string print_terms(std::span<const Term> terms) {
  std::string out;
  out.reserve(terms.size() * 16);
  bool first = true;
  for (const Term& term : terms) {
    if (!first) out += ',';
    first = false;
    out += term.name;
    if (term.kind == TermValueKind::none) continue;
    out += '=';
    out += print_term_value(term);
  }
  return out;
}

PMUCAT_END_NAMESPACE
