// Internal unit test of src/encode/decode_internal.h (decode_preferring's shortcut), beside
// RapidCheck properties of the public API over random PMUs: random (non-contiguous) format bit
// sets spread over config..config3 and random values.
#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <bit>
#include <map>

#include "encode/decode_internal.h"
#include "pmucat/decode.h"
#include "pmucat/encode.h"
#include "pmucat/format.h"
#include "pmucat/spec.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

// The words pmucat's own semantics encode: config..config3 (their base, perf 6.12, has no config4).
constexpr unsigned kOwnWords = 4;

struct FieldSpec {
  std::string name;
  unsigned word = 0;
  std::uint64_t mask = 0;
};

// `configN:a,b-c,...` for a mask, written the way format files are.
std::string format_text(unsigned word, std::uint64_t mask) {
  std::string text = config_word_name(word) + ":";
  bool first = true;
  for (unsigned bit = 0; bit < 64;) {
    if ((mask >> bit & 1) == 0) {
      ++bit;
      continue;
    }
    unsigned end = bit;
    while (end + 1 < 64 && (mask >> (end + 1) & 1)) ++end;
    text += (first ? "" : ",") + std::to_string(bit);
    if (end > bit) text += "-" + std::to_string(end);
    first = false;
    bit = end + 1;
  }
  return text + "\n";
}

Pmu pmu_with(const std::vector<FieldSpec>& fields) {
  PmuInfo info;
  info.name = "rnd";
  info.attributes.type = 77;
  info.attributes.type_text = "77";
  for (const FieldSpec& field : fields) {
    const std::string text = format_text(field.word, field.mask);
    auto spec = parse_format(text, field.name);
    RC_ASSERT(spec.has_value());
    RC_ASSERT(spec->mask == field.mask);
    RC_ASSERT(spec->word == field.word);
    info.formats.push_back(Format{field.name, *spec, "rnd/format/" + field.name, text});
  }
  std::sort(info.formats.begin(), info.formats.end(),
            [](const Format& a, const Format& b) { return a.name < b.name; });
  return Pmu::from_info(std::move(info));
}

// Fields whose bits never overlap: every bit of every word goes to at most one field.
rc::Gen<std::vector<FieldSpec>> disjoint_fields() {
  return rc::gen::exec([] {
    const auto count = *rc::gen::inRange<std::size_t>(1, 7);
    std::vector<FieldSpec> fields(count);
    for (std::size_t i = 0; i < count; ++i) {
      fields[i].name = "f" + std::to_string(i);
      fields[i].word = *rc::gen::inRange(0u, kOwnWords);
    }
    for (unsigned word = 0; word < kConfigWords; ++word) {
      for (unsigned bit = 0; bit < 64; ++bit) {
        const auto owner = *rc::gen::inRange<std::size_t>(0, count + 2);  // some bits unused
        if (owner < count && fields[owner].word == word)
          fields[owner].mask |= std::uint64_t{1} << bit;
      }
    }
    if (fields[0].mask == 0) fields[0].mask = std::uint64_t{1} << *rc::gen::inRange(0u, 64u);
    std::erase_if(fields, [](const FieldSpec& f) { return f.mask == 0; });
    return fields;
  });
}

// Fields that may overlap (perf ORs them).
rc::Gen<std::vector<FieldSpec>> any_fields() {
  return rc::gen::exec([] {
    const auto count = *rc::gen::inRange<std::size_t>(1, 6);
    std::vector<FieldSpec> fields(count);
    for (std::size_t i = 0; i < count; ++i) {
      fields[i].name = "f" + std::to_string(i);
      fields[i].word = *rc::gen::inRange(0u, kOwnWords);
      fields[i].mask = *rc::gen::arbitrary<std::uint64_t>() & *rc::gen::arbitrary<std::uint64_t>();
      if (fields[i].mask == 0) fields[i].mask = 1;
    }
    return fields;
  });
}

std::uint64_t max_for(std::uint64_t mask) {
  const int width = std::popcount(mask);
  return width == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << width) - 1;
}

// Reference model: the k-th lowest value bit goes to the k-th lowest field bit.
std::uint64_t naive_scatter(std::uint64_t value, std::uint64_t mask) {
  std::uint64_t out = 0;
  unsigned k = 0;
  for (unsigned bit = 0; bit < 64; ++bit) {
    if ((mask >> bit & 1) == 0) continue;
    if (value >> k & 1) out |= std::uint64_t{1} << bit;
    ++k;
  }
  return out;
}

std::string terms_text(const std::vector<FieldSpec>& fields,
                       const std::vector<std::uint64_t>& values) {
  std::string text;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    text += (i ? "," : "") + fields[i].name + "=" + std::to_string(values[i]);
  }
  return text;
}

std::vector<std::uint64_t> values_that_fit(const std::vector<FieldSpec>& fields) {
  std::vector<std::uint64_t> values;
  for (const FieldSpec& field : fields) {
    values.push_back(*rc::gen::arbitrary<std::uint64_t>() & max_for(field.mask));
  }
  return values;
}

Expected<EncodedEvent> encode_text(const Pmu& pmu, const std::string& text, Profile semantics) {
  auto terms = parse_terms(text, "<spec>", TermSyntax::command_line);
  RC_ASSERT(terms.has_value());
  EncodeOptions options;
  options.semantics = semantics;
  return encode_terms(pmu, *terms, Modifiers{}, text, options);
}

RC_GTEST_PROP(EncodeProperties, DecodeInvertsEncode, ()) {
  const auto fields = *disjoint_fields();
  const Pmu pmu = pmu_with(fields);
  const auto values = values_that_fit(fields);
  const std::string text = terms_text(fields, values);
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    if (semantics == Profile::perf(PerfRelease::v6_1) &&
        std::any_of(fields.begin(), fields.end(), [](const FieldSpec& f) { return f.word == 3; })) {
      continue;  // perf 6.1 has no config3
    }
    auto encoded = encode_text(pmu, text, semantics);
    RC_ASSERT(encoded.has_value());
    const Decoded decoded = decode(pmu, encoded->attr.config);
    std::map<std::string, std::uint64_t> got;
    for (const DecodedTerm& term : decoded.terms) got[term.name] = term.value;
    std::map<std::string, std::uint64_t> want;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (values[i] != 0) want[fields[i].name] = values[i];
    }
    RC_ASSERT(got == want);
    RC_ASSERT(decoded.residue == (ConfigWords{}));
  }
}

RC_GTEST_PROP(EncodeProperties, EncodeEqualsNaiveBitModel, ()) {
  const auto fields = *any_fields();
  const Pmu pmu = pmu_with(fields);
  const auto values = values_that_fit(fields);
  ConfigWords expected{};
  for (std::size_t i = 0; i < fields.size(); ++i) {
    expected[fields[i].word] |= naive_scatter(values[i], fields[i].mask);
  }
  const std::string text = terms_text(fields, values);
  // Distinct names, so OR and override semantics agree; config3 only exists for pmucat.
  auto encoded = encode_text(pmu, text, Profile::pmucat());
  RC_ASSERT(encoded.has_value());
  RC_ASSERT(encoded->attr.config == expected);
  const bool has_config3 =
      std::any_of(fields.begin(), fields.end(), [](const FieldSpec& f) { return f.word == 3; });
  auto perf = encode_text(pmu, text, Profile::perf(PerfRelease::v6_1));
  RC_ASSERT(perf.has_value() != has_config3);
  if (perf) RC_ASSERT(perf->attr.config == expected);
}

RC_GTEST_PROP(EncodeProperties, OnePastTheMaximumIsRejected, ()) {
  const auto fields = *any_fields();
  const Pmu pmu = pmu_with(fields);
  const auto index = *rc::gen::inRange<std::size_t>(0, fields.size());
  const FieldSpec& field = fields[index];
  RC_PRE(std::popcount(field.mask) < 64);
  const std::string text = field.name + "=" + std::to_string(max_for(field.mask) + 1);
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    auto encoded = encode_text(pmu, text, semantics);
    RC_ASSERT(!encoded.has_value());
    if (field.word < 3 || semantics == Profile::pmucat()) {
      RC_ASSERT(encoded.error().id == "value-too-big");
      RC_ASSERT(encoded.error().range.offset == field.name.size() + 1);
    }
  }
}

RC_GTEST_PROP(EncodeProperties, PerfStringReEncodesToTheSameAttr, ()) {
  const auto fields = *any_fields();
  const Pmu pmu = pmu_with(fields);
  const auto values = values_that_fit(fields);
  const std::string modifiers =
      *rc::gen::element<std::string>("", "u", "k", "ppp", "uG", "H", "kpS", "D", "I", "e", "uhP");
  const Catalog catalog = Catalog::from_pmus([&] {
    std::vector<Pmu> pmus;
    pmus.push_back(pmu_with(fields));
    return pmus;
  }());
  const std::string spec = "rnd/" + terms_text(fields, values) + ",config2=0x3/" + modifiers;
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    EncodeOptions options;
    options.semantics = semantics;
    auto first = encode(catalog, spec, options);
    const bool has_config3 =
        std::any_of(fields.begin(), fields.end(), [](const FieldSpec& f) { return f.word == 3; });
    // Only perf 6.1, which has no config3, may refuse the spec.
    RC_ASSERT(first.has_value() || (semantics == Profile::perf(PerfRelease::v6_1) && has_config3));
    if (!first) continue;
    RC_ASSERT(first->size() == 1u);
    const std::string printed = first->front().perf_string;
    auto specs = parse_spec_list(printed);
    RC_ASSERT(specs.has_value());
    auto again = encode(catalog, printed, options);
    RC_ASSERT(again.has_value());
    RC_ASSERT(again->size() == 1u);
    RC_ASSERT(again->front().attr == first->front().attr);
    RC_ASSERT(again->front().perf_string == printed);
  }
}

// perf_string decodes with the formats a spec used alone when they cover every set bit, so an
// encode reads no other format file: the answer is the one decoding with every format gives.
RC_GTEST_PROP(EncodeProperties, UsedFormatsAloneDecodeAsAllFormatsDo, ()) {
  const auto fields = *any_fields();
  const Pmu pmu = pmu_with(fields);
  std::vector<const Format*> used;
  ConfigWords covered{};
  for (const Format& format : pmu.formats()) {
    if (!*rc::gen::arbitrary<bool>()) continue;
    const std::size_t times = *rc::gen::inRange<std::size_t>(1, 3);  // a field given twice
    for (std::size_t i = 0; i < times; ++i) used.push_back(&format);
    covered[format.spec.word] |= format.spec.mask;
  }
  ConfigWords config{};
  for (unsigned w = 0; w < kConfigWords; ++w) {
    config[w] = *rc::gen::arbitrary<std::uint64_t>() & covered[w];
    if (*rc::gen::inRange(0, 8) == 0) config[w] |= *rc::gen::arbitrary<std::uint64_t>();
  }
  const auto alone = encode_detail::decode_preferring(pmu, config, used);
  const auto all = encode_detail::decode_preferring(pmu, config, used, false);
  RC_ASSERT(alone.terms_string == all.terms_string);
  RC_ASSERT(alone.residue == all.residue);
  RC_ASSERT(alone.terms.size() == all.terms.size());
  for (std::size_t i = 0; i < all.terms.size(); ++i) {
    RC_ASSERT(alone.terms[i].name == all.terms[i].name);
    RC_ASSERT(alone.terms[i].value == all.terms[i].value);
  }
}

RC_GTEST_PROP(EncodeProperties, ArbitrarySpecsNeverCrashAndErrorsPointIntoTheSpec, ()) {
  static const Catalog catalog = [] {
    std::vector<Pmu> pmus;
    pmus.push_back(pmu_with({{"event", 0, 0xff}, {"umask", 0, 0xff00}, {"ldlat", 1, 0xffff}}));
    return Catalog::from_pmus(std::move(pmus));
  }();
  const std::string spec = *rc::gen::container<std::string>(
      rc::gen::elementOf(std::string("rnd/event=0x1,umask:ldlat'\"r9{}?@-pukGH cnofig \n\x01")));
  for (const Profile semantics : {Profile::perf(PerfRelease::v6_1), Profile::pmucat()}) {
    for (const Tool tool : {Tool::stat, Tool::record}) {
      EncodeOptions options;
      options.semantics = semantics;
      options.tool = tool;
      options.default_pmu = "rnd";
      auto encoded = encode(catalog, spec, options);
      if (encoded) continue;
      const Diagnostic& error = encoded.error();
      RC_ASSERT(!error.message.empty());
      if (error.range.file == "<spec>") RC_ASSERT(error.range.offset <= spec.size());
    }
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
