// Reading a pmusnap capture's manifest back: what the capture could not copy byte for byte.
#include "pmucat/capture_manifest.h"

#include <fmt/core.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "pmucat/diagnostic_ids.h"
#include "pmucat/sysfs_root.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {
namespace {

namespace fs = std::filesystem;

// A manifest is a few kilobytes; a bigger one is not something pmusnap wrote.
constexpr std::uintmax_t kMaxManifestSize = 16 << 20;

// A path the manifest may name: relative, inside the devices dir, no `..`.
bool is_tree_path(const std::string& path) {
  if (path.empty() || path.front() == '/') return false;
  for (const auto& part : fs::path(path)) {
    if (part == ".." || part == ".") return false;
  }
  return true;
}

std::string string_field(const nlohmann::json& item, const char* key) {
  auto found = item.find(key);
  return found != item.end() && found->is_string() ? found->get<std::string>() : std::string();
}

}  // namespace

Expected<std::vector<NotCaptured>> read_manifest(const std::filesystem::path& devices_dir) {
  auto manifest = read_capture_manifest(devices_dir);
  if (!manifest) return unexpected(std::move(manifest.error()));
  return std::move(manifest->not_captured);
}

Expected<Manifest> read_capture_manifest(const std::filesystem::path& devices_dir) {
  Manifest result;
  std::vector<NotCaptured>& entries = result.not_captured;
  if (devices_dir.empty()) return result;
  // Only a capture's own layout: ROOT/bus/event_source/devices.
  const std::optional<fs::path> root = sysfs_root_above(devices_dir);
  if (!root) return result;
  fs::path path = *root / kManifestName;
  std::error_code ec;
  auto status = fs::status(path, ec);
  if (!fs::exists(status)) return result;
  auto invalid = [&](std::string message) {
    return unexpected(make_file_diagnostic(Severity::error, DiagId::capture_manifest_invalid,
                                           path.string(), std::move(message)));
  };
  if (!fs::is_regular_file(status)) return invalid("not a regular file");
  if (fs::file_size(path, ec) > kMaxManifestSize) return invalid("larger than 16 MiB");
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (!in) return invalid("cannot be read");
  auto manifest = nlohmann::json::parse(text.str(), nullptr, false);
  if (manifest.is_discarded() || !manifest.is_object()) return invalid("not a JSON object");
  if (string_field(manifest, "tool") != "pmusnap") return invalid("\"tool\" is not \"pmusnap\"");
  if (auto cpuid = manifest.find("cpuid"); cpuid != manifest.end() && !cpuid->is_null()) {
    if (!cpuid->is_string()) return invalid("\"cpuid\" is neither a string nor null");
    // An empty identifier chooses no model, the same as none.
    if (!cpuid->get_ref<const std::string&>().empty()) result.cpuid = cpuid->get<std::string>();
  }
  auto add = [&](const nlohmann::json& item, std::string rule, std::string reason) {
    std::string entry_path = string_field(item, "path");
    if (!is_tree_path(entry_path)) {
      return false;
    }
    entries.push_back(NotCaptured{std::move(entry_path), std::move(rule), std::move(reason)});
    return true;
  };
  if (auto list = manifest.find("not_captured"); list != manifest.end()) {
    if (!list->is_array()) return invalid("\"not_captured\" is not an array");
    for (const auto& item : *list) {
      if (!item.is_object() ||
          !add(item, string_field(item, "rule"), string_field(item, "reason"))) {
        return invalid(fmt::format("bad \"not_captured\" entry {}", item.dump()));
      }
    }
  }
  // Version 1 listed only unreadable files (written empty), as {"path", "error"}.
  if (auto list = manifest.find("unreadable"); list != manifest.end() && list->is_array()) {
    for (const auto& item : *list) {
      std::string error = item.is_object() ? string_field(item, "error") : std::string();
      if (!item.is_object() || !add(item, std::string(to_string(DiagId::file_unreadable)),
                                    fmt::format("cannot read file: {}", error))) {
        return invalid(fmt::format("bad \"unreadable\" entry {}", item.dump()));
      }
    }
  }
  return result;
}

}  // namespace snap
PMUCAT_END_NAMESPACE
