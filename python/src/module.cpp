// pmucat._core: the pybind11 binding of the C++ library. The Pythonic surface (pmucat.Error,
// the Finding dataclass, pmucat.check, pmucat.perfdata) is in python/pmucat/*.py over this.
// Every object keeps the catalog it came from alive (a shared_ptr), so a Pmu or an Event never
// outlives its data. Encoding releases the GIL: a Catalog is safe to use from several threads.
#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <exception>
#include <filesystem>
#include <memory>
#include <mutex>
#include <new>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "common/json.h"
#include "pmucat/attr.h"
#include "pmucat/catalog.h"
#include "pmucat/check.h"
#include "pmucat/count.h"
#include "pmucat/decode.h"
#include "pmucat/diagnostic.h"
#include "pmucat/diagnostic_ids.h"
#include "pmucat/diagnostic_json.h"
#include "pmucat/encode.h"
#include "pmucat/perfdata.h"
#include "pmucat/perfdata_features.h"
#include "pmucat/snapshot.h"
#include "pmucat/vendor_events.h"
#include "pmucat/vendor_index_install.h"
#include "pmucat/version.h"

namespace py = pybind11;

namespace {

using pmucat::DiagId;
using pmucat::Diagnostic;

// The longest spec encode() takes, in bytes: the C API's PMUCAT_MAX_SPEC_LENGTH (pmucat_c.h), the
// most one command-line argument can hold on Linux, so any spec perf or pmuencode can be given.
constexpr std::size_t kMaxSpecLength = 131072;

// Text the library holds (names and paths from a tree or a perf.data, file contents,
// diagnostics) as a str: UTF-8, each byte that is not part of valid UTF-8 decoded as a lone
// surrogate U+DC80..U+DCFF (Python's "surrogateescape", as os.fsdecode() does). Nothing fails
// to convert, and os.fsencode() gives the bytes back.
py::str text(std::string_view bytes) {
  PyObject* out =
      PyUnicode_DecodeUTF8(bytes.data(), static_cast<Py_ssize_t>(bytes.size()), "surrogateescape");
  if (out == nullptr) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(out);
}

py::object optional_text(const std::optional<std::string>& value) {
  return value ? py::object(text(*value)) : py::object(py::none());
}

py::list text_list(const std::vector<std::string>& items) {
  py::list out;
  for (const std::string& item : items) out.append(text(item));
  return out;
}

py::object json_to_python(const nlohmann::ordered_json& value) {
  switch (value.type()) {
    case nlohmann::ordered_json::value_t::object: {
      py::dict out;
      for (const auto& [key, item] : value.items()) out[text(key)] = json_to_python(item);
      return out;
    }
    case nlohmann::ordered_json::value_t::array: {
      py::list out;
      for (const auto& item : value) out.append(json_to_python(item));
      return out;
    }
    case nlohmann::ordered_json::value_t::string:
      return text(value.get_ref<const std::string&>());
    case nlohmann::ordered_json::value_t::boolean:
      return py::bool_(value.get<bool>());
    case nlohmann::ordered_json::value_t::number_unsigned:
      return py::int_(value.get<std::uint64_t>());
    case nlohmann::ordered_json::value_t::number_integer:
      return py::int_(value.get<std::int64_t>());
    case nlohmann::ordered_json::value_t::number_float:
      return py::float_(value.get<double>());
    default:
      return py::none();
  }
}

// The one JSON encoding of a diagnostic (pmucat/diagnostic_json.h), as a dict.
py::dict diagnostic_dict(const Diagnostic& diagnostic) {
  return json_to_python(pmucat::diagnostic_to_json<nlohmann::ordered_json>(diagnostic))
      .cast<py::dict>();
}

// Sets pmucat.Error(rendered, diagnostic dict) as the current Python exception.
void set_error(const Diagnostic& diagnostic) {
  py::object error_type = py::module_::import("pmucat._error").attr("Error");
  py::object error = error_type(text(pmucat::render(diagnostic)), diagnostic_dict(diagnostic));
  PyErr_SetObject(error_type.ptr(), error.ptr());
}

Diagnostic api_diagnostic(DiagId id, std::string message) {
  return pmucat::make_file_diagnostic(pmucat::Severity::error, id, "<pmucat>", std::move(message));
}

// Raises pmucat.Error(rendered, diagnostic dict).
[[noreturn]] void raise_error(const Diagnostic& diagnostic) {
  set_error(diagnostic);
  throw py::error_already_set();
}

[[noreturn]] void raise_api_error(DiagId id, std::string message) {
  raise_error(api_diagnostic(id, std::move(message)));
}

// Arguments. The public functions take their arguments as Python objects and convert them here,
// so that a wrong type, a value out of range or a path with a NUL raises pmucat.Error naming the
// argument (api-invalid-argument), never pybind11's TypeError or a silent truncation.

std::string type_name(py::handle value) {
  return Py_TYPE(value.ptr())->tp_name;
}

// A rejected value as its error message shows it: its repr, a long str or bytes cut short.
std::string shown(py::handle value) {
  py::object shown_value = py::reinterpret_borrow<py::object>(value);
  bool cut = false;
  if ((PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) && py::len(value) > 64) {
    shown_value = value[py::slice(0, 64, 1)];
    cut = true;
  }
  PyObject* repr = PyObject_Repr(shown_value.ptr());
  if (repr == nullptr) {
    PyErr_Clear();
    return "a " + type_name(value);
  }
  PyObject* utf8 = PyUnicode_AsEncodedString(repr, "utf-8", "backslashreplace");
  Py_DECREF(repr);
  if (utf8 == nullptr) {
    PyErr_Clear();
    return "a " + type_name(value);
  }
  std::string out(PyBytes_AS_STRING(utf8), static_cast<std::size_t>(PyBytes_GET_SIZE(utf8)));
  Py_DECREF(utf8);
  return cut ? out + "..." : out;
}

[[noreturn]] void raise_argument_error(std::string_view name, std::string_view problem) {
  raise_api_error(DiagId::api_invalid_argument, fmt::format("argument '{}' {}", name, problem));
}

std::string bytes_value(PyObject* bytes) {
  return {PyBytes_AS_STRING(bytes), static_cast<std::size_t>(PyBytes_GET_SIZE(bytes))};
}

// A str as the bytes it stands for: UTF-8, with escaped bytes (U+DC80..U+DCFF, what text() makes
// of bytes that are not UTF-8) turned back into themselves.
std::string str_bytes(py::handle value, std::string_view name) {
  PyObject* encoded = PyUnicode_AsEncodedString(value.ptr(), "utf-8", "surrogateescape");
  if (encoded == nullptr) {
    PyErr_Clear();
    raise_argument_error(name,
                         "holds a surrogate code point that is not an escaped byte "
                         "(U+DC80..U+DCFF): it stands for no bytes");
  }
  std::string out = bytes_value(encoded);
  Py_DECREF(encoded);
  return out;
}

// A text argument (a spec, a name): a str (see str_bytes) or bytes.
std::string text_arg(py::handle value, std::string_view name) {
  if (PyUnicode_Check(value.ptr())) return str_bytes(value, name);
  if (PyBytes_Check(value.ptr())) return bytes_value(value.ptr());
  raise_argument_error(name, fmt::format("must be a str or bytes, not {}", type_name(value)));
}

void reject_nul(const std::string& value, std::string_view name, std::string_view what) {
  if (const std::size_t nul = value.find('\0'); nul != std::string::npos) {
    raise_argument_error(name, fmt::format("holds a NUL byte at offset {}: {}", nul, what));
  }
}

// A text argument that names something (a CPU identifier, a default PMU, a rule id, a KCIDB
// field): no NUL, which no name holds.
std::string word_arg(py::handle value, std::string_view name) {
  std::string out = text_arg(value, name);
  reject_nul(out, name, "no name holds one");
  return out;
}

std::optional<std::string> optional_word_arg(py::handle value, std::string_view name) {
  if (value.is_none()) return std::nullopt;
  return word_arg(value, name);
}

// A path argument: str, bytes or os.PathLike (os.fspath), encoded as os.fsencode() does; a NUL
// is refused, since the system would read the path only up to it (another file or tree).
std::string path_arg(py::handle value, std::string_view name) {
  PyObject* fspath = PyOS_FSPath(value.ptr());
  if (fspath == nullptr) {
    PyErr_Clear();
    raise_argument_error(
        name, fmt::format("must be a path (str, bytes or os.PathLike), not {}", type_name(value)));
  }
  py::object path = py::reinterpret_steal<py::object>(fspath);
  std::string out = PyBytes_Check(path.ptr()) ? bytes_value(path.ptr()) : str_bytes(path, name);
  if (const std::size_t nul = out.find('\0'); nul != std::string::npos) {
    raise_argument_error(name, fmt::format("holds a NUL byte at offset {}: the system would read "
                                           "only '{}', another path",
                                           nul, out.substr(0, nul)));
  }
  return out;
}

std::optional<std::string> optional_path_arg(py::handle value, std::string_view name) {
  if (value.is_none()) return std::nullopt;
  return path_arg(value, name);
}

// An int argument (or an object with __index__) from 0 to `max`.
std::uint64_t uint_arg(py::handle value, std::string_view name, std::uint64_t max = UINT64_MAX) {
  PyObject* index = PyNumber_Index(value.ptr());
  if (index == nullptr) {
    PyErr_Clear();
    raise_argument_error(name, fmt::format("must be an int, not {}", type_name(value)));
  }
  const unsigned long long number = PyLong_AsUnsignedLongLong(index);
  Py_DECREF(index);
  const bool overflow = number == static_cast<unsigned long long>(-1) && PyErr_Occurred();
  if (overflow) PyErr_Clear();
  if (overflow || number > max) {
    raise_argument_error(name,
                         fmt::format("must be an int from 0 to {}, not {}", max, shown(value)));
  }
  return number;
}

bool bool_arg(py::handle value, std::string_view name) {
  if (!PyBool_Check(value.ptr())) {
    raise_argument_error(name, fmt::format("must be True or False, not {}", shown(value)));
  }
  return value.ptr() == Py_True;
}

// A list of text arguments from any iterable but a str or bytes (whose items are characters).
std::vector<std::string> text_list_arg(py::handle value, std::string_view name) {
  if (PyUnicode_Check(value.ptr()) || PyBytes_Check(value.ptr())) {
    raise_argument_error(name, fmt::format("must be an iterable of str (a list), not a single "
                                           "{}: write [{}]",
                                           type_name(value), shown(value)));
  }
  PyObject* iterator = PyObject_GetIter(value.ptr());
  if (iterator == nullptr) {
    PyErr_Clear();
    raise_argument_error(name, fmt::format("must be an iterable of str, not {}", type_name(value)));
  }
  py::object items = py::reinterpret_steal<py::object>(iterator);
  std::vector<std::string> out;
  while (PyObject* item = PyIter_Next(items.ptr())) {
    py::object owned = py::reinterpret_steal<py::object>(item);
    out.push_back(word_arg(owned, fmt::format("{}[{}]", name, out.size())));
  }
  if (PyErr_Occurred()) throw py::error_already_set();
  return out;
}

// A catalog and what keeps its tree alive (an unpacked capture).
struct CatalogHolder {
  std::optional<pmucat::snap::Unpacked> unpacked;
  std::optional<pmucat::Catalog> catalog;
  ~CatalogHolder() { catalog.reset(); }  // the catalog before the directory it reads
};
using CatalogPtr = std::shared_ptr<CatalogHolder>;

// Every attr field by its uapi name, zero or not.
py::dict attr_dict(const pmucat::Attr& a) {
  py::dict d;
  d["type"] = a.type;
  d["size"] = a.size;
  d["config"] = a.config[0];
  d["config1"] = a.config[1];
  d["config2"] = a.config[2];
  d["config3"] = a.config[3];
  d["config4"] = a.config[4];
  d["sample_period"] = a.sample_period;
  d["sample_freq"] = a.sample_freq;
  d["sample_type"] = a.sample_type;
  d["read_format"] = a.read_format;
#define PMUCAT_FLAG(name) d[#name] = a.name
  PMUCAT_FLAG(disabled);
  PMUCAT_FLAG(inherit);
  PMUCAT_FLAG(pinned);
  PMUCAT_FLAG(exclusive);
  PMUCAT_FLAG(exclude_user);
  PMUCAT_FLAG(exclude_kernel);
  PMUCAT_FLAG(exclude_hv);
  PMUCAT_FLAG(exclude_idle);
  PMUCAT_FLAG(mmap);
  PMUCAT_FLAG(comm);
  PMUCAT_FLAG(freq);
  PMUCAT_FLAG(inherit_stat);
  PMUCAT_FLAG(enable_on_exec);
  PMUCAT_FLAG(task);
  PMUCAT_FLAG(watermark);
  PMUCAT_FLAG(precise_ip);
  PMUCAT_FLAG(mmap_data);
  PMUCAT_FLAG(sample_id_all);
  PMUCAT_FLAG(exclude_host);
  PMUCAT_FLAG(exclude_guest);
  PMUCAT_FLAG(exclude_callchain_kernel);
  PMUCAT_FLAG(exclude_callchain_user);
  PMUCAT_FLAG(mmap2);
  PMUCAT_FLAG(comm_exec);
  PMUCAT_FLAG(use_clockid);
  PMUCAT_FLAG(context_switch);
  PMUCAT_FLAG(write_backward);
  PMUCAT_FLAG(namespaces);
  PMUCAT_FLAG(ksymbol);
  PMUCAT_FLAG(bpf_event);
  PMUCAT_FLAG(aux_output);
  PMUCAT_FLAG(cgroup);
  PMUCAT_FLAG(text_poke);
  PMUCAT_FLAG(build_id);
  PMUCAT_FLAG(inherit_thread);
  PMUCAT_FLAG(remove_on_exec);
  PMUCAT_FLAG(sigtrap);
  PMUCAT_FLAG(wakeup_events);
  PMUCAT_FLAG(wakeup_watermark);
  PMUCAT_FLAG(bp_type);
  PMUCAT_FLAG(branch_sample_type);
  PMUCAT_FLAG(sample_regs_user);
  PMUCAT_FLAG(sample_stack_user);
  PMUCAT_FLAG(clockid);
  PMUCAT_FLAG(sample_regs_intr);
  PMUCAT_FLAG(aux_watermark);
  PMUCAT_FLAG(sample_max_stack);
  PMUCAT_FLAG(aux_sample_size);
  PMUCAT_FLAG(sig_data);
#undef PMUCAT_FLAG
  return d;
}

// The attr's kernel image for a struct perf_event_attr of `size` bytes (the C API's rule).
py::bytes attr_bytes(const pmucat::Attr& attr, py::handle size_arg) {
  const std::uint64_t size = uint_arg(size_arg, "size");
  if (size < pmucat::kAttrSizeVer0 || size % 8 != 0 || size > 4096) {
    raise_api_error(pmucat::DiagId::api_attr_size,
                    fmt::format("size {} is not a perf_event_attr size (a multiple of 8 from 64, "
                                "PERF_ATTR_SIZE_VER0, to 4096)",
                                size));
  }
  const auto bytes = static_cast<std::uint32_t>(size);
  if (const std::string_view field = pmucat::attr_field_beyond(attr, bytes); !field.empty()) {
    raise_api_error(
        pmucat::DiagId::api_attr_size,
        fmt::format("the attr sets {}, which a {}-byte struct perf_event_attr does not "
                    "have (config3 needs 136 bytes, PERF_ATTR_SIZE_VER8; config4 144, VER9)",
                    field, size));
  }
  pmucat::Attr sized = attr;
  sized.size = bytes;
  const std::vector<std::byte> image = pmucat::to_bytes(sized);
  return {reinterpret_cast<const char*>(image.data()), image.size()};
}

// A sysfs file's content without its trailing newline.
std::string trim_text(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == ' ' || text[end - 1] == '\t' ||
                     text[end - 1] == '\r')) {
    --end;
  }
  return text.substr(0, end);
}

struct PyEncoded {
  pmucat::EncodedEvent event;

  py::dict to_dict() const {  // pmuencode --json's object, key for key (the same function)
    return json_to_python(pmucat::cli::encoded_to_json(event)).cast<py::dict>();
  }
};

struct PyPmu {
  CatalogPtr holder;
  const pmucat::Pmu* pmu;
};

py::object event_object(const pmucat::Event& e) {
  py::dict d;
  d["name"] = text(e.name);
  d["terms"] = text(trim_text(e.text));
  d["path"] = text(e.path);
  d["source"] = std::string(pmucat::to_string(e.source));
  d["unit"] = optional_text(e.unit);
  d["scale"] = e.scale ? py::object(py::float_(*e.scale)) : py::object(py::none());
  d["per_pkg"] = e.per_pkg;
  d["snapshot"] = e.snapshot;
  if (e.vendor) {
    const pmucat::VendorEvent& v = *e.vendor;
    d["description"] = text(pmucat::perf_brief_description(v));
    d["long_description"] = text(pmucat::perf_public_description(v));
    d["topic"] = text(v.topic);
    d["scale_unit"] = text(v.scale_unit);
    d["deprecated"] = v.deprecated;
    py::dict provenance;
    provenance["file"] = text(v.location.file);
    provenance["line"] = v.location.line;
    provenance["column"] = v.location.column;
    d["provenance"] = provenance;
    if (v.per_pkg) d["per_pkg"] = true;
  } else {
    d["description"] = "";
    d["long_description"] = "";
    d["topic"] = "";
    d["scale_unit"] = "";
    d["deprecated"] = false;
    py::dict provenance;
    provenance["file"] = text(e.path);
    provenance["line"] = 0;
    provenance["column"] = 0;
    d["provenance"] = provenance;
  }
  py::list diagnostics;
  if (e.error) diagnostics.append(diagnostic_dict(*e.error));
  for (const Diagnostic& diagnostic : e.diagnostics)
    diagnostics.append(diagnostic_dict(diagnostic));
  d["diagnostics"] = diagnostics;
  return py::module_::import("pmucat._types").attr("Event")(**d);
}

py::object format_object(const pmucat::Format& f) {
  return py::module_::import("pmucat._types")
      .attr("Format")(py::arg("name") = text(f.name), py::arg("spec") = text(trim_text(f.text)),
                      py::arg("path") = text(f.path));
}

pmucat::EncodeOptions encode_options(const pmucat::Catalog& catalog, py::handle semantics_arg,
                                     py::handle tool_arg, py::handle default_pmu_arg,
                                     py::handle tracefs_arg, py::handle extended_type_arg) {
  pmucat::EncodeOptions options;
  const std::string semantics = text_arg(semantics_arg, "semantics");
  // 'perf' is perf 6.1, as before releases could be named; 'perf-6.1', 'perf-6.12' name one,
  // read by the parser the CLI and the C API use. An unknown release is an error.
  const std::optional<pmucat::Profile> profile =
      semantics == "perf"                                       ? pmucat::parse_profile("6.1")
      : semantics.starts_with("perf-") || semantics == "pmucat" ? pmucat::parse_profile(semantics)
                                                                : std::nullopt;
  if (!profile) {
    raise_api_error(DiagId::api_invalid_argument,
                    fmt::format("semantics must be 'pmucat', 'perf' (perf 6.1) or 'perf-' and a "
                                "perf release pmucat follows ({}), not {}",
                                pmucat::known_perf_releases_text(), shown(semantics_arg)));
  }
  options.semantics = *profile;
  const std::string tool = text_arg(tool_arg, "tool");
  if (tool == "stat") {
    options.tool = pmucat::Tool::stat;
  } else if (tool != "record") {
    raise_api_error(DiagId::api_invalid_argument,
                    fmt::format("tool must be 'record' or 'stat', not {}", shown(tool_arg)));
  }
  if (auto default_pmu = optional_word_arg(default_pmu_arg, "default_pmu")) {
    options.default_pmu = std::move(*default_pmu);
  }
  if (auto tracefs = optional_path_arg(tracefs_arg, "tracefs")) {
    options.tracefs = std::move(*tracefs);
  }
  const std::string extended_type = text_arg(extended_type_arg, "extended_type");
  if (extended_type == "unsupported") {
    options.extended_type = pmucat::ExtendedType::unsupported;
  } else if (extended_type == "probe") {
    options.extended_type = pmucat::probe_extended_type(catalog);
  } else if (extended_type != "supported") {
    raise_api_error(DiagId::api_invalid_argument,
                    fmt::format("extended_type must be 'supported', 'unsupported' or 'probe', "
                                "not {}",
                                shown(extended_type_arg)));
  }
  return options;
}

std::optional<std::string> environment(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return std::nullopt;
  return std::string(value);
}

// The folder this extension was loaded from (the installed package's): where the installed
// vendor tables are found from, as the tools find theirs from their bin/.
std::string package_dir() {
  const py::object file = py::module_::import("pmucat._core").attr("__file__");
  const std::string path = path_arg(file, "pmucat._core.__file__");
  const std::size_t slash = path.rfind('/');
  return slash == std::string::npos ? std::string(".") : path.substr(0, slash == 0 ? 1 : slash);
}

// The tree is this machine's own (the running kernel's PMUs).
bool is_live(const std::filesystem::path& root) {
  for (const char* live : {"/sys/bus/event_source/devices", "/sys"}) {
    std::error_code error;
    if (std::filesystem::equivalent(root, live, error) && !error) return true;
  }
  return false;
}

// The vendor tables and CPU identifier Catalog.open reads, chosen as the tools choose them
// (cli/common/vendor.h): events_dir, else $PMUCAT_EVENTS_DIR, else the tables installed with
// pmucat (the build's when run from the build tree); an empty directory means none. cpuid, else
// $PMUCAT_CPUID, else this machine's for the live tree. A cpuid with no tables to choose from is
// an error rather than a silently sysfs-only catalog.
pmucat::VendorOptions vendor_options(py::handle events_dir_arg, py::handle cpuid_arg,
                                     const std::filesystem::path& root) {
  pmucat::VendorOptions vendor;
  std::string_view tables_from;
  if (auto events_dir = optional_path_arg(events_dir_arg, "events_dir")) {
    vendor.events_dir = std::move(*events_dir);
    tables_from = "events_dir is empty";
  } else if (auto env = environment("PMUCAT_EVENTS_DIR")) {
    vendor.events_dir = std::move(*env);
    tables_from = "$PMUCAT_EVENTS_DIR is set but empty";
  } else if (auto installed = pmucat::installed_vendor_index(
                 std::nullopt, {package_dir(), PMUCAT_EVENTS_DIR_FROM_PACKAGE})) {
    vendor.events_dir = std::move(*installed);
  } else {
    tables_from =
        "no events_dir was given, $PMUCAT_EVENTS_DIR is not set and no tables were installed "
        "with pmucat";
  }
  // A named directory that is not one would leave the catalog sysfs-only without a word.
  if (!vendor.events_dir.empty()) {
    std::error_code error;
    if (!std::filesystem::is_directory(vendor.events_dir, error)) {
      raise_api_error(
          DiagId::api_invalid_argument,
          fmt::format("events_dir '{}' ({}) is not a directory{}: give the kernel's "
                      "tools/perf/pmu-events/arch or a compiled index, or '' for "
                      "sysfs events only",
                      vendor.events_dir.native(),
                      events_dir_arg.is_none() ? "from $PMUCAT_EVENTS_DIR" : "the argument",
                      error ? fmt::format(" ({})", error.message()) : ""));
    }
  }
  if (auto cpuid = optional_word_arg(cpuid_arg, "cpuid")) {
    if (vendor.events_dir.empty()) {
      raise_api_error(DiagId::api_invalid_argument,
                      fmt::format("cpuid {} chooses a CPU model of the vendor event tables, but "
                                  "there are none: {}; pass events_dir (the kernel's "
                                  "tools/perf/pmu-events/arch or a compiled index)",
                                  shown(cpuid_arg), tables_from));
    }
    vendor.cpuid = std::move(*cpuid);
  } else if (auto env = environment("PMUCAT_CPUID"); env && !env->empty()) {
    vendor.cpuid = std::move(*env);
  } else if (!vendor.events_dir.empty() && is_live(root)) {
    vendor.cpuid = pmucat::host_cpuid("/sys").value_or(std::string());
  }
  return vendor;
}

CatalogPtr open_catalog(py::handle sysfs_arg, py::handle events_dir_arg, py::handle cpuid_arg,
                        std::string_view sysfs_name = "sysfs") {
  auto holder = std::make_shared<CatalogHolder>();
  std::filesystem::path root;
  if (auto sysfs = optional_path_arg(sysfs_arg, sysfs_name)) {
    root = std::move(*sysfs);
  } else if (const char* env = std::getenv("PMUCAT_SYSFS"); env != nullptr && *env != '\0') {
    root = env;
  } else {
    root = "/sys/bus/event_source/devices";
  }
  pmucat::VendorOptions vendor = vendor_options(events_dir_arg, cpuid_arg, root);
  if (pmucat::snap::is_tarball(root)) {
    auto unpacked = pmucat::snap::Unpacked::open(root);
    if (!unpacked) raise_error(unpacked.error());
    holder->unpacked.emplace(std::move(*unpacked));
    root = holder->unpacked->root();
  }
  auto catalog = pmucat::Catalog::open(root, std::move(vendor));
  if (!catalog) raise_error(catalog.error());
  holder->catalog.emplace(std::move(*catalog));
  return holder;
}

py::list encode_specs(const CatalogPtr& holder, py::handle spec_arg,
                      const pmucat::EncodeOptions& options) {
  const std::string spec = text_arg(spec_arg, "spec");
  // The parser would end the spec there, silently dropping the rest (a C string, as argv is).
  reject_nul(spec, "spec", "a spec ends at its first NUL, so the rest would be dropped");
  if (spec.size() > kMaxSpecLength) {
    raise_argument_error("spec", fmt::format("is {} bytes long, more than the {} a spec may "
                                             "have: split it into several calls",
                                             spec.size(), kMaxSpecLength));
  }
  std::optional<pmucat::Expected<std::vector<pmucat::EncodedEvent>>> result;
  {
    py::gil_scoped_release release;
    result.emplace(pmucat::encode(*holder->catalog, spec, options));
  }
  if (!*result) raise_error(result->error());
  py::list out;
  for (pmucat::EncodedEvent& event : **result) out.append(PyEncoded{std::move(event)});
  return out;
}

// One walk of a perf.data (stream_perf_data) on a worker thread. begin() hands the header over;
// the records then pass through a bounded queue (at most kMaxRecords records or kMaxBytes bytes,
// one record always fits), so memory does not grow with the file. close() (and the destructor)
// makes the worker's next record() return a stop diagnostic and joins it. The worker never
// touches Python objects, so it needs no GIL; consumers wait with the GIL released.
class RecordStream final : public pmucat::PerfDataVisitor {
 public:
  static constexpr std::size_t kMaxRecords = 256;
  static constexpr std::size_t kMaxBytes = std::size_t{8} << 20;

  enum class Next : std::uint8_t { record, end, error };

  explicit RecordStream(std::string path) : path_(std::move(path)) {
    worker_ = std::thread([this] { run(); });
  }
  RecordStream(const RecordStream&) = delete;
  RecordStream& operator=(const RecordStream&) = delete;
  RecordStream(RecordStream&&) = delete;
  RecordStream& operator=(RecordStream&&) = delete;
  ~RecordStream() override { close(); }

  // Stops the walk at its next record and joins the worker; the queue is dropped. Idempotent.
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closing_ = true;
      queue_.clear();
      queued_bytes_ = 0;
    }
    changed_.notify_all();
    if (worker_.joinable()) worker_.join();
  }

  // Waits until begin() ran (true, header() is set) or the walk ended before it (false, the
  // error is taken into `error`). Call with the GIL released.
  bool wait_header(std::optional<pmucat::Diagnostic>& error) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return header_ready_ || done_; });
    if (header_ready_) return true;
    error = std::move(error_);
    error_.reset();
    if (!error) {
      error =
          pmucat::make_file_diagnostic(pmucat::Severity::error, pmucat::DiagId::api_internal_error,
                                       path_, "the perf.data walk ended before its header");
    }
    return false;
  }
  // Valid after wait_header() returned true; not changed afterwards.
  const pmucat::PerfData& header() const { return header_; }

  // The next record (moved into `out`), the end, or the walk's error (once, after every good
  // record). Call with the GIL released.
  Next next(pmucat::Record& out, std::optional<pmucat::Diagnostic>& error) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return !queue_.empty() || done_; });
    if (!queue_.empty()) {
      out = std::move(queue_.front());
      queue_.pop_front();
      queued_bytes_ -= record_bytes(out);
      lock.unlock();
      changed_.notify_all();
      return Next::record;
    }
    if (error_) {
      error = std::move(error_);
      error_.reset();
      return Next::error;
    }
    return Next::end;
  }

  std::optional<pmucat::Diagnostic> begin(const pmucat::PerfData& header) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (closing_) return stop();
    header_ = header;
    header_ready_ = true;
    changed_.notify_all();
    return std::nullopt;
  }

  std::optional<pmucat::Diagnostic> record(const pmucat::Record& record) override {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] {
      return closing_ || queue_.empty() ||
             (queue_.size() < kMaxRecords && queued_bytes_ < kMaxBytes);
    });
    if (closing_) return stop();
    queue_.push_back(record);
    queued_bytes_ += record_bytes(record);
    lock.unlock();
    changed_.notify_all();
    return std::nullopt;
  }

 private:
  static std::size_t record_bytes(const pmucat::Record& r) {
    return sizeof(pmucat::Record) + r.payload.size() + r.trailer.size();
  }
  pmucat::Diagnostic stop() const {
    return pmucat::make_file_diagnostic(pmucat::Severity::error,
                                        pmucat::DiagId::api_invalid_argument, path_,
                                        "the reader was closed");
  }

  void run() {
    std::optional<pmucat::Diagnostic> error;
    try {
      auto result = pmucat::stream_perf_data(path_, *this);
      if (!result) {
        error = std::move(result).error();
      } else {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!header_ready_) {  // no record, so no begin(): the header is the summary's
          header_ = std::move(result->header);
          header_ready_ = true;
        }
      }
    } catch (const std::exception& e) {
      error = pmucat::make_file_diagnostic(pmucat::Severity::error,
                                           pmucat::DiagId::api_internal_error, path_, e.what());
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
      if (!closing_) error_ = std::move(error);
    }
    changed_.notify_all();
  }

  const std::string path_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<pmucat::Record> queue_;
  std::size_t queued_bytes_ = 0;
  bool closing_ = false;
  bool header_ready_ = false;
  bool done_ = false;
  pmucat::PerfData header_;
  std::optional<pmucat::Diagnostic> error_;
  std::thread worker_;  // last: started after every member above exists
};

// Starts a walk of `path` and waits (GIL released) for its header; raises pmucat.Error when the
// file fails before its first record.
std::shared_ptr<RecordStream> open_stream(const std::string& path) {
  auto stream = std::make_shared<RecordStream>(path);
  std::optional<pmucat::Diagnostic> error;
  bool ok = false;
  {
    py::gil_scoped_release release;
    ok = stream->wait_header(error);
  }
  if (!ok) raise_error(*error);
  return stream;
}

// Counts the records of a file without keeping them.
class RecordCounter final : public pmucat::PerfDataVisitor {
 public:
  std::optional<pmucat::Diagnostic> begin(const pmucat::PerfData&) override { return std::nullopt; }
  std::optional<pmucat::Diagnostic> record(const pmucat::Record&) override { return std::nullopt; }
};

// A perf.data being read: its header (from the first walk's begin()) and that walk, kept for the
// first records(); each later records() starts a new walk of the file.
struct PyPerfData {
  std::string path;
  std::shared_ptr<RecordStream> first;
  pmucat::PerfData header;
  std::optional<std::uint64_t> record_count;
};

struct PyRecordIterator {
  std::shared_ptr<RecordStream> stream;
};

py::object record_object(const pmucat::Record& r) {
  return py::module_::import("pmucat._types")
      .attr("Record")(
          py::arg("type") = r.type, py::arg("type_name") = text(pmucat::record_type_name(r.type)),
          py::arg("misc") = r.misc, py::arg("size") = r.size(), py::arg("offset") = r.file_offset,
          py::arg("payload") =
              py::bytes(reinterpret_cast<const char*>(r.payload.data()), r.payload.size()));
}

py::object feature_value(std::uint32_t id, const std::vector<std::byte>& payload) {
  namespace f = pmucat::feature;
  if (id == f::hostname || id == f::osrelease || id == f::version || id == f::arch ||
      id == f::cpudesc || id == f::cpuid) {
    if (auto value = pmucat::decode_feature_string(payload)) return text(*value);
  } else if (id == f::cmdline) {
    if (auto items = pmucat::decode_feature_string_list(payload)) return text_list(*items);
  } else if (id == f::nrcpus) {
    if (auto n = pmucat::decode_nrcpus(payload)) {
      py::dict d;
      d["available"] = n->first;
      d["online"] = n->second;
      return d;
    }
  } else if (id == f::total_mem) {
    if (auto kb = pmucat::decode_total_mem(payload)) return py::int_(*kb);
  }
  return py::bytes(reinterpret_cast<const char*>(payload.data()), payload.size());
}

}  // namespace

// A counting session (pmucat/count.h) over a catalog it keeps alive.
struct PyCountSession {
  CatalogPtr catalog;
  std::unique_ptr<pmucat::PerfEventKernel> kernel;
  std::optional<pmucat::CountSession> session;
};

py::dict count_value_dict(const pmucat::CountEvent& event, const pmucat::EventValue& value) {
  py::dict out;
  out["event"] = text(event.name);
  out["pmu"] = text(event.encoded.pmu);
  if (value.cpu >= 0) out["cpu"] = value.cpu;
  out["value"] = value.value ? py::object(py::float_(*value.value)) : py::object(py::none());
  out["unit"] = text(event.unit);
  out["raw"] = value.raw;
  out["enabled_ns"] = value.enabled;
  out["running_ns"] = value.running;
  out["lost"] = value.lost;
  py::list grades;
  for (const pmucat::Trust& trust : value.trust) {
    grades.append(
        py::make_tuple(text(std::string(pmucat::to_string(trust.grade))), text(trust.reason)));
  }
  out["grades"] = grades;
  return out;
}

PYBIND11_MODULE(_core, m) {
  m.doc() = "The compiled part of pmucat (use the pmucat package, which re-exports it).";
  m.attr("__version__") = PMUCAT_VERSION;

  // A C++ exception that reaches a binding (out of memory, a library bug) is pmucat.Error
  // (api-internal-error) like every other failure, not a RuntimeError or MemoryError; pybind11's
  // own Python exceptions (KeyError, StopIteration...) pass through to its translator.
  py::register_local_exception_translator([](std::exception_ptr thrown) {
    try {
      std::rethrow_exception(thrown);
    } catch (const py::builtin_exception&) {
      throw;
    } catch (const std::bad_alloc&) {
      set_error(api_diagnostic(DiagId::api_internal_error, "out of memory"));
    } catch (const std::exception& error) {
      set_error(api_diagnostic(DiagId::api_internal_error, error.what()));
    }
  });

  py::class_<PyEncoded>(m, "EncodedEvent",
                        "One perf_event_attr an event spec stands for, with perf's canonical "
                        "string.\n\nEvery perf_event_attr field is an attribute (type, config, "
                        "config1..config3, sample_period, exclude_kernel, precise_ip, ...).")
      .def_property_readonly(
          "spec", [](const PyEncoded& e) { return text(e.event.spec); },
          "The spec text this attr came from.")
      .def_property_readonly(
          "pmu", [](const PyEncoded& e) { return text(e.event.pmu); },
          "The PMU instance used (\"cpu\", \"uncore_cha_3\").")
      .def_property_readonly(
          "event",
          [](const PyEncoded& e) -> py::object {
            if (e.event.event.empty()) return py::none();
            return text(e.event.event);
          },
          "The sysfs or JSON event (alias) used, or None.")
      .def_property_readonly(
          "perf_string", [](const PyEncoded& e) { return text(e.event.perf_string); },
          "The canonical spec `perf stat -e` accepts for the same attr.")
      .def_property_readonly(
          "group_leader", [](const PyEncoded& e) { return e.event.group_leader; },
          "Index (in encode()'s list) of this attr's group leader, or None outside a group.")
      .def_property_readonly("group_name",
                             [](const PyEncoded& e) { return text(e.event.group_name); })
      .def_property_readonly(
          "settings",
          [](const PyEncoded& e) {
            const pmucat::EventSettings& s = e.event.settings;
            py::dict d;
            d["name"] = optional_text(s.name);
            d["metric_id"] = optional_text(s.metric_id);
            d["percore"] = s.percore;
            d["nr"] = s.nr;
            d["call_graph"] = optional_text(s.call_graph);
            d["branch_type"] = optional_text(s.branch_type);
            d["driver_config"] = text_list(s.driver_config);
            d["precise_max"] = s.precise_max;
            return d;
          },
          "What perf keeps beside the attr: name=, metric-id=, call-graph=...")
      .def_property_readonly(
          "warnings",
          [](const PyEncoded& e) {
            py::list out;
            for (const Diagnostic& d : e.event.warnings) {
              out.append(diagnostic_dict(d));
            }
            return out;
          },
          "Warnings as diagnostic dicts (e.g. a format word this ABI lacks).")
      .def_property_readonly(
          "attr", [](const PyEncoded& e) { return attr_dict(e.event.attr); },
          "Every perf_event_attr field by its uapi name, as a dict.")
      .def("to_dict", &PyEncoded::to_dict,
           "The object `pmuencode --json` prints for this attr (spec, pmu, event, type, size, "
           "config..config3, the fields that are set, settings, perf, group).")
      .def(
          "to_bytes",
          [](const PyEncoded& e, py::handle size) { return attr_bytes(e.event.attr, size); },
          py::arg("size") = pmucat::kAttrSizeVer8,
          "The kernel's struct perf_event_attr image (little-endian) of `size` bytes, e.g. "
          "for ctypes or os-level perf_event_open. Raises pmucat.Error (api-attr-size) when "
          "the attr sets a field a struct of that size lacks (config3 needs 136, config4 144).")
      .def("__getattr__",
           [](const PyEncoded& e, py::handle name) -> py::object {
             py::dict fields = attr_dict(e.event.attr);
             if (PyUnicode_Check(name.ptr()) && fields.contains(name)) return fields[name];
             PyErr_Format(PyExc_AttributeError, "EncodedEvent has no attribute %R", name.ptr());
             throw py::error_already_set();
           })
      .def("__repr__", [](const PyEncoded& e) {
        return text(fmt::format("<pmucat.EncodedEvent {} type={} config={:#x}>",
                                e.event.perf_string, e.event.attr.type, e.event.attr.config[0]));
      });

  py::class_<PyPmu>(m, "Pmu", "One PMU of a catalog (a /sys/bus/event_source/devices entry).")
      .def_property_readonly("name", [](const PyPmu& p) { return text(p.pmu->name()); })
      .def_property_readonly(
          "type", [](const PyPmu& p) { return p.pmu->type(); },
          "perf_event_attr.type, or None when `type` is missing or invalid.")
      .def_property_readonly(
          "kind", [](const PyPmu& p) { return std::string(pmucat::to_string(p.pmu->kind())); },
          "'core', 'uncore', 'software' or 'other'.")
      .def_property_readonly("path", [](const PyPmu& p) { return text(p.pmu->path().native()); })
      .def_property_readonly(
          "cpus",
          [](const PyPmu& p) -> std::optional<std::vector<std::uint32_t>> {
            const pmucat::PmuAttributes& a = p.pmu->attributes();
            if (a.cpumask) return a.cpumask->cpus;
            if (a.cpus) return a.cpus->cpus;
            return std::nullopt;
          },
          "The CPUs of `cpumask` (else `cpus`), or None.")
      .def_property_readonly(
          "formats",
          [](const PyPmu& p) {
            py::list out;
            for (const pmucat::Format& f : p.pmu->formats()) out.append(format_object(f));
            return out;
          },
          "format/ fields, naturally sorted: Format(name, spec, path).")
      .def_property_readonly(
          "events",
          [](const PyPmu& p) {
            py::list out;
            for (const pmucat::Event& e : p.pmu->events()) out.append(event_object(e));
            return out;
          },
          "Events (sysfs events/ and vendor JSON) with description, unit, scale, provenance.")
      .def(
          "event",
          [](const PyPmu& p, py::handle name) -> py::object {
            const pmucat::Event* e = p.pmu->find_event(text_arg(name, "name"));
            return e == nullptr ? py::object(py::none()) : event_object(*e);
          },
          py::arg("name"), "The event named `name` (case-insensitive, as perf), or None.")
      .def_property_readonly(
          "diagnostics",
          [](const PyPmu& p) {
            py::list out;
            for (const Diagnostic& d : p.pmu->diagnostics()) out.append(diagnostic_dict(d));
            return out;
          },
          "Problems found while loading this PMU's parts so far, as diagnostic dicts.")
      .def("__repr__",
           [](const PyPmu& p) { return text(fmt::format("<pmucat.Pmu {}>", p.pmu->name())); });

  py::class_<CatalogHolder, CatalogPtr>(
      m, "Catalog",
      "A sysfs PMU catalog (/sys, a devices folder, a captured tree or a pmusnap .tar.gz), read "
      "lazily and cached. Safe to share between threads.")
      .def_static(
          "open",
          [](py::handle sysfs, py::handle events_dir, py::handle cpuid) {
            return open_catalog(sysfs, events_dir, cpuid);
          },
          py::arg("sysfs") = py::none(), py::arg("events_dir") = py::none(),
          py::arg("cpuid") = py::none(),
          "Opens a catalog. sysfs=None reads $PMUCAT_SYSFS, else "
          "/sys/bus/event_source/devices. events_dir: the kernel's "
          "tools/perf/pmu-events/arch layout or a compiled index; None: "
          "$PMUCAT_EVENTS_DIR, else the tables installed with pmucat, as the tools "
          "read; '': sysfs events only. cpuid: perf's CPU identifier choosing the "
          "model; None: $PMUCAT_CPUID, else this machine's for the live tree. Paths "
          "are str, bytes or os.PathLike. Raises pmucat.Error.")
      .def_property_readonly(
          "devices_dir",
          [](const CatalogHolder& c) { return text(c.catalog->devices_dir().native()); })
      .def(
          "pmus",
          [](const CatalogPtr& c) {
            py::list out;
            for (const pmucat::Pmu& p : c->catalog->pmus()) out.append(PyPmu{c, &p});
            return out;
          },
          "Every PMU, naturally sorted by name.")
      .def(
          "pmu",
          [](const CatalogPtr& c, py::handle name) {
            const pmucat::Pmu* p = c->catalog->find_pmu(text_arg(name, "name"));
            if (p == nullptr) {
              PyErr_SetObject(PyExc_KeyError, name.ptr());  // the key, as a dict says
              throw py::error_already_set();
            }
            return PyPmu{c, p};
          },
          py::arg("name"), "The PMU named exactly `name`; KeyError when there is none.")
      .def(
          "encode",
          [](const CatalogPtr& c, py::handle spec, py::handle semantics, py::handle tool,
             py::handle default_pmu, py::handle tracefs, py::handle extended_type) {
            return encode_specs(
                c, spec,
                encode_options(*c->catalog, semantics, tool, default_pmu, tracefs, extended_type));
          },
          py::arg("spec"), py::kw_only(), py::arg("semantics") = "pmucat",
          py::arg("tool") = "record", py::arg("default_pmu") = py::none(),
          py::arg("tracefs") = py::none(), py::arg("extended_type") = "supported",
          "Encodes a spec list (\"cpu/event=0x3c/u\", \"{cycles,instructions}:S\") into one "
          "EncodedEvent per perf_event_attr. semantics: 'pmucat' (a user term overrides an "
          "alias's), 'perf' or 'perf-6.1' (perf 6.1: OR-ed), 'perf-6.12' (perf 6.12); tool: "
          "'record' or 'stat'; extended_type: whether the kernel takes a core PMU's type in a "
          "legacy event's config on hybrid trees, 'supported', 'unsupported' or 'probe' (ask "
          "this kernel as perf 6.12 does). Releases the GIL. "
          "A spec is at most 131072 bytes. Raises pmucat.Error with the located diagnostic.")
      .def(
          "decode",
          [](const CatalogPtr& c, py::handle pmu_arg, py::handle config, py::handle config1,
             py::handle config2, py::handle config3, py::handle config4) {
            const std::string pmu = text_arg(pmu_arg, "pmu");
            const pmucat::ConfigWords words = {
                uint_arg(config, "config"), uint_arg(config1, "config1"),
                uint_arg(config2, "config2"), uint_arg(config3, "config3"),
                uint_arg(config4, "config4")};
            const pmucat::Pmu* p = c->catalog->find_pmu(pmu);
            if (p == nullptr) {
              raise_api_error(DiagId::api_invalid_argument,
                              fmt::format("no PMU named {}", shown(pmu_arg)));
            }
            const pmucat::Decoded d = pmucat::decode(*p, words);
            py::list terms;
            for (const pmucat::DecodedTerm& t : d.terms)
              terms.append(py::make_tuple(text(t.name), t.value));
            return py::module_::import("pmucat._types")
                .attr("Decoded")(py::arg("terms") = terms, py::arg("events") = text_list(d.events),
                                 py::arg("residue") = d.residue,
                                 py::arg("terms_string") = text(d.terms_string));
          },
          py::arg("pmu"), py::kw_only(), py::arg("config") = 0, py::arg("config1") = 0,
          py::arg("config2") = 0, py::arg("config3") = 0, py::arg("config4") = 0,
          "The terms and events that produce these config words on `pmu`.")
      .def(
          "count",
          [](const CatalogPtr& c, py::handle spec_arg, py::handle command, py::handle pid,
             py::handle cpus) {
            const std::string spec = text_arg(spec_arg, "spec");
            pmucat::EncodeOptions options;
            options.tool = pmucat::Tool::stat;
            auto events = pmucat::encode(*c->catalog, spec, options);
            if (!events) raise_error(events.error());
            if (command.is_none() && pid.is_none() && cpus.is_none()) {
              raise_argument_error("command", "give command, pid or cpus");
            }
            std::vector<std::string> argv;
            if (!command.is_none()) {
              for (py::handle word : command) argv.push_back(text_arg(word, "command"));
            }
            const pid_t process = pid.is_none() ? 0 : static_cast<pid_t>(uint_arg(pid, "pid"));
            const std::string cpu_list = cpus.is_none() ? std::string() : text_arg(cpus, "cpus");
            auto target = pmucat::count_target(std::move(argv), process, cpu_list);
            if (!target) raise_error(target.error());
            pmucat::CountOptions count_options;
            count_options.target = std::move(*target);
            auto session = std::make_shared<PyCountSession>();
            session->catalog = c;
            session->kernel = pmucat::linux_perf_events();
            auto opened =
                pmucat::CountSession::open(*c->catalog, *session->kernel, *events, count_options);
            if (!opened) raise_error(opened.error());
            session->session.emplace(std::move(*opened));
            return session;
          },
          py::arg("spec"), py::kw_only(), py::arg("command") = py::none(),
          py::arg("pid") = py::none(), py::arg("cpus") = py::none(),
          "Opens the spec list's events for counting, as perf stat opens them: on `command` (a "
          "list of str, started now and held before exec until start()), else every thread of "
          "`pid`, else the CPUs of `cpus` ('0-3'; '' for every online CPU). Raises pmucat.Error "
          "(count-open-denied, count-nothing-opened, a spec that does not encode ...).")
      .def(
          "diagnostics",
          [](const CatalogPtr& c) {
            py::list out;
            for (const Diagnostic& d : c->catalog->diagnostics()) out.append(diagnostic_dict(d));
            for (const Diagnostic& d : c->catalog->vendor_diagnostics()) {
              out.append(diagnostic_dict(d));
            }
            return out;
          },
          "Problems with the tree itself and with the vendor catalog, as diagnostic dicts.");

  py::class_<PyCountSession, std::shared_ptr<PyCountSession>>(
      m, "CountSession",
      "Events opened for counting (Catalog.count): start(), then wait() for a command, then "
      "read().")
      .def(
          "start", [](PyCountSession& s) { s.session->start(); },
          "Lets the command exec (its counters enable there), or enables the counters.")
      .def(
          "wait",
          [](PyCountSession& s) {
            pmucat::Expected<int> status = [&] {
              py::gil_scoped_release release;
              return s.session->wait();
            }();
            if (!status) raise_error(status.error());
            if (auto failed = s.session->command_error()) raise_error(*failed);
            return *status;
          },
          "Waits for the command; its exit status as a shell gives it (128+N: killed by signal "
          "N). Raises pmucat.Error (count-command-failed) when it could not run.")
      .def(
          "read",
          [](PyCountSession& s) {
            auto reading = s.session->read();
            if (!reading) raise_error(reading.error());
            py::list out;
            for (const pmucat::EventValue& value : reading->values) {
              out.append(count_value_dict(s.session->events()[value.event], value));
            }
            return out;
          },
          "Every counter read now: one dict per event (event, pmu, value: scaled, None when not "
          "counted or not supported; unit, raw, enabled_ns, running_ns, lost, grades: (id, "
          "reason) pairs such as ('multiplexed', 'counted 50.00% ...')).");

  // For bench/python-speed: `n` calls of the C++ pmucat::encode() on this catalog, in seconds,
  // so the binding's cost is measured beside the C++ call in the same process and moment.
  m.def(
      "_bench_encode",
      [](const CatalogPtr& c, py::handle spec_arg, py::handle n_arg) {
        const std::string spec = text_arg(spec_arg, "spec");
        const std::uint64_t n = uint_arg(n_arg, "n");
        const pmucat::EncodeOptions options;
        py::gil_scoped_release release;
        const auto start = std::chrono::steady_clock::now();
        for (std::uint64_t i = 0; i < n; ++i) {
          auto events = pmucat::encode(*c->catalog, spec, options);
          if (!events) return -1.0;
        }
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      },
      py::arg("catalog"), py::arg("spec"), py::arg("n"));

  py::class_<pmucat::check::Report>(m, "_CheckReport")
      .def("findings",
           [](const pmucat::check::Report& r) {
             py::list out;
             for (const pmucat::check::Finding& f : r.all_findings()) {
               py::dict d;
               d["rule"] = text(f.rule);
               d["group"] = text(pmucat::check::to_string(f.group));
               d["pmu"] = text(f.pmu);
               d["file"] = text(f.file);
               d["severity"] = text(pmucat::to_string(f.diagnostic.severity));
               d["message"] = text(f.diagnostic.message);
               d["baselined"] = f.baselined;
               d["fails"] = r.fails(f);
               d["diagnostic"] = diagnostic_dict(f.diagnostic);
               d["rendered"] = text(pmucat::render(f.diagnostic));
               out.append(d);
             }
             return out;
           })
      .def("render_text",
           [](const pmucat::check::Report& r) { return text(pmucat::check::render_text(r)); })
      .def("render_ktap",
           [](const pmucat::check::Report& r) { return text(pmucat::check::render_ktap(r)); })
      .def("render_json",
           [](const pmucat::check::Report& r) { return text(pmucat::check::render_json(r)); })
      .def("render_junit",
           [](const pmucat::check::Report& r) { return text(pmucat::check::render_junit(r)); })
      .def(
          "render_kcidb",
          [](const pmucat::check::Report& r, py::handle origin, py::handle build_id,
             py::handle run_id_arg) {
            pmucat::check::KcidbOptions options;
            options.origin = word_arg(origin, "origin");
            options.build_id = word_arg(build_id, "build_id");
            const std::string run_id = word_arg(run_id_arg, "run_id");
            options.run_id = run_id.empty() ? pmucat::check::make_kcidb_run_id() : run_id;
            return text(pmucat::check::render_kcidb(r, options));
          },
          py::arg("origin"), py::arg("build_id"), py::arg("run_id"))
      .def("exit_status",
           [](const pmucat::check::Report& r) { return pmucat::check::exit_status(r, r.werror); });

  m.def(
      "_check",
      [](py::handle tree, py::handle events_dir, py::handle cpuid, py::handle pmus,
         py::handle enable, py::handle disable, py::handle werror, py::handle jobs) {
        pmucat::check::Options options;
        options.pmu_patterns = text_list_arg(pmus, "pmus");
        options.enabled = text_list_arg(enable, "enable");
        options.disabled = text_list_arg(disable, "disable");
        options.werror = bool_arg(werror, "werror");
        // pmucheck --jobs' range; 0 is 1, as it always was here.
        options.jobs = std::max<unsigned>(1, static_cast<unsigned>(uint_arg(jobs, "jobs", 256)));
        if (auto unknown = pmucat::check::unknown_rule_ids(options); !unknown.empty()) {
          raise_api_error(DiagId::api_invalid_argument,
                          fmt::format("unknown rule id '{}'", unknown.front()));
        }
        const bool given_catalog = py::isinstance<CatalogHolder>(tree);
        if (given_catalog && (!events_dir.is_none() || !cpuid.is_none())) {
          raise_argument_error(!events_dir.is_none() ? "events_dir" : "cpuid",
                               "applies only when tree is a path: a Catalog keeps the vendor "
                               "tables it was opened with (give them to Catalog.open)");
        }
        const CatalogPtr catalog =
            given_catalog ? tree.cast<CatalogPtr>() : open_catalog(tree, events_dir, cpuid, "tree");
        py::gil_scoped_release release;
        return pmucat::check::run(*catalog->catalog, options);
      },
      py::arg("tree"), py::arg("events_dir"), py::arg("cpuid"), py::arg("pmus"), py::arg("enable"),
      py::arg("disable"), py::arg("werror"), py::arg("jobs"));

  py::class_<PyPerfData, std::shared_ptr<PyPerfData>>(m, "_PerfData")
      .def_property_readonly("mode",
                             [](const PyPerfData& p) {
                               return p.header.mode == pmucat::PerfDataMode::file ? "file" : "pipe";
                             })
      .def_property_readonly("other_endian",
                             [](const PyPerfData& p) { return p.header.other_endian; })
      .def_property_readonly("record_count",
                             [](PyPerfData& p) {
                               if (!p.record_count) {
                                 std::optional<pmucat::Expected<pmucat::StreamSummary>> result;
                                 {
                                   py::gil_scoped_release release;
                                   RecordCounter counter;
                                   result.emplace(pmucat::stream_perf_data(p.path, counter));
                                 }
                                 if (!*result) raise_error(result->error());
                                 p.record_count = (*result)->records;
                               }
                               return *p.record_count;
                             })
      .def("attrs",
           [](const PyPerfData& p) {
             py::list out;
             for (const pmucat::PerfEventEntry& e : p.header.events) {
               py::dict d;
               d["name"] = text(e.name);
               d["ids"] = e.ids;
               d["attr"] = attr_dict(e.attr);
               out.append(d);
             }
             return out;
           })
      .def("features",
           [](const PyPerfData& p) {
             py::dict out;
             for (const auto& [id, payload] : p.header.features) {
               out[text(pmucat::feature_name(id))] = feature_value(id, payload);
             }
             return out;
           })
      .def("records",
           [](PyPerfData& p) {
             std::shared_ptr<RecordStream> stream = std::move(p.first);
             p.first.reset();
             if (!stream) stream = open_stream(p.path);
             return PyRecordIterator{std::move(stream)};
           })
      .def("close", [](PyPerfData& p) {
        if (p.first) p.first->close();
        p.first.reset();
      });

  py::class_<PyRecordIterator>(m, "_RecordIterator")
      .def(
          "__iter__", [](PyRecordIterator& it) -> PyRecordIterator& { return it; },
          py::return_value_policy::reference_internal)
      .def("__next__",
           [](PyRecordIterator& it) {
             if (!it.stream) throw py::stop_iteration();
             // Its own reference: another thread may end the iteration (and drop it.stream)
             // while this one waits with the GIL released.
             const std::shared_ptr<RecordStream> stream = it.stream;
             pmucat::Record record;
             std::optional<pmucat::Diagnostic> error;
             RecordStream::Next next = RecordStream::Next::end;
             {
               py::gil_scoped_release release;
               next = stream->next(record, error);
             }
             if (next == RecordStream::Next::record) return record_object(record);
             it.stream.reset();  // joins the finished worker
             if (next == RecordStream::Next::error) raise_error(*error);
             throw py::stop_iteration();
           })
      .def("close", [](PyRecordIterator& it) {
        if (it.stream) it.stream->close();
        it.stream.reset();
      });

  // The whole-file reader's records (read_perf_data, capped at 1 GiB): what the tests compare the
  // stream with.
  m.def(
      "_read_perf_data_whole",
      [](py::handle path_value) {
        const std::string path = path_arg(path_value, "path");
        std::optional<pmucat::Expected<pmucat::PerfData>> result;
        {
          py::gil_scoped_release release;
          result.emplace(pmucat::read_perf_data(path));
        }
        if (!*result) raise_error(result->error());
        py::list out;
        for (const pmucat::Record& r : (*result)->records) out.append(record_object(r));
        return out;
      },
      py::arg("path"));

  m.def(
      "_read_perf_data",
      [](py::handle path_value) {
        const std::string path = path_arg(path_value, "path");
        auto stream = open_stream(path);
        auto out = std::make_shared<PyPerfData>();
        out->path = path;
        out->header = stream->header();
        out->first = std::move(stream);
        return out;
      },
      py::arg("path"));
}
