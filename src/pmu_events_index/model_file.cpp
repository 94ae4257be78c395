// One model file of the index: writing it, and reading it back bounded by the bytes present.
#include <fcntl.h>
#include <fmt/core.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <numeric>
#include <system_error>
#include <tuple>

#include "pmu_events_index/codec.h"
#include "pmu_events_index/digest.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/vendor_index.h"

PMUCAT_BEGIN_NAMESPACE
namespace {

namespace fs = std::filesystem;
using pmu_events_index::Reader;
using pmu_events_index::Writer;

// `count` items read by `read` (a count of them first, each at least `min_size` bytes); stops
// at the reader's first failure.
template <typename Item>
std::vector<Item> read_items(Reader& reader, std::size_t min_size, Item (Reader::*read)()) {
  std::vector<Item> items;
  const std::uint32_t count = reader.count(min_size);
  items.reserve(count);
  for (std::uint32_t i = 0; i < count && reader.ok(); ++i) items.push_back((reader.*read)());
  return items;
}

// The metrics section's metrics (the reader at the metrics offset), marked with the rules the
// index was built with (the file says them once, in its header).
std::vector<VendorMetric> read_metrics(Reader& reader, PerfRelease rules) {
  std::vector<VendorMetric> metrics =
      read_items(reader, pmu_events_index::kMinMetricSize, &Reader::metric);
  for (VendorMetric& metric : metrics) metric.rules = rules;
  return metrics;
}

// The least bytes one record takes: fourteen empty strings, the flags, an empty location.
constexpr std::size_t kMinRecordSize = 14 * 4 + 1 + 4 + 3 * 4 + 8;

void write_header(Writer& writer, PerfRelease rules, std::string_view arch,
                  std::string_view directory, std::string_view cpuid, bool failed) {
  for (char c : pmu_events_index::kMagic) writer.u8(static_cast<std::uint8_t>(c));
  writer.u32(kVendorIndexVersion);
  writer.u32(failed ? 1 : 0);
  writer.u8(static_cast<std::uint8_t>(rules));
  writer.str(arch);
  writer.str(directory);
  writer.str(cpuid);
}

Diagnostic corrupt(const std::string& path, std::size_t offset, std::string_view what) {
  Diagnostic diagnostic =
      make_file_diagnostic(Severity::error, DiagId::vendor_index_corrupt, path,
                           fmt::format("corrupt vendor event index at byte {}: {}", offset, what));
  diagnostic.range.offset = offset;
  return diagnostic;
}

Diagnostic corrupt(const std::string& path, const Reader& reader) {
  return corrupt(path, reader.failed_at(), reader.failure());
}

Diagnostic unreadable(const std::string& path, std::string_view what) {
  return make_file_diagnostic(Severity::error, DiagId::vendor_index_unreadable, path,
                              std::string(what));
}

// The file's bytes: the content and its digest (vendor_index.h).
std::string sealed(Writer&& writer) {
  std::string bytes = std::move(writer).take();
  std::uint64_t digest = pmu_events_index::digest64(bytes);
  for (int i = 0; i < 8; ++i, digest >>= 8) bytes.push_back(static_cast<char>(digest & 0xff));
  return bytes;
}

std::string percent_encoded(std::string_view directory) {
  std::string name;
  for (char c : directory) {
    if (c == '/' || c == '%' || c == '\0') {
      name += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      name += c;
    }
  }
  return name;
}

}  // namespace

bool is_vendor_index(const fs::path& root) {
  std::error_code error;
  return fs::is_regular_file(root / kVendorIndexMarker, error);
}

std::string vendor_index_file_name(std::string_view directory) {
  return percent_encoded(directory) + ".pmuidx";
}

std::string encode_vendor_index_model(const VendorModel& model) {
  Writer writer;
  write_header(writer, model.rules, model.arch, model.directory, model.cpuid, false);
  writer.u32(static_cast<std::uint32_t>(model.diagnostics.size()));
  for (const Diagnostic& diagnostic : model.diagnostics) writer.diagnostic(diagnostic);
  const std::size_t metrics_offset_at = writer.size();
  writer.u32(0);  // the metrics offset, patched once the records are written

  const auto count = static_cast<std::uint32_t>(model.events.size());
  writer.u32(count);
  const std::size_t names_offset = writer.size();
  for (std::size_t i = 0; i < std::size_t{count} * pmu_events_index::kNameEntrySize; ++i)
    writer.u8(0);
  std::vector<std::uint32_t> record_offsets;
  record_offsets.reserve(count);
  for (const VendorEvent& event : model.events) {
    record_offsets.push_back(static_cast<std::uint32_t>(writer.size()));
    writer.event(event);
  }
  // The name section: (name, table position) order; each entry points at the name bytes of
  // its record, which start after the record's u32 length.
  std::vector<std::uint32_t> order(count);
  std::iota(order.begin(), order.end(), 0U);
  std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
    return std::tie(model.events[a].name, a) < std::tie(model.events[b].name, b);
  });
  for (std::size_t i = 0; i < order.size(); ++i) {
    const std::uint32_t position = order[i];
    const std::size_t entry = names_offset + i * pmu_events_index::kNameEntrySize;
    writer.patch_u32(entry, record_offsets[position] + 4);
    writer.patch_u32(entry + 4, static_cast<std::uint32_t>(model.events[position].name.size()));
    writer.patch_u32(entry + 8, position);
    writer.patch_u32(entry + 12, record_offsets[position]);
  }
  writer.patch_u32(metrics_offset_at, static_cast<std::uint32_t>(writer.size()));
  writer.u32(static_cast<std::uint32_t>(model.metrics.size()));
  for (const VendorMetric& metric : model.metrics) writer.metric(metric);
  writer.u32(static_cast<std::uint32_t>(model.metric_group_descriptions.size()));
  for (const VendorMetricGroupDescription& description : model.metric_group_descriptions) {
    writer.group_description(description);
  }
  writer.u32(static_cast<std::uint32_t>(model.counters.size()));
  for (const VendorCounterInfo& counter : model.counters) writer.counter(counter);
  return sealed(std::move(writer));
}

std::string encode_vendor_index_failure(PerfRelease rules, std::string_view arch,
                                        std::string_view directory, const Diagnostic& failure) {
  Writer writer;
  write_header(writer, rules, arch, directory, "", true);
  writer.diagnostic(failure);
  return sealed(std::move(writer));
}

Expected<VendorIndexModel> VendorIndexModel::parse(std::shared_ptr<const void> owner,
                                                   std::string_view bytes, std::string path) {
  VendorIndexModel model;
  model.owner_ = std::move(owner);
  model.file_size_ = bytes.size();
  model.path_ = std::move(path);
  Header& header = model.header_;
  if (bytes.substr(0, pmu_events_index::kMagic.size()) != pmu_events_index::kMagic) {
    return unexpected(corrupt(model.path_, 0, "not a pmucat vendor index model file"));
  }
  {
    // The version first: an index of another format says so rather than "damaged".
    Reader version_reader(bytes, pmu_events_index::kMagic.size());
    const std::uint32_t version = version_reader.u32();
    if (version_reader.ok() && version != kVendorIndexVersion) {
      return unexpected(
          corrupt(model.path_, pmu_events_index::kMagic.size(),
                  fmt::format("format version {}, this pmucat reads {} (rebuild the index)",
                              version, kVendorIndexVersion)));
    }
  }
  // The digest covers every byte before it: checked before anything else is believed, so the
  // checks below only meet files this pmucat wrote (or a fuzzer sealed).
  constexpr std::size_t kDigestSize = 8;
  if (bytes.size() < pmu_events_index::kMagic.size() + 4 + kDigestSize) {
    return unexpected(corrupt(model.path_, bytes.size(), "too short for a header and digest"));
  }
  const std::size_t digest_at = bytes.size() - kDigestSize;
  Reader digest_reader(bytes, digest_at);
  if (digest_reader.u64() != pmu_events_index::digest64(bytes.substr(0, digest_at))) {
    return unexpected(corrupt(model.path_, digest_at,
                              "the content digest does not match the file's bytes (the file "
                              "was changed after it was written: rebuild the index)"));
  }
  bytes = bytes.substr(0, digest_at);
  model.bytes_ = bytes;
  Reader reader(bytes, pmu_events_index::kMagic.size() + 4);
  const std::size_t status_at = reader.offset();
  const std::uint32_t status = reader.u32();
  if (reader.ok() && status > 1) return unexpected(corrupt(model.path_, status_at, "bad status"));
  header.failed = status == 1;
  const std::size_t rules_at = reader.offset();
  const std::uint8_t rules = reader.u8();
  const auto known = known_perf_releases();
  const auto rules_known = std::find_if(known.begin(), known.end(), [&](PerfRelease release) {
    return static_cast<std::uint8_t>(release) == rules;
  });
  if (reader.ok() && rules_known == known.end()) {
    return unexpected(
        corrupt(model.path_, rules_at, fmt::format("rules {} name no perf release", rules)));
  }
  header.rules = static_cast<PerfRelease>(rules);
  header.arch = reader.str();
  header.directory = reader.str();
  header.cpuid = reader.str();
  if (header.failed) {
    header.failure = reader.diagnostic();
  } else {
    const std::uint32_t diagnostics = reader.count(pmu_events_index::kMinDiagnosticSize);
    for (std::uint32_t i = 0; i < diagnostics && reader.ok(); ++i) {
      header.diagnostics.push_back(reader.diagnostic());
    }
    const std::size_t metrics_offset_at = reader.offset();
    header.metrics_offset = reader.u32();
    header.count = reader.count(pmu_events_index::kNameEntrySize + kMinRecordSize);
    header.names_offset = reader.offset();
    header.records_offset =
        header.names_offset + std::size_t{header.count} * pmu_events_index::kNameEntrySize;
    // The metrics follow the records: at least one minimal record each, and a count's bytes.
    if (reader.ok() &&
        (header.metrics_offset <
             header.records_offset + std::size_t{header.count} * kMinRecordSize ||
         header.metrics_offset > bytes.size() || bytes.size() - header.metrics_offset < 4)) {
      return unexpected(corrupt(
          model.path_, metrics_offset_at,
          fmt::format("a metrics offset of {} outside the file's records", header.metrics_offset)));
    }
  }
  if (!reader.ok()) return unexpected(corrupt(model.path_, reader));
  return model;
}

Expected<VendorIndexModel> VendorIndexModel::from_bytes(std::string bytes, std::string path) {
  auto owner = std::make_shared<const std::string>(std::move(bytes));
  const std::string_view view = *owner;
  return parse(std::move(owner), view, std::move(path));
}

Expected<VendorIndexModel> VendorIndexModel::open(const fs::path& file, Trust trust) {
  const std::string path = file.string();
  // Never blocks (a FIFO), never makes a terminal ours; a cache file is never read through a
  // symlink.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY |
                                          (trust == Trust::private_to_user ? O_NOFOLLOW : 0));
  if (fd < 0) {
    return unexpected(unreadable(path, errno == ELOOP && trust == Trust::private_to_user
                                           ? "a symlink (a cache file is never followed)"
                                           : std::strerror(errno)));
  }
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    const int error = errno;
    ::close(fd);
    return unexpected(unreadable(path, std::strerror(error)));
  }
  std::string refused;
  if (!S_ISREG(status.st_mode)) {
    refused = "not a regular file";
  } else if (trust == Trust::private_to_user && status.st_uid != ::geteuid()) {
    refused = fmt::format("owned by uid {}, not by this user (uid {})", status.st_uid, ::geteuid());
  } else if (trust == Trust::private_to_user && (status.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    refused = "writable by other users (group or world)";
  } else if ((status.st_mode & S_IWOTH) != 0) {
    refused = "world-writable";
  } else if (static_cast<std::uint64_t>(status.st_size) > kMaxVendorIndexFileSize) {
    refused = fmt::format("{} bytes, more than the {} MiB an index file may have", status.st_size,
                          kMaxVendorIndexFileSize >> 20);
  }
  if (!refused.empty()) {
    ::close(fd);
    return unexpected(unreadable(path, refused));
  }
  const auto size = static_cast<std::size_t>(status.st_size);
  if (size == 0) {
    ::close(fd);
    return unexpected(corrupt(path, 0, "empty file"));
  }
  // A read-only mapping: the digest reads every page once (fault-around maps them a few dozen
  // at a time; MAP_POPULATE measured no faster), then a lookup decodes only the name entries it
  // searches and the records it finds.
  void* address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_error = errno;
  ::close(fd);
  if (address == MAP_FAILED) return unexpected(unreadable(path, std::strerror(map_error)));
  std::shared_ptr<const void> owner(
      address, [size](const void* mapped) { ::munmap(const_cast<void*>(mapped), size); });
  const std::string_view bytes(static_cast<const char*>(address), size);
  return parse(std::move(owner), bytes, path);
}

Expected<std::vector<VendorEvent>> VendorIndexModel::named(std::string_view lower_name) const {
  std::vector<VendorEvent> events;
  if (header_.failed) return events;
  // The name of entry `i`, or an error offset.
  std::optional<Diagnostic> error;
  auto name_of = [&](std::size_t i) -> std::string_view {
    const std::size_t entry = header_.names_offset + i * pmu_events_index::kNameEntrySize;
    Reader reader(bytes_, entry);
    const std::uint32_t offset = reader.u32();
    const std::uint32_t size = reader.u32();
    if (!reader.ok() || offset < header_.records_offset || offset > bytes_.size() ||
        size > bytes_.size() - offset) {
      if (!error) error = corrupt(path_, entry, "a name entry points outside the records");
      return {};
    }
    return bytes_.substr(offset, size);
  };
  std::size_t low = 0;
  std::size_t high = header_.count;
  while (low < high) {
    const std::size_t middle = low + (high - low) / 2;
    if (name_of(middle) < lower_name) {
      low = middle + 1;
    } else {
      high = middle;
    }
    if (error) return unexpected(std::move(*error));
  }
  for (std::size_t i = low; i < header_.count; ++i) {
    if (name_of(i) != lower_name) break;
    if (error) return unexpected(std::move(*error));
    const std::size_t entry = header_.names_offset + i * pmu_events_index::kNameEntrySize;
    Reader at(bytes_, entry + 12);
    const std::uint32_t record = at.u32();
    if (!at.ok() || record < header_.records_offset) {
      return unexpected(corrupt(path_, entry + 12, "a record offset before the records"));
    }
    if (record >= bytes_.size()) {
      return unexpected(corrupt(path_, entry + 12, "a record offset past the end of the file"));
    }
    Reader reader(bytes_, record);
    VendorEvent event = reader.event();
    if (!reader.ok()) return unexpected(corrupt(path_, reader));
    if (event.name != lower_name) {
      return unexpected(corrupt(path_, record, "the record's name is not its entry's"));
    }
    event.rules = header_.rules;
    events.push_back(std::move(event));
  }
  if (error) return unexpected(std::move(*error));
  return events;
}

Expected<VendorModel> VendorIndexModel::model() const {
  if (header_.failed) return unexpected(header_.failure);
  VendorModel model;
  model.arch = header_.arch;
  model.directory = header_.directory;
  model.cpuid = header_.cpuid;
  model.rules = header_.rules;
  model.diagnostics = header_.diagnostics;
  model.events.reserve(header_.count);
  Reader reader(bytes_, header_.records_offset);
  for (std::uint32_t i = 0; i < header_.count && reader.ok(); ++i) {
    model.events.push_back(reader.event());
    model.events.back().rules = header_.rules;
  }
  if (!reader.ok()) return unexpected(corrupt(path_, reader));
  Reader after_records(bytes_, header_.metrics_offset);
  model.metrics = read_metrics(after_records, header_.rules);
  model.metric_group_descriptions = read_items(
      after_records, pmu_events_index::kMinGroupDescriptionSize, &Reader::group_description);
  model.counters = read_items(after_records, pmu_events_index::kMinCounterSize, &Reader::counter);
  if (!after_records.ok()) return unexpected(corrupt(path_, after_records));
  return model;
}

Expected<std::vector<VendorMetric>> VendorIndexModel::metrics() const {
  if (header_.failed) return std::vector<VendorMetric>();
  Reader reader(bytes_, header_.metrics_offset);
  std::vector<VendorMetric> metrics = read_metrics(reader, header_.rules);
  if (!reader.ok()) return unexpected(corrupt(path_, reader));
  return metrics;
}

Expected<std::vector<VendorMetricGroupDescription>> VendorIndexModel::metric_group_descriptions()
    const {
  if (header_.failed) return std::vector<VendorMetricGroupDescription>();
  Reader reader(bytes_, header_.metrics_offset);
  read_metrics(reader, header_.rules);
  auto descriptions =
      read_items(reader, pmu_events_index::kMinGroupDescriptionSize, &Reader::group_description);
  if (!reader.ok()) return unexpected(corrupt(path_, reader));
  return descriptions;
}

Expected<VendorIndexModel> open_vendor_index_model(const fs::path& index_root,
                                                   std::string_view arch,
                                                   std::string_view directory) {
  auto model = VendorIndexModel::open(index_root / arch / vendor_index_file_name(directory));
  if (!model) return model;
  if (model->arch() != arch || model->directory() != directory) {
    return unexpected(corrupt(index_root.string(), 0,
                              fmt::format("the model file of {}/{} holds {}/{}", arch, directory,
                                          model->arch(), model->directory())));
  }
  if (const Diagnostic* failure = model->failure()) return unexpected(*failure);
  return model;
}

Expected<std::optional<VendorIndexModel>> open_vendor_index_sys(const fs::path& index_root,
                                                                std::string_view arch) {
  const fs::path file = index_root / arch / kVendorIndexSysFile;
  std::error_code error;
  if (!fs::exists(fs::symlink_status(file, error))) return std::optional<VendorIndexModel>();
  auto model = VendorIndexModel::open(file);
  if (!model) return unexpected(std::move(model).error());
  if (model->arch() != arch || model->directory() != "sys") {
    return unexpected(corrupt(file.string(), 0,
                              fmt::format("the system tables of {} hold {}/{}", arch, model->arch(),
                                          model->directory())));
  }
  return std::optional<VendorIndexModel>(std::move(*model));
}

PMUCAT_END_NAMESPACE
