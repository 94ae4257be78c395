// Encoder: encode() for one attr, in reused buffers.
#include <fmt/format.h>

#include <unordered_map>
#include <utility>

#include "encode/encode_core.h"
#include "encode/group_modifiers.h"
#include "encode/targets.h"
#include "encode/term_table.h"
#include "encode/topdown_groups.h"
#include "parser/spec_diagnostics.h"
#include "parser/spec_views.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/encode.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

using encode_detail::Target;
using spec_detail::EventSpecView;

Diagnostic several_attrs(std::string_view spec, std::size_t offset, std::size_t length,
                         std::string message) {
  Diagnostic d = spec_detail::spec_error(DiagId::encode_several_attrs, spec, offset, length,
                                         std::move(message));
  d.hint = "Encoder::encode_one writes one attr; encode() returns all of them";
  return d;
}

}  // namespace

struct Encoder::State {
  const Catalog& catalog;
  EncodeOptions options;
  spec_detail::SpecViews views;
  encode_detail::CoreScratch scratch;
  // Built on a PMU's first use; the catalog's formats do not change once loaded.
  std::unordered_map<const Pmu*, encode_detail::TermTable> term_tables;
  const Pmu* last_table_pmu = nullptr;
  encode_detail::TermTable* last_table = nullptr;
  encode_detail::CatalogMemo memo;

  // The target PMU's term table, or pmu-no-type. A table is built only for a PMU with a usable
  // type, so a PMU without one is not loaded any further than encode() loads it.
  Expected<encode_detail::TermTable*> term_table(const encode_detail::Target& target,
                                                 std::string_view spec) {
    const Pmu& pmu = *target.pmu;
    // The last PMU's table first: runs of specs on one PMU skip the hash map. Every table in
    // the map has a usable type (the catalog caches it), so a found table needs no check.
    if (last_table_pmu == &pmu) return last_table;
    auto found = term_tables.find(&pmu);
    if (found == term_tables.end()) {
      if (auto problem = encode_detail::pmu_type_error(target, spec, options.semantics)) {
        return unexpected(std::move(*problem));
      }
      found = term_tables.try_emplace(&pmu, pmu, options.semantics).first;
    }
    last_table_pmu = &pmu;
    last_table = &found->second;
    return &found->second;
  }

  std::optional<Diagnostic> encode(const encode_detail::Target& target, std::string_view spec,
                                   const EventSpecView& event, Attr& out, EncodedSource& source) {
    if (target.pmu == nullptr && target.builtin != encode_detail::Target::Builtin::legacy) {
      encode_detail::encode_builtin(target, event, options, out);
      source = EncodedSource{};
      return std::nullopt;
    }
    if (target.pmu == nullptr) {
      source = EncodedSource{};
      return encode_detail::encode_legacy(target, event.modifiers, spec, options, out);
    }
    auto table = term_table(target, spec);
    if (!table) return std::move(table).error();
    encode_detail::TermEncoder encoder(*target.pmu, spec, options, scratch, *table);
    if (auto problem = encoder.run(target.terms, event.modifiers, out)) return problem;
    if (target.raw_type) out.type = static_cast<std::uint32_t>(PerfType::raw);
    source = EncodedSource{target.pmu, encoder.alias()};
    return std::nullopt;
  }
};

Encoder::Encoder(const Catalog& catalog, EncodeOptions options)
    : state_(std::make_unique<State>(
          State{catalog, std::move(options), {}, {}, {}, nullptr, nullptr, {}})) {}
Encoder::Encoder(Encoder&&) noexcept = default;
Encoder& Encoder::operator=(Encoder&&) noexcept = default;
Encoder::~Encoder() = default;

Expected<EncodedSource> Encoder::encode_one(std::string_view spec, Attr& out) {
  State& state = *state_;
  const EncodeOptions& options = state.options;
  state.views.lexing = spec_detail::term_lexing_of(options.semantics);
  if (auto error = spec_detail::parse_spec_views(spec, state.views)) {
    return unexpected(std::move(*error));
  }
  if (auto error = encode_detail::check_group_names(state.views, spec, options.semantics)) {
    return unexpected(std::move(*error));
  }
  if (state.views.events.size() != 1) {
    return unexpected(several_attrs(
        spec, 0, spec.size(), fmt::format("the list holds {} events", state.views.events.size())));
  }
  const EventSpecView& event = state.views.events.front();
  EncodedSource source;
  std::size_t targets = 0;
  encode_detail::MemoLookup lookup(state.catalog, state.memo);
  auto error = encode_detail::for_each_target(
      lookup, spec, event, state.views.terms_of(event), options,
      [&](const Target& target) -> std::optional<Diagnostic> {
        if (targets > 0) {  // only counted: the spec is rejected below
          ++targets;
          return std::nullopt;
        }
        if (auto problem = state.encode(target, spec, event, out, source)) return problem;
        ++targets;
        return std::nullopt;
      },
      [&](const Target& target) -> std::optional<Diagnostic> {
        Attr attr;
        EncodedSource ignored;
        return state.encode(target, spec, event, attr, ignored);
      });
  if (error) return unexpected(std::move(*error));
  if (targets > 1) {
    return unexpected(several_attrs(spec, event.offset, event.text.size(),
                                    fmt::format("'{}' stands for {} attrs", event.text, targets)));
  }
  if (encode_detail::adds_slots(state.catalog, out, options)) {
    return unexpected(
        several_attrs(spec, event.offset, event.text.size(),
                      fmt::format("'{}' stands for 2 attrs: {} opens a slots event to lead it",
                                  event.text, options.semantics.name())));
  }
  if (event.group) {
    // A one-member group: its leader is itself.
    if (auto problem = encode_detail::apply_group_modifiers(
            state.views.groups[*event.group], event.modifiers, true, options, spec, out)) {
      return unexpected(std::move(*problem));
    }
  }
  return source;
}

PMUCAT_END_NAMESPACE
