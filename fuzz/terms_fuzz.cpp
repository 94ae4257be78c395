// parse_terms in both syntaxes; an accepted list printed with print_terms parses back to the same
// names, kinds and values. find_terms_end must stay inside the text.
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/terms.h"

namespace {

using pmucat::Term;
using pmucat::TermList;
using pmucat::TermSyntax;

bool same_meaning(const Term& a, const Term& b) {
  return a.name == b.name && a.kind == b.kind && a.value == b.value && a.text == b.text;
}

void check_round_trip(const TermList& list, TermSyntax syntax) {
  const std::string printed = pmucat::print_terms(list.terms);
  auto reparsed = pmucat::parse_terms(printed, "<printed>", syntax);
  PMUCAT_FUZZ_CHECK(reparsed.has_value());
  PMUCAT_FUZZ_CHECK(reparsed->terms.size() == list.terms.size());
  for (std::size_t i = 0; i < list.terms.size(); ++i) {
    PMUCAT_FUZZ_CHECK(same_meaning(reparsed->terms[i], list.terms[i]));
  }
}

void check_offsets(const TermList& list, std::size_t text_size, std::uint32_t base) {
  for (const Term& term : list.terms) {
    PMUCAT_FUZZ_CHECK(term.offset >= base && term.offset - base <= text_size);
    PMUCAT_FUZZ_CHECK(term.value_offset >= base && term.value_offset - base <= text_size);
    PMUCAT_FUZZ_CHECK(term.value_offset - base + term.value_length <= text_size);
  }
}

// Diagnostics must render wherever they point (carets, escapes of non-printable bytes).
void render_located(const pmucat::Diagnostic& diagnostic, std::string_view whole) {
  const pmucat::Diagnostic rebased = pmucat::rebase_diagnostic(diagnostic, whole);
  PMUCAT_FUZZ_CHECK(rebased.range.offset <= whole.size());
  PMUCAT_FUZZ_CHECK(!pmucat::render(rebased, {.color = true}).empty());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The text as the slice of a longer spec, as the spec parser passes it.
  const std::string whole = "pmu_xy/" + std::string(text);
  constexpr std::uint32_t kBase = 7;
  for (TermSyntax syntax : {TermSyntax::event_file, TermSyntax::command_line}) {
    auto parsed = pmucat::parse_terms(text, "events/fuzz", syntax, kBase);
    if (!parsed) {
      render_located(parsed.error(), whole);
      continue;
    }
    for (const pmucat::Diagnostic& lint : parsed->lints) render_located(lint, whole);
    check_offsets(*parsed, text.size(), kBase);
    check_round_trip(*parsed, syntax);
  }
  const std::size_t end = pmucat::find_terms_end(text);
  PMUCAT_FUZZ_CHECK(end == std::string_view::npos || (end < text.size() && text[end] == '/'));
  return 0;
}
