// The C API (pmucat/pmucat_c.h) over the C++ library: every entry point catches everything, so
// no exception crosses into C; failures become the handle's last error.
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/count.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/diagnostic_json.h"
#include "pmucat/encode.h"
#include "pmucat/pmucat_c.h"
#include "pmucat/version.h"

struct pmucat_catalog {
  std::optional<pmucat::Catalog> catalog;
  pmucat::EncodeOptions options;
  std::optional<pmucat::Encoder> encoder;  // made on first pmucat_encode, reset by set_option
  std::vector<pmucat::EncodedEvent> encoded;
  std::optional<pmucat::Diagnostic> error;
  std::string error_text;
  std::string error_json;
  std::string scratch_terms;
  std::string scratch_events;
  std::string scratch_string;
  // Trimmed copies of catalog file contents (format and event texts), by the entry they belong
  // to: they live as long as the handle, like the catalog strings.
  std::map<const void*, std::string> trimmed;
};

// A counting session over a catalog handle's catalog (which outlives it), with its own last
// error and the last reading.
struct pmucat_count {
  std::unique_ptr<pmucat::PerfEventKernel> kernel;
  std::optional<pmucat::CountSession> session;
  pmucat::Reading reading;
  std::optional<pmucat::Diagnostic> error;
  std::string error_text;
  std::string error_json;
};

namespace {

using pmucat::DiagId;
using pmucat::Diagnostic;

constexpr std::string_view kApiFile = "<pmucat C API>";

// A handle's last error (a catalog's or a count's), as text and JSON.
template <class Handle>
void set_error(Handle& handle, Diagnostic diagnostic) {
  handle.error_text = pmucat::render(diagnostic);
  handle.error_json = pmucat::diagnostic_to_json<nlohmann::ordered_json>(diagnostic).dump();
  handle.error = std::move(diagnostic);
}

template <class Handle>
void clear_error(Handle& handle) {
  handle.error.reset();
  handle.error_text.clear();
  handle.error_json.clear();
}

template <class Handle>
int fail(Handle& handle, DiagId id, std::string message) {
  set_error(handle, pmucat::make_file_diagnostic(pmucat::Severity::error, id, kApiFile,
                                                 std::move(message)));
  return -1;
}

// Runs `body` (returning int/long/size_t...), turning an exception into the handle's last error
// and `failed`.
template <class R, class Handle, class Body>
R guarded(Handle* handle, R failed, Body&& body) noexcept {
  if (handle == nullptr) return failed;
  try {
    return body(*handle);
  } catch (const std::bad_alloc&) {
    try {
      fail(*handle, DiagId::api_internal_error, "out of memory");
    } catch (...) {
      handle->error.reset();
    }
  } catch (const std::exception& error) {
    try {
      fail(*handle, DiagId::api_internal_error, error.what());
    } catch (...) {
      handle->error.reset();
    }
  } catch (...) {
    try {
      fail(*handle, DiagId::api_internal_error, "unknown exception");
    } catch (...) {
      handle->error.reset();
    }
  }
  return failed;
}

// Checks the caller's attr pointer and size (see pmucat_encode) before any work.
int check_attr_argument(pmucat_catalog& handle, const void* out, std::size_t size) {
  if (out == nullptr) return fail(handle, DiagId::api_invalid_argument, "attr is NULL");
  if (size < pmucat::kAttrSizeVer0 || size % 8 != 0 || size > 4096) {
    return fail(handle, DiagId::api_attr_size,
                fmt::format("attr_size {} is not a perf_event_attr size (a multiple of 8 from "
                            "64, PERF_ATTR_SIZE_VER0, to 4096): pass sizeof(struct "
                            "perf_event_attr)",
                            size));
  }
  return 0;
}

// Writes `attr` into the caller's struct of `size` bytes (checked by check_attr_argument):
// checks that the struct has every field the attr sets, then writes exactly `size` bytes.
int write_attr(pmucat_catalog& handle, const pmucat::Attr& attr, void* out, std::size_t size) {
  if (check_attr_argument(handle, out, size) != 0) return -1;
  const auto bytes = static_cast<std::uint32_t>(size);
  if (const std::string_view field = pmucat::attr_field_beyond(attr, bytes); !field.empty()) {
    return fail(handle, DiagId::api_attr_size,
                fmt::format("the spec sets {}, which a {}-byte struct perf_event_attr does not "
                            "have (config3 needs PERF_ATTR_SIZE_VER8, 136 bytes: the headers of "
                            "Linux 6.3 or later)",
                            field, size));
  }
  pmucat::Attr sized = attr;
  sized.size = bytes;
  const std::vector<std::byte> image = pmucat::to_bytes(sized);  // exactly `size` bytes
  std::memcpy(out, image.data(), size);
  return 0;
}

// Checks a spec argument: not NULL, at most PMUCAT_MAX_SPEC_LENGTH bytes. Reads no byte past
// the cap, so an unterminated or huge buffer costs nothing.
int check_spec_argument(pmucat_catalog& handle, const char* spec) {
  if (spec == nullptr) return fail(handle, DiagId::api_invalid_argument, "spec is NULL");
  if (::strnlen(spec, PMUCAT_MAX_SPEC_LENGTH + 1) > PMUCAT_MAX_SPEC_LENGTH) {
    return fail(handle, DiagId::api_invalid_argument,
                fmt::format("the spec is longer than PMUCAT_MAX_SPEC_LENGTH ({} bytes): split "
                            "it into several calls",
                            PMUCAT_MAX_SPEC_LENGTH));
  }
  return 0;
}

// The attr `index` of the last encode_list, or nullptr with the handle's error set.
const pmucat::EncodedEvent* encoded_at(pmucat_catalog& handle, std::size_t index) {
  if (index >= handle.encoded.size()) {
    fail(handle, DiagId::api_invalid_argument,
         fmt::format("attr index {} is out of range (the last encode_list gave {})", index,
                     handle.encoded.size()));
    return nullptr;
  }
  return &handle.encoded[index];
}

const pmucat::Pmu* pmu_at(pmucat_catalog& handle, std::size_t index) {
  const auto pmus = handle.catalog->pmus();
  if (index >= pmus.size()) {
    fail(handle, DiagId::api_invalid_argument,
         fmt::format("PMU index {} is out of range (the catalog has {} PMUs)", index, pmus.size()));
    return nullptr;
  }
  return &pmus[index];
}

// Item `index` of `items` (a PMU's events or formats), or nullptr with the handle's error set.
template <class Items>
auto item_at(pmucat_catalog& handle, const pmucat::Pmu& pmu, const Items& items, std::size_t index,
             std::string_view what) -> decltype(&items[0]) {
  if (index >= items.size()) {
    fail(handle, DiagId::api_invalid_argument,
         fmt::format("{} index {} is out of range ({} has {} {}s)", what, index, pmu.name(),
                     items.size(), what));
    return nullptr;
  }
  return &items[index];
}

const pmucat::Event* event_at(pmucat_catalog& handle, std::size_t pmu_index, std::size_t index) {
  const pmucat::Pmu* pmu = pmu_at(handle, pmu_index);
  return pmu == nullptr ? nullptr : item_at(handle, *pmu, pmu->events(), index, "event");
}

const pmucat::Format* format_at(pmucat_catalog& handle, std::size_t pmu_index, std::size_t index) {
  const pmucat::Pmu* pmu = pmu_at(handle, pmu_index);
  return pmu == nullptr ? nullptr : item_at(handle, *pmu, pmu->formats(), index, "format");
}

// `text` without trailing whitespace (a sysfs file's newline), kept in the handle.
const char* trimmed(pmucat_catalog& handle, const void* owner, const std::string& text) {
  auto [it, inserted] = handle.trimmed.try_emplace(owner);
  if (inserted) {
    std::size_t end = text.size();
    while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ' || text[end - 1] == '\t' ||
                       text[end - 1] == '\r')) {
      --end;
    }
    it->second.assign(text, 0, end);
  }
  return it->second.c_str();
}

bool has_catalog(pmucat_catalog& handle) {
  if (handle.catalog) return true;
  if (!handle.error) {
    fail(handle, DiagId::api_invalid_argument, "the catalog failed to open");
  }
  return false;
}

// guarded() for a call that reads the open catalog: the handle's last error is cleared first,
// and a handle whose catalog failed to open answers `failed` with that error kept.
template <class R, class Body>
R reading(pmucat_catalog* handle, R failed, Body&& body) noexcept {
  return guarded(handle, failed, [&](pmucat_catalog& h) -> R {
    clear_error(h);
    if (!has_catalog(h)) return failed;
    return body(h);
  });
}

// The releases as PMUCAT_OPTION_PERF_SEMANTICS numbers them: "601 (perf 6.1), 612 (perf 6.12)".
std::string release_numbers() {
  std::string text;
  for (const pmucat::ReleaseInfo& release : pmucat::perf_releases()) {
    const std::size_t dot = release.name.find('.');
    if (!text.empty()) text += ", ";
    text += fmt::format("{}{:0>2} (perf {})", release.name.substr(0, dot),
                        release.name.substr(dot + 1), release.name);
  }
  return text;
}

}  // namespace

extern "C" {

const char* pmucat_version(void) {
  return PMUCAT_VERSION;
}

int pmucat_open(const char* sysfs, const char* events_dir, const char* cpuid,
                pmucat_catalog** out) {
  if (out == nullptr) return -1;
  *out = new (std::nothrow) pmucat_catalog();
  return guarded(*out, -1, [&](pmucat_catalog& handle) {
    pmucat::VendorOptions vendor;
    if (events_dir != nullptr) vendor.events_dir = events_dir;
    if (cpuid != nullptr) vendor.cpuid = cpuid;
    std::string root;
    if (sysfs != nullptr) {
      root = sysfs;
    } else if (const char* env = std::getenv("PMUCAT_SYSFS"); env != nullptr && *env != '\0') {
      root = env;
    } else {
      root = "/sys/bus/event_source/devices";
    }
    auto catalog = pmucat::Catalog::open(root, std::move(vendor));
    if (!catalog) {
      set_error(handle, std::move(catalog).error());
      return -1;
    }
    handle.catalog.emplace(std::move(*catalog));
    return 0;
  });
}

void pmucat_close(pmucat_catalog* catalog) {
  delete catalog;
}

const char* pmucat_last_error(const pmucat_catalog* catalog) {
  return catalog == nullptr ? "" : catalog->error_text.c_str();
}

const char* pmucat_last_error_id(const pmucat_catalog* catalog) {
  return catalog == nullptr || !catalog->error ? "" : catalog->error->id.c_str();
}

const char* pmucat_last_error_json(const pmucat_catalog* catalog) {
  return catalog == nullptr ? "" : catalog->error_json.c_str();
}

int pmucat_set_perf_semantics(pmucat_catalog* catalog, const char* name) {
  return guarded(catalog, -1, [&](pmucat_catalog& handle) {
    clear_error(handle);
    if (name == nullptr) return fail(handle, DiagId::api_invalid_argument, "name is NULL");
    const std::optional<pmucat::Profile> profile = pmucat::parse_profile(name);
    if (!profile) {
      return fail(handle, DiagId::api_invalid_argument,
                  fmt::format("'{}' names no semantics: pmucat, or a perf release pmucat "
                              "follows ({})",
                              name, pmucat::known_perf_releases_text()));
    }
    handle.options.semantics = *profile;
    handle.encoder.reset();
    return 0;
  });
}

int pmucat_set_option(pmucat_catalog* catalog, int option, int value) {
  return guarded(catalog, -1, [&](pmucat_catalog& handle) {
    clear_error(handle);
    switch (option) {
      case PMUCAT_OPTION_PERF_SEMANTICS:
        // 0 is pmucat, 1 perf 6.1 (the only perf before releases could be named), and
        // MAJOR * 100 + MINOR a release by its number (612: perf 6.12), read by the one parser
        // of release names.
        if (const std::optional<pmucat::Profile> profile =
                pmucat::parse_profile(value == 0   ? std::string("pmucat")
                                      : value == 1 ? std::string("6.1")
                                      : value > 0  ? fmt::format("{}.{}", value / 100, value % 100)
                                                   : std::string())) {
          handle.options.semantics = *profile;
        } else {
          return fail(handle, DiagId::api_invalid_argument,
                      fmt::format("value {} is not one of PMUCAT_OPTION_PERF_SEMANTICS's: 0 "
                                  "(pmucat), 1 (perf 6.1) or a perf release pmucat follows as "
                                  "MAJOR * 100 + MINOR ({})",
                                  value, release_numbers()));
        }
        break;
      case PMUCAT_OPTION_TOOL_STAT:
        if (value != 0 && value != 1) {
          return fail(handle, DiagId::api_invalid_argument,
                      fmt::format("value {} is not one of PMUCAT_OPTION_TOOL_STAT's: 0 (perf "
                                  "record) or 1 (perf stat)",
                                  value));
        }
        handle.options.tool = value == 1 ? pmucat::Tool::stat : pmucat::Tool::record;
        break;
      default:
        return fail(handle, DiagId::api_invalid_argument,
                    fmt::format("unknown option {}: PMUCAT_OPTION_PERF_SEMANTICS ({}) or "
                                "PMUCAT_OPTION_TOOL_STAT ({})",
                                option, static_cast<int>(PMUCAT_OPTION_PERF_SEMANTICS),
                                static_cast<int>(PMUCAT_OPTION_TOOL_STAT)));
    }
    handle.encoder.reset();
    return 0;
  });
}

int pmucat_encode(pmucat_catalog* catalog, const char* spec, void* attr, size_t attr_size) {
  return reading(catalog, -1, [&](pmucat_catalog& handle) {
    if (check_spec_argument(handle, spec) != 0) return -1;
    if (check_attr_argument(handle, attr, attr_size) != 0) return -1;
    if (!handle.encoder) handle.encoder.emplace(*handle.catalog, handle.options);
    pmucat::Attr encoded;
    auto source = handle.encoder->encode_one(spec, encoded);
    if (!source) {
      set_error(handle, std::move(source).error());
      return -1;
    }
    return write_attr(handle, encoded, attr, attr_size);
  });
}

int pmucat_encode_list(pmucat_catalog* catalog, const char* spec) {
  return guarded(catalog, -1, [&](pmucat_catalog& handle) {
    clear_error(handle);
    handle.encoded.clear();
    if (!has_catalog(handle)) return -1;
    if (check_spec_argument(handle, spec) != 0) return -1;
    auto events = pmucat::encode(*handle.catalog, spec, handle.options);
    if (!events) {
      set_error(handle, std::move(events).error());
      return -1;
    }
    handle.encoded = std::move(*events);
    return static_cast<int>(handle.encoded.size());
  });
}

int pmucat_encoded_attr(pmucat_catalog* catalog, size_t index, void* attr, size_t attr_size) {
  return guarded(catalog, -1, [&](pmucat_catalog& handle) {
    clear_error(handle);
    if (check_attr_argument(handle, attr, attr_size) != 0) return -1;
    const pmucat::EncodedEvent* event = encoded_at(handle, index);
    return event == nullptr ? -1 : write_attr(handle, event->attr, attr, attr_size);
  });
}

const char* pmucat_encoded_pmu(pmucat_catalog* catalog, size_t index) {
  return guarded(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   clear_error(handle);
                   const pmucat::EncodedEvent* event = encoded_at(handle, index);
                   return event == nullptr ? nullptr : event->pmu.c_str();
                 });
}

const char* pmucat_encoded_perf_string(pmucat_catalog* catalog, size_t index) {
  return guarded(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   clear_error(handle);
                   const pmucat::EncodedEvent* event = encoded_at(handle, index);
                   return event == nullptr ? nullptr : event->perf_string.c_str();
                 });
}

long pmucat_encoded_group_leader(pmucat_catalog* catalog, size_t index) {
  return guarded(catalog, -1L, [&](pmucat_catalog& handle) -> long {
    clear_error(handle);
    const pmucat::EncodedEvent* event = encoded_at(handle, index);
    if (event == nullptr || !event->group_leader) return -1;
    return static_cast<long>(*event->group_leader);
  });
}

int pmucat_decode(pmucat_catalog* catalog, const char* pmu, const uint64_t config[4],
                  const char** terms, const char** events) {
  return reading(catalog, -1, [&](pmucat_catalog& handle) {
    if (pmu == nullptr || config == nullptr) {
      return fail(handle, DiagId::api_invalid_argument, "pmu or config is NULL");
    }
    const pmucat::Pmu* found = handle.catalog->find_pmu(pmu);
    if (found == nullptr) {
      return fail(handle, DiagId::api_invalid_argument, fmt::format("no PMU named '{}'", pmu));
    }
    const pmucat::Decoded decoded =
        pmucat::decode(*found, {config[0], config[1], config[2], config[3]});
    handle.scratch_terms = decoded.terms_string;
    handle.scratch_events.clear();
    for (const std::string& name : decoded.events) {
      if (!handle.scratch_events.empty()) handle.scratch_events += ',';
      handle.scratch_events += name;
    }
    if (terms != nullptr) *terms = handle.scratch_terms.c_str();
    if (events != nullptr) *events = handle.scratch_events.c_str();
    return 0;
  });
}

size_t pmucat_pmu_count(pmucat_catalog* catalog) {
  return guarded(catalog, std::size_t{0}, [&](pmucat_catalog& handle) -> std::size_t {
    clear_error(handle);
    return has_catalog(handle) ? handle.catalog->pmus().size() : 0;
  });
}

const char* pmucat_pmu_name(pmucat_catalog* catalog, size_t pmu) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Pmu* found = pmu_at(handle, pmu);
                   return found == nullptr ? nullptr : found->name().c_str();
                 });
}

long pmucat_pmu_find(pmucat_catalog* catalog, const char* name) {
  return reading(catalog, -1L, [&](pmucat_catalog& handle) -> long {
    if (name == nullptr) return fail(handle, DiagId::api_invalid_argument, "name is NULL");
    const auto pmus = handle.catalog->pmus();
    for (std::size_t i = 0; i < pmus.size(); ++i) {
      if (pmus[i].name() == name) return static_cast<long>(i);
    }
    return fail(handle, DiagId::api_invalid_argument, fmt::format("no PMU named '{}'", name));
  });
}

int pmucat_pmu_type(pmucat_catalog* catalog, size_t pmu, uint32_t* type) {
  return reading(catalog, -1, [&](pmucat_catalog& handle) {
    if (type == nullptr) return fail(handle, DiagId::api_invalid_argument, "type is NULL");
    const pmucat::Pmu* found = pmu_at(handle, pmu);
    if (found == nullptr) return -1;
    const std::optional<std::uint32_t> value = found->type();
    if (!value) {
      return fail(handle, DiagId::api_invalid_argument,
                  fmt::format("PMU {} has no valid type file", found->name()));
    }
    *type = *value;
    return 0;
  });
}

size_t pmucat_format_count(pmucat_catalog* catalog, size_t pmu) {
  return reading(catalog, std::size_t{0}, [&](pmucat_catalog& handle) -> std::size_t {
    const pmucat::Pmu* found = pmu_at(handle, pmu);
    return found == nullptr ? 0 : found->formats().size();
  });
}

const char* pmucat_format_name(pmucat_catalog* catalog, size_t pmu, size_t format) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Format* found = format_at(handle, pmu, format);
                   return found == nullptr ? nullptr : found->name.c_str();
                 });
}

const char* pmucat_format_spec(pmucat_catalog* catalog, size_t pmu, size_t format) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Format* found = format_at(handle, pmu, format);
                   return found == nullptr ? nullptr : trimmed(handle, found, found->text);
                 });
}

size_t pmucat_event_count(pmucat_catalog* catalog, size_t pmu) {
  return reading(catalog, std::size_t{0}, [&](pmucat_catalog& handle) -> std::size_t {
    const pmucat::Pmu* found = pmu_at(handle, pmu);
    return found == nullptr ? 0 : found->events().size();
  });
}

const char* pmucat_event_name(pmucat_catalog* catalog, size_t pmu, size_t event) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Event* found = event_at(handle, pmu, event);
                   return found == nullptr ? nullptr : found->name.c_str();
                 });
}

const char* pmucat_event_terms(pmucat_catalog* catalog, size_t pmu, size_t event) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Event* found = event_at(handle, pmu, event);
                   return found == nullptr ? nullptr : trimmed(handle, found, found->text);
                 });
}

const char* pmucat_event_description(pmucat_catalog* catalog, size_t pmu, size_t event) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Event* found = event_at(handle, pmu, event);
                   if (found == nullptr) return nullptr;
                   if (!found->vendor) return "";
                   handle.scratch_string = pmucat::perf_brief_description(*found->vendor);
                   return handle.scratch_string.c_str();
                 });
}

const char* pmucat_event_unit(pmucat_catalog* catalog, size_t pmu, size_t event) {
  return reading(catalog, static_cast<const char*>(nullptr),
                 [&](pmucat_catalog& handle) -> const char* {
                   const pmucat::Event* found = event_at(handle, pmu, event);
                   if (found == nullptr) return nullptr;
                   return found->unit ? found->unit->c_str() : "";
                 });
}

double pmucat_event_scale(pmucat_catalog* catalog, size_t pmu, size_t event) {
  return reading(catalog, 1.0, [&](pmucat_catalog& handle) -> double {
    const pmucat::Event* found = event_at(handle, pmu, event);
    return found == nullptr || !found->scale ? 1.0 : *found->scale;
  });
}

}  // extern "C"

// ---- Counting ---------------------------------------------------------------------------------

namespace {

// guarded() for a count handle, its last error cleared first.
template <class R, class Body>
R counting(pmucat_count* count, R failed, Body&& body) noexcept {
  return guarded(count, failed, [&](pmucat_count& c) -> R {
    clear_error(c);
    return body(c);
  });
}

const pmucat::EventValue* value_at(pmucat_count& count, std::size_t index) {
  if (index < count.reading.values.size()) return &count.reading.values[index];
  fail(count, DiagId::api_invalid_argument,
       fmt::format("value {} of {}", index, count.reading.values.size()));
  return nullptr;
}

}  // namespace

extern "C" {

int pmucat_count_open(pmucat_catalog* catalog, const char* spec, const char* const* argv, int pid,
                      const char* cpus, pmucat_count** out) {
  return guarded(catalog, -1, [&](pmucat_catalog& handle) {
    clear_error(handle);
    if (out == nullptr) return fail(handle, DiagId::api_invalid_argument, "out is NULL");
    *out = nullptr;
    if (!has_catalog(handle)) return -1;
    if (check_spec_argument(handle, spec) != 0) return -1;
    pmucat::EncodeOptions options = handle.options;
    options.tool = pmucat::Tool::stat;
    auto events = pmucat::encode(*handle.catalog, spec, options);
    if (!events) {
      set_error(handle, std::move(events).error());
      return -1;
    }
    if ((argv == nullptr || argv[0] == nullptr) && pid <= 0 && cpus == nullptr) {
      return fail(handle, DiagId::api_invalid_argument,
                  "no target: argv, pid and cpus are all unset");
    }
    std::vector<std::string> command;
    for (const char* const* word = argv; word != nullptr && *word != nullptr; ++word) {
      command.emplace_back(*word);
    }
    auto target = pmucat::count_target(std::move(command), pid, cpus == nullptr ? "" : cpus);
    if (!target) {
      set_error(handle, std::move(target).error());
      return -1;
    }
    pmucat::CountOptions count_options;
    count_options.target = std::move(*target);
    auto count = std::make_unique<pmucat_count>();
    count->kernel = pmucat::linux_perf_events();
    auto session =
        pmucat::CountSession::open(*handle.catalog, *count->kernel, *events, count_options);
    if (!session) {
      set_error(handle, std::move(session).error());
      return -1;
    }
    count->session.emplace(std::move(*session));
    *out = count.release();
    return 0;
  });
}

int pmucat_count_start(pmucat_count* count) {
  return counting(count, -1, [](pmucat_count& c) {
    c.session->start();
    return 0;
  });
}

int pmucat_count_wait(pmucat_count* count, int* exit_status) {
  return counting(count, -1, [&](pmucat_count& c) {
    auto status = c.session->wait();
    if (!status) {
      set_error(c, std::move(status).error());
      return -1;
    }
    if (exit_status != nullptr) *exit_status = *status;
    if (auto failed = c.session->command_error()) {
      set_error(c, std::move(*failed));
      return -1;
    }
    return 0;
  });
}

long pmucat_count_read(pmucat_count* count) {
  return counting(count, -1L, [](pmucat_count& c) -> long {
    auto reading = c.session->read();
    if (!reading) {
      set_error(c, std::move(reading).error());
      return -1;
    }
    c.reading = std::move(*reading);
    return static_cast<long>(c.reading.values.size());
  });
}

const char* pmucat_count_event(pmucat_count* count, size_t index) {
  return counting(count, static_cast<const char*>(nullptr), [&](pmucat_count& c) -> const char* {
    const pmucat::EventValue* value = value_at(c, index);
    return value == nullptr ? nullptr : c.session->events()[value->event].name.c_str();
  });
}

const char* pmucat_count_pmu(pmucat_count* count, size_t index) {
  return counting(count, static_cast<const char*>(nullptr), [&](pmucat_count& c) -> const char* {
    const pmucat::EventValue* value = value_at(c, index);
    return value == nullptr ? nullptr : c.session->events()[value->event].encoded.pmu.c_str();
  });
}

int pmucat_count_value(pmucat_count* count, size_t index, double* out) {
  return counting(count, -1, [&](pmucat_count& c) {
    const pmucat::EventValue* value = value_at(c, index);
    if (value == nullptr) return -1;
    if (!value->value) return 1;
    if (out != nullptr) *out = *value->value;
    return 0;
  });
}

int pmucat_count_times(pmucat_count* count, size_t index, uint64_t* raw, uint64_t* enabled,
                       uint64_t* running) {
  return counting(count, -1, [&](pmucat_count& c) {
    const pmucat::EventValue* value = value_at(c, index);
    if (value == nullptr) return -1;
    if (raw != nullptr) *raw = value->raw;
    if (enabled != nullptr) *enabled = value->enabled;
    if (running != nullptr) *running = value->running;
    return 0;
  });
}

const char* pmucat_count_grade(pmucat_count* count, size_t index, size_t grade) {
  return counting(count, static_cast<const char*>(nullptr), [&](pmucat_count& c) -> const char* {
    const pmucat::EventValue* value = value_at(c, index);
    if (value == nullptr || grade >= value->trust.size()) return nullptr;
    return pmucat::to_string(value->trust[grade].grade).data();
  });
}

const char* pmucat_count_grade_reason(pmucat_count* count, size_t index, size_t grade) {
  return counting(count, static_cast<const char*>(nullptr), [&](pmucat_count& c) -> const char* {
    const pmucat::EventValue* value = value_at(c, index);
    if (value == nullptr || grade >= value->trust.size()) return nullptr;
    return value->trust[grade].reason.c_str();
  });
}

const char* pmucat_count_last_error(const pmucat_count* count) {
  return count == nullptr ? "" : count->error_text.c_str();
}

void pmucat_count_close(pmucat_count* count) {
  delete count;
}

}  // extern "C"
