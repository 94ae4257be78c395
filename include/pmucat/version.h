// The library's version: the one place it is written. CMake reads these numbers for
// project(VERSION), the package config and the pkg-config files, so the header the compiler sees
// and the package can never disagree (configure fails if the string and the numbers differ).
#pragma once

#define PMUCAT_VERSION_MAJOR 0
#define PMUCAT_VERSION_MINOR 1
#define PMUCAT_VERSION_PATCH 0
#define PMUCAT_VERSION "0.1.0"

namespace pmucat {
inline constexpr const char* kVersion = PMUCAT_VERSION;
}  // namespace pmucat
