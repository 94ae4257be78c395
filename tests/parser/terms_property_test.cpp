// Properties of parse_terms and print_terms.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "pmucat/terms.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

rc::Gen<std::string> gen_name() {
  const std::string start = "abcxyzABCXYZ_*?";
  const std::string rest = "abcxyzABCXYZ_*?0189.:-";
  return rc::gen::apply(
      [](char first, std::vector<char> tail) {
        std::string name(1, first);
        name.append(tail.begin(), tail.end());
        return name;
      },
      rc::gen::elementOf(start),
      rc::gen::resize(8, rc::gen::container<std::vector<char>>(rc::gen::elementOf(rest))));
}

// Any string without both kinds of quote can be printed and read back.
rc::Gen<std::string> gen_string_value() {
  return rc::gen::suchThat(
      rc::gen::oneOf(gen_name(), rc::gen::string<std::string>()), [](const std::string& text) {
        return text.find('\'') == std::string::npos || text.find('"') == std::string::npos;
      });
}

rc::Gen<Term> gen_term() {
  return rc::gen::apply(
      [](std::string name, int kind, std::uint64_t number, std::string text) {
        Term term;
        term.name = std::move(name);
        switch (kind) {
          case 0:
            break;
          case 1:
            term.kind = TermValueKind::number;
            term.value = number;
            break;
          case 2:
            term.kind = TermValueKind::param;
            term.value = 0;
            term.text = "?";
            break;
          default:
            term.kind = TermValueKind::string;
            term.value = 0;
            term.text = std::move(text);
            break;
        }
        return term;
      },
      gen_name(), rc::gen::inRange(0, 4), rc::gen::arbitrary<std::uint64_t>(), gen_string_value());
}

RC_GTEST_PROP(TermsProperty, PrintThenParseIsTheIdentity, ()) {
  const auto terms = *rc::gen::container<std::vector<Term>>(gen_term());
  const std::string printed = print_terms(terms);
  const auto parsed = parse_terms(printed, "<spec>", TermSyntax::command_line);
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->terms.size() == terms.size());
  RC_ASSERT(parsed->lints.empty());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    const Term& got = parsed->terms[i];
    RC_ASSERT(got.name == terms[i].name);
    RC_ASSERT(got.kind == terms[i].kind);
    RC_ASSERT(got.value == terms[i].value);
    RC_ASSERT(got.text == terms[i].text);
    RC_ASSERT(printed.substr(got.offset, got.length).starts_with(got.name));
  }
  RC_ASSERT(print_terms(parsed->terms) == printed);
}

RC_GTEST_PROP(TermsProperty, PlainTermsRoundTripInEventFiles, ()) {
  auto terms = *rc::gen::container<std::vector<Term>>(gen_term());
  for (Term& term : terms) {
    if (term.kind == TermValueKind::string) term.text = *gen_name();
    if (term.kind == TermValueKind::string && term.text == "?") term.text = "q";
  }
  const auto parsed = parse_terms(print_terms(terms) + "\n", "events/e");
  RC_ASSERT(parsed.has_value());
  RC_ASSERT(parsed->terms.size() == terms.size());
  for (std::size_t i = 0; i < terms.size(); ++i) {
    RC_ASSERT(parsed->terms[i].kind == terms[i].kind);
    RC_ASSERT(parsed->terms[i].value == terms[i].value);
    RC_ASSERT(parsed->terms[i].text == terms[i].text);
  }
}

// Messages are one printable ASCII line whatever bytes the input held.
bool printable_line(const std::string& message) {
  for (char c : message) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte >= 0x7f) return false;
  }
  return !message.empty();
}

void check_total(const std::string& text, TermSyntax syntax) {
  const std::uint32_t base = 7;
  const auto parsed = parse_terms(text, "<fuzz>", syntax, base);
  if (parsed) {
    for (const Term& term : parsed->terms) {
      RC_ASSERT(!term.name.empty());
      RC_ASSERT(term.offset >= base);
      RC_ASSERT(term.offset - base + term.length <= text.size());
      RC_ASSERT(term.value_offset - base + term.value_length <= text.size());
    }
    for (const Diagnostic& lint : parsed->lints) {
      RC_ASSERT(lint.severity == Severity::warning);
      RC_ASSERT(printable_line(lint.message));
      RC_ASSERT(lint.range.offset >= base);
      RC_ASSERT(lint.range.offset - base + lint.range.length <= text.size());
    }
    return;
  }
  const Diagnostic& error = parsed.error();
  RC_ASSERT(error.severity == Severity::error);
  RC_ASSERT(!error.id.empty());
  RC_ASSERT(printable_line(error.message));
  RC_ASSERT(error.range.offset >= base);
  RC_ASSERT(error.range.offset - base + error.range.length <= text.size());
  RC_ASSERT(!render(error).empty());
}

RC_GTEST_PROP(TermsProperty, RandomBytesNeverCrash, (const std::string& text)) {
  check_total(text, TermSyntax::event_file);
  check_total(text, TermSyntax::command_line);
}

RC_GTEST_PROP(TermsProperty, RandomTokenSoupNeverCrashes, ()) {
  const auto pieces = *rc::gen::container<std::vector<std::string>>(rc::gen::element<std::string>(
      "event", "=", ",", "0x3c", "0X", "0x", "12", "?", "'", "\"", "@", "@cfg", "-", ":", "/", " ",
      "\n", "+", "umask", "99999999999999999999", "g", std::string(1, '\0'), "\xff"));
  std::string text;
  for (const auto& piece : pieces) text += piece;
  check_total(text, TermSyntax::event_file);
  check_total(text, TermSyntax::command_line);
}

}  // namespace
PMUCAT_END_NAMESPACE
