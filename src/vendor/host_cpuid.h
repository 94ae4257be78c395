// The arm64 CPU identifier from any sysfs root (host_cpuid() uses it on arm64; tests on any host).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace pmucat::vendor {

// The MIDR of the lowest-numbered CPU that has a readable midr_el1, variant and revision cleared,
// printed `0x%016lx`; nullopt when none has one or it is zero.
std::optional<std::string> arm64_midr_cpuid(const std::filesystem::path& sysfs_root);

}  // namespace pmucat::vendor
