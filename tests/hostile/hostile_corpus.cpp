#include "hostile_corpus.h"

#include <fmt/format.h>

#include <fstream>
#include <functional>
#include <system_error>

#include "pmucat/version.h"
#include "support/files.h"

PMUCAT_BEGIN_NAMESPACE
namespace hostile {
namespace fs = std::filesystem;
namespace {

using testing::make_fifo;
using testing::make_socket;
using testing::write_text;

constexpr std::size_t kMebibyte = std::size_t{1} << 20;

// Bytes 1..255 from a fixed generator: garbage without a NUL, so the term parser sees it.
std::string garbage(std::size_t size) {
  std::string bytes;
  std::uint32_t state = 0x9e3779b9U;
  while (bytes.size() < size) {
    state = state * 1664525U + 1013904223U;
    const auto byte = static_cast<unsigned char>(state >> 24);
    if (byte != 0) bytes.push_back(static_cast<char>(byte));
  }
  return bytes;
}

// A healthy PMU directory: type, two formats, an event.
void write_base_pmu(const fs::path& dir, unsigned type) {
  write_text(dir / "type", fmt::format("{}\n", type));
  write_text(dir / "format" / "event", "config:0-7\n");
  write_text(dir / "format" / "umask", "config:8-15\n");
  write_text(dir / "events" / "ok", "event=0x3c\n");
}

struct CaseRecipe {
  std::string label;
  std::string entry;  // relative to the PMU directory ("" for the PMU entry itself)
  std::vector<std::string> ids;
  bool located;
  enum class Keeps { events, formats, nothing } keeps;  // what of the PMU must still work
  std::function<void(const fs::path& pmu_dir)> make;    // breaks the (already healthy) PMU
};

std::vector<CaseRecipe> recipes() {
  using K = CaseRecipe::Keeps;
  const std::string mebibyte(kMebibyte, 'a');
  return {
      {"event_symlink_loop",
       "events/loop_a",
       {"file-unreadable"},
       false,
       K::events,
       [](const fs::path& d) {
         fs::create_symlink("loop_b", d / "events" / "loop_a");
         fs::create_symlink("loop_a", d / "events" / "loop_b");
       }},
      {"event_link_to_parent",
       "events/up",
       {"file-not-regular"},
       false,
       K::events,
       [](const fs::path& d) { fs::create_directory_symlink("..", d / "events" / "up"); }},
      {"events_dir_self_loop",
       "events",
       {"file-unreadable"},
       false,
       K::formats,
       [](const fs::path& d) {
         fs::remove_all(d / "events");
         fs::create_directory_symlink("events", d / "events");
       }},
      {"pmu_dir_self_loop",
       "",
       {"pmu-dir-unreadable"},
       false,
       K::nothing,
       [](const fs::path& d) {
         fs::remove_all(d);
         fs::create_directory_symlink(d.filename(), d);
       }},
      {"pmu_dir_dangling",
       "",
       {"pmu-dir-unreadable"},
       false,
       K::nothing,
       [](const fs::path& d) {
         fs::remove_all(d);
         fs::create_directory_symlink("../../nowhere/pmu", d);
       }},
      {"event_fifo",
       "events/pipe",
       {"file-not-regular"},
       false,
       K::events,
       [](const fs::path& d) { make_fifo(d / "events" / "pipe"); }},
      {"format_fifo",
       "format/pipe",
       {"file-not-regular"},
       false,
       K::events,
       [](const fs::path& d) { make_fifo(d / "format" / "pipe"); }},
      {"type_fifo",
       "type",
       {"file-not-regular"},
       false,
       K::nothing,
       [](const fs::path& d) {
         fs::remove(d / "type");
         make_fifo(d / "type");
       }},
      {"event_socket",
       "events/sock",
       {"file-not-regular"},
       false,
       K::events,
       [](const fs::path& d) { make_socket(d / "events" / "sock"); }},
      {"event_directory",
       "events/adir",
       {"file-not-regular"},
       false,
       K::events,
       [](const fs::path& d) { fs::create_directory(d / "events" / "adir"); }},
      {"format_directory",
       "format/adir",
       {"file-not-regular"},
       false,
       K::events,
       [](const fs::path& d) { fs::create_directory(d / "format" / "adir"); }},
      {"type_directory",
       "type",
       {"file-not-regular"},
       false,
       K::nothing,
       [](const fs::path& d) {
         fs::remove(d / "type");
         fs::create_directory(d / "type");
       }},
      {"event_link_to_proc_mem",
       "events/mem",
       {"file-unreadable"},
       false,
       K::events,
       [](const fs::path& d) { fs::create_symlink("/proc/self/mem", d / "events" / "mem"); }},
      {"event_dangling_link",
       "events/gone",
       {"file-unreadable"},
       false,
       K::events,
       [](const fs::path& d) { fs::create_symlink("nowhere", d / "events" / "gone"); }},
      {"event_one_mebibyte",
       "events/huge",
       {"file-too-large"},
       false,
       K::events,
       [mebibyte](const fs::path& d) { write_text(d / "events" / "huge", mebibyte); }},
      {"format_one_mebibyte",
       "format/huge",
       {"file-too-large"},
       false,
       K::events,
       [mebibyte](const fs::path& d) { write_text(d / "format" / "huge", mebibyte); }},
      {"type_one_mebibyte",
       "type",
       {"file-too-large"},
       false,
       K::nothing,
       [mebibyte](const fs::path& d) {
         write_text(d / "type", "12" + std::string(kMebibyte, '3'));
       }},
      {"event_nul_byte",
       "events/nul",
       {"file-nul-byte"},
       true,
       K::events,
       [](const fs::path& d) {
         write_text(d / "events" / "nul", std::string_view("event=0x1\0,umask=2\n", 19));
       }},
      {"format_nul_byte",
       "format/nul",
       {"file-nul-byte"},
       true,
       K::events,
       [](const fs::path& d) {
         write_text(d / "format" / "nul", std::string_view("config:16\0-23\n", 14));
       }},
      {"type_nul_byte",
       "type",
       {"file-nul-byte"},
       true,
       K::nothing,
       [](const fs::path& d) { write_text(d / "type", std::string_view("4\0\n", 3)); }},
      {"event_name_invalid_utf8",
       "events/ev\xff\xfe",
       {"event-name-charset"},
       false,
       K::events,
       [](const fs::path& d) { write_text(d / "events" / "ev\xff\xfe", "event=0x5\n"); }},
      {"format_name_invalid_utf8",
       "format/f\xc3\x28",
       {"format-name-charset"},
       false,
       K::events,
       [](const fs::path& d) { write_text(d / "format" / "f\xc3\x28", "config1:0-3\n"); }},
      {"format_bit_1000",
       "format/wide",
       {"format-bit-out-of-range"},
       true,
       K::events,
       [](const fs::path& d) { write_text(d / "format" / "wide", "config:1000\n"); }},
      {"event_empty",
       "events/empty",
       {"event-empty"},
       false,
       K::events,
       [](const fs::path& d) { write_text(d / "events" / "empty", ""); }},
      {"format_empty",
       "format/empty",
       {"format-syntax", "format-empty"},
       true,
       K::events,
       [](const fs::path& d) { write_text(d / "format" / "empty", ""); }},
      {"type_empty",
       "type",
       {"pmu-type-invalid"},
       true,
       K::nothing,
       [](const fs::path& d) { write_text(d / "type", ""); }},
      {"event_crlf",
       "events/crlf",
       {"terms-whitespace"},
       true,
       K::events,
       [](const fs::path& d) { write_text(d / "events" / "crlf", "event=0x1\r\n"); }},
      {"type_crlf",
       "type",
       {"pmu-type-trailing"},
       true,
       K::events,
       [](const fs::path& d) {
         std::ifstream in(d / "type");
         std::string type;
         in >> type;
         write_text(d / "type", type + "\r\n");
       }},
      {"event_binary_garbage",
       "events/garbage",
       {"terms-syntax", "terms-stray-byte", "terms-missing-comma"},
       true,
       K::events,
       [](const fs::path& d) { write_text(d / "events" / "garbage", garbage(300)); }},
      {"type_overflow",
       "type",
       {"pmu-type-invalid"},
       true,
       K::nothing,
       [](const fs::path& d) { write_text(d / "type", "99999999999\n"); }},
  };
}

}  // namespace

HostileTree::HostileTree() {
  devices_ = root_ / "devices";
  write_base_pmu(devices_ / kGoodPmu, 42);
  write_text(devices_ / kGoodPmu / "events" / "plain", "event=0x12");  // no trailing newline
  unsigned type = 100;
  for (const auto& recipe : recipes()) {
    const std::string pmu = "hx_" + recipe.label;
    const fs::path dir = devices_ / pmu;
    write_base_pmu(dir, type++);
    recipe.make(dir);
    HostileCase hostile{recipe.label,
                        pmu,
                        recipe.entry.empty() ? pmu : pmu + "/" + recipe.entry,
                        recipe.ids,
                        recipe.located,
                        "",
                        0};
    if (recipe.keeps == CaseRecipe::Keeps::events) {
      hostile.usable_spec = pmu + "/ok/";
      hostile.usable_config = 0x3c;
    } else if (recipe.keeps == CaseRecipe::Keeps::formats) {
      hostile.usable_spec = pmu + "/event=0x3c,umask=0x1/";
      hostile.usable_config = 0x13c;
    }
    cases_.push_back(std::move(hostile));
  }
  // A PMU whose own name is not UTF-8: perf's event-spec lexer cannot even name it.
  const std::string bad_name = "hx_pmu\xff\xfename";
  write_base_pmu(devices_ / bad_name, type++);
  cases_.push_back(
      {"pmu_name_invalid_utf8", bad_name, bad_name, {"pmu-name-charset"}, false, "", 0});
}

void HostileTree::add_big_pmu(const std::string& name, unsigned event_count) const {
  const fs::path dir = devices_ / name;
  write_base_pmu(dir, 999);
  for (unsigned i = 0; i < event_count; ++i) {
    write_text(dir / "events" / fmt::format("e{:06}", i), fmt::format("event={:#x}\n", i & 0xff));
  }
}

}  // namespace hostile
PMUCAT_END_NAMESPACE
