// Catalog::open on a tree built from the input (tree_codec.h) in a fresh temporary directory, then
// every lazily loaded part: attributes, formats, events (probed by name first, then listed), PMU
// matching, a few encodings and decodings. Invariants: every diagnostic renders; an event the
// listing holds is found by name; probing and listing agree on which names exist.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_target.h"
#include "pmucat/catalog.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic.h"
#include "pmucat/encode.h"
#include "tree_codec.h"

namespace {

using pmucat::Catalog;
using pmucat::Pmu;

// Bounds on the work per input, so a tree of many PMUs does not slow the run down.
constexpr std::size_t kMaxPmus = 24;
constexpr std::size_t kMaxProbes = 8;
constexpr std::size_t kMaxEncodings = 12;

void check_renders(const pmucat::Diagnostic& diagnostic) {
  PMUCAT_FUZZ_CHECK(!pmucat::render(diagnostic, {.color = true}).empty());
}

std::optional<Catalog> open_catalog(const std::filesystem::path& root) {
  auto catalog = Catalog::open(root);
  if (!catalog) {
    check_renders(catalog.error());
    catalog = Catalog::open(root / "devices");
  }
  if (!catalog) return std::nullopt;
  return std::move(*catalog);
}

// Names the input gives to files under some `events/` directory: what find_event is asked for
// before the directory is listed.
std::vector<std::string> event_names_in(const std::vector<pmucat::fuzz::TreeEntry>& entries) {
  std::vector<std::string> names;
  for (const auto& entry : entries) {
    std::size_t at = entry.path.rfind("/events/");
    if (at == std::string::npos) continue;
    std::string name = entry.path.substr(at + 8);
    if (!name.empty() && name.find('/') == std::string::npos) names.push_back(name);
    if (names.size() == kMaxProbes) break;
  }
  return names;
}

void encode_and_decode(const Catalog& catalog, const std::string& spec) {
  for (pmucat::Profile semantics :
       {pmucat::Profile::pmucat(), pmucat::Profile::perf(pmucat::PerfRelease::v6_1)}) {
    pmucat::EncodeOptions options;
    options.semantics = semantics;
    auto encoded = pmucat::encode(catalog, spec, options);
    if (!encoded) {
      check_renders(encoded.error());
      continue;
    }
    for (const pmucat::EncodedEvent& event : *encoded) {
      if (const Pmu* pmu = catalog.find_pmu(event.pmu)) {
        (void)pmucat::decode(*pmu, event.attr.config);
      }
    }
  }
}

void exercise_pmu(const Catalog& catalog, const Pmu& pmu, const std::vector<std::string>& probes) {
  std::vector<bool> probed_found;
  for (const std::string& name : probes) probed_found.push_back(pmu.find_event(name) != nullptr);

  const pmucat::PmuAttributes& attributes = pmu.attributes();
  (void)pmu.kind();
  PMUCAT_FUZZ_CHECK(pmu.type() == attributes.type);

  std::vector<std::string> specs;
  for (const pmucat::Format& format : pmu.formats()) {
    PMUCAT_FUZZ_CHECK(pmu.find_format(format.name) == &format);
    specs.push_back(pmu.name() + "/" + format.name + "=1/");
  }
  for (const pmucat::Event& event : pmu.events()) {
    const pmucat::Event* found = pmu.find_event(event.name);
    PMUCAT_FUZZ_CHECK(found != nullptr && pmucat::iequals(found->name, event.name));
    specs.push_back(pmu.name() + "/" + event.name + "/");
    specs.push_back(event.name + ":u");
  }
  for (std::size_t i = 0; i < probes.size(); ++i) {
    PMUCAT_FUZZ_CHECK(probed_found[i] == (pmu.find_event(probes[i]) != nullptr));
  }
  for (const pmucat::Diagnostic& diagnostic : pmu.diagnostics()) check_renders(diagnostic);

  if (specs.size() > kMaxEncodings) specs.resize(kMaxEncodings);
  for (const std::string& spec : specs) encode_and_decode(catalog, spec);
  (void)pmucat::decode(pmu, pmucat::ConfigWords{~0ULL, ~0ULL, ~0ULL, ~0ULL, ~0ULL});
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto entries = pmucat::fuzz::decode_tree({data, size});
  const pmucat::fuzz::ScratchDir dir;  // outlives the catalog below
  pmucat::fuzz::write_tree(dir.path(), entries);
  const std::optional<Catalog> catalog = open_catalog(dir.path());
  if (!catalog) return 0;
  for (const pmucat::Diagnostic& diagnostic : catalog->diagnostics()) check_renders(diagnostic);

  const std::vector<std::string> probes = event_names_in(entries);
  const std::span<const Pmu> pmus = catalog->pmus();
  for (std::size_t i = 0; i < pmus.size() && i < kMaxPmus; ++i) {
    const Pmu& pmu = pmus[i];
    PMUCAT_FUZZ_CHECK(catalog->find_pmu(pmu.name()) == &pmu);
    exercise_pmu(*catalog, pmu, probes);
    (void)catalog->match_pmus(pmu.name());
  }
  (void)catalog->match_pmus("*");
  (void)catalog->core_pmu();
  encode_and_decode(*catalog, "event=0x3c,umask=0x1,inv,cmask=3");
  encode_and_decode(*catalog, "r1a3:u");
  return 0;
}
