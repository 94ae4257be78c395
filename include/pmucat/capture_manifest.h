// The manifest at the root of a pmusnap capture: the entries the capture could not copy byte for
// byte. pmusnap writes it (pmucat/snapshot.h); pmucheck reads it back to report them.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/expected.h"

namespace pmucat::snap {

// The manifest's file name at the root of every capture, and the version of its layout.
inline constexpr std::string_view kManifestName = "pmusnap-manifest.json";
inline constexpr int kManifestVersion = 2;

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

}  // namespace pmucat::snap
