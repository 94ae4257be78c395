// A compiled vendor event index model file (include/pmucat/vendor_index.h) from any bytes: the
// loader must stay inside the bytes it was given whatever the counts and offsets say, report a
// vendor-index-corrupt error instead, and what it accepts must round-trip: encoding the decoded
// model and decoding that gives the same model, and a lookup by name finds only that name.
// Each input is read twice: as a whole file (its last 8 bytes must be the digest of the rest,
// which random bytes never are, so this checks the digest refuses them), and as the content of
// a file sealed here with its right digest and this format's version, so that the checks
// behind the digest meet every mutation (the seeds, files of older formats included).
#include <cstdio>
#include <string>
#include <string_view>

#include "fuzz_target.h"
#include "pmucat/diagnostic.h"
#include "pmucat/vendor_index.h"
#include "pmu_events_index/digest.h"

namespace {

void check_error(const pmucat::Diagnostic& error, std::size_t size) {
  PMUCAT_FUZZ_CHECK(error.id == "vendor-index-corrupt");
  PMUCAT_FUZZ_CHECK(error.range.offset <= size);
  PMUCAT_FUZZ_CHECK(!pmucat::render(error).empty());
}

void check_lookup(const pmucat::VendorIndexModel& index, std::string_view name, std::size_t size) {
  auto found = index.named(name);
  if (!found) return check_error(found.error(), size);
  for (const pmucat::VendorEvent& event : *found) PMUCAT_FUZZ_CHECK(event.name == name);
}

// `content` with this format's version and its digest: a file as the writer would seal it.
std::string sealed(std::string content) {
  constexpr std::size_t kVersionAt = 8;
  if (content.size() >= kVersionAt + 4 && content.starts_with("PMUCATVI")) {
    std::uint32_t version = pmucat::kVendorIndexVersion;
    for (std::size_t i = 0; i < 4; ++i, version >>= 8) {
      content[kVersionAt + i] = static_cast<char>(version & 0xff);
    }
  }
  std::uint64_t digest = pmucat::pmu_events_index::digest64(content);
  for (int i = 0; i < 8; ++i, digest >>= 8) content.push_back(static_cast<char>(digest & 0xff));
  return content;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string raw(reinterpret_cast<const char*>(data), size);
  auto whole = pmucat::VendorIndexModel::from_bytes(raw, "<fuzz>");
  if (!whole) check_error(whole.error(), size);
  std::string bytes = sealed(std::move(raw));
  size = bytes.size();
  auto index = pmucat::VendorIndexModel::from_bytes(bytes, "<fuzz>");
  if (!index) {
    check_error(index.error(), size);
    return 0;
  }
  if (index->failure() != nullptr) {
    PMUCAT_FUZZ_CHECK(!index->model().has_value());
    return 0;
  }
  check_lookup(*index, "", size);
  check_lookup(*index, "inst_retired.any", size);
  auto model = index->model();
  if (!model) {
    check_error(model.error(), size);
    return 0;
  }
  PMUCAT_FUZZ_CHECK(model->events.size() == index->size());
  for (std::size_t i = 0; i < model->events.size() && i < 8; ++i) {
    check_lookup(*index, model->events[i].name, size);
  }
  // What decodes re-encodes to a file that decodes to the same model.
  auto again =
      pmucat::VendorIndexModel::from_bytes(pmucat::encode_vendor_index_model(*model), "<again>");
  if (!again) std::fprintf(stderr, "re-encoded model: %s\n", pmucat::render(again.error()).c_str());
  PMUCAT_FUZZ_CHECK(again.has_value());
  auto same = again->model();
  if (!same) std::fprintf(stderr, "re-decoded model: %s\n", pmucat::render(same.error()).c_str());
  PMUCAT_FUZZ_CHECK(same.has_value() && same->events == model->events &&
                    same->diagnostics == model->diagnostics && same->arch == model->arch &&
                    same->directory == model->directory && same->cpuid == model->cpuid &&
                    same->rules == model->rules && same->metrics == model->metrics &&
                    same->metric_group_descriptions == model->metric_group_descriptions &&
                    same->counters == model->counters);
  auto descriptions = index->metric_group_descriptions();
  PMUCAT_FUZZ_CHECK(descriptions.has_value() && *descriptions == model->metric_group_descriptions);
  for (const pmucat::VendorEvent& event : model->events) {
    auto found = again->named(event.name);
    PMUCAT_FUZZ_CHECK(found.has_value() && !found->empty());
  }
  return 0;
}
