// The manifest at the root of a pmusnap capture: the entries the capture could not copy byte for
// byte, and the CPU identifier of the machine captured. pmusnap writes it (pmucat/snapshot.h);
// pmucheck reads the entries back to report them, every tool reads the identifier to choose the
// vendor JSON model (cli/common/vendor.h).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace snap {

// The manifest's file name at the root of every capture, and the version of its layout.
inline constexpr std::string_view kManifestName = "pmusnap-manifest.json";
// Version 3 added `cpuid`, version 4 `tracefs` (the tracefs root whose ids were captured under
// kernel/tracing/, or null) and `tracepoints`, version 5 `written` (every entry pmusnap wrote,
// relative to the capture's root, directories ending in '/': what `pmusnap --force` may remove);
// readers take every version (absent fields read as empty).
inline constexpr int kManifestVersion = 5;

// An entry of the tree that is not in the capture byte for byte.
struct NotCaptured {
  std::string path;    // relative to the devices dir: "cpu/events/pipe", "ghostpmu"
  std::string rule;    // the pmucheck rule the original entry hits; empty when none reads it
  std::string reason;  // "expected a regular file, found a FIFO"
  friend bool operator==(const NotCaptured&, const NotCaptured&) = default;
};

// The not-captured entries of the capture holding `devices_dir` (read from the manifest at
// `devices_dir`/../../../pmusnap-manifest.json). Empty when there is no manifest (not a capture);
// an error when there is one that cannot be read or parsed. Version-1 manifests (an
// `unreadable` list) are read as file-unreadable entries.
Expected<std::vector<NotCaptured>> read_manifest(const std::filesystem::path& devices_dir);

// Everything a manifest says that readers use.
struct Manifest {
  std::vector<NotCaptured> not_captured;
  // perf's identifier (PERF_CPUID format) of the CPU the capture describes; absent in manifests
  // before version 3 and when pmusnap did not know it (a fixture, an architecture without one).
  std::optional<std::string> cpuid;
  friend bool operator==(const Manifest&, const Manifest&) = default;
};

// The whole manifest of the capture holding `devices_dir`, with read_manifest's rules: an empty
// Manifest when there is none, an error when there is one that cannot be read or parsed (a
// `cpuid` that is neither a string nor null is an error too).
Expected<Manifest> read_capture_manifest(const std::filesystem::path& devices_dir);

}  // namespace snap
PMUCAT_END_NAMESPACE
