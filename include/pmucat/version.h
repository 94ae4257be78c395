// The library's version: the one place it is written. CMake reads these numbers for
// project(VERSION), the package config and the pkg-config files, so the header the compiler sees
// and the package can never disagree (configure fails if the string and the numbers differ).
//
// The ABI namespace: every declaration of pmucat lies in the inline namespace
// pmucat::v<major>_<minor> (PMUCAT_ABI_NAMESPACE), opened by PMUCAT_BEGIN_NAMESPACE and closed by
// PMUCAT_END_NAMESPACE. Code writes pmucat::Catalog; the linker sees pmucat::v0_1::Catalog. The
// name follows libpmucat.so's SOVERSION (<major>.<minor>), so a program or a library built
// against one ABI fails to link against another instead of mixing two layouts of the same type.
// This header belongs to no module: every public header, and every file that opens namespace
// pmucat, includes it (tests/repo/abi_namespace_test.cpp keeps it so).
#pragma once

#define PMUCAT_VERSION_MAJOR 0
#define PMUCAT_VERSION_MINOR 1
#define PMUCAT_VERSION_PATCH 0
#define PMUCAT_VERSION "0.1.0"

#define PMUCAT_ABI_NAME_(major, minor) v##major##_##minor
#define PMUCAT_ABI_NAME(major, minor) PMUCAT_ABI_NAME_(major, minor)
#define PMUCAT_ABI_NAMESPACE PMUCAT_ABI_NAME(PMUCAT_VERSION_MAJOR, PMUCAT_VERSION_MINOR)
#define PMUCAT_BEGIN_NAMESPACE \
  namespace pmucat {           \
  inline namespace PMUCAT_ABI_NAMESPACE {
#define PMUCAT_END_NAMESPACE \
  }                          \
  }

PMUCAT_BEGIN_NAMESPACE
inline constexpr const char* kVersion = PMUCAT_VERSION;
PMUCAT_END_NAMESPACE
