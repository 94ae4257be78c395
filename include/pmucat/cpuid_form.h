// Whether a CPU identifier a user typed (--cpuid, $PMUCAT_CPUID, perf's PERF_CPUID) is in one of
// the forms perf writes one in. perf compares it with mapfile.csv rows as POSIX extended regular
// expressions, case-sensitively and without telling anyone when nothing matches, so a typo or
// the wrong case silently means "no vendor events".
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pmucat/diagnostic.h"
#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE

// nullopt when `cpuid` is in one of perf's forms:
//   x86      Vendor-Family-Model[-Stepping]: family decimal, model and stepping upper-case hex
//            (`GenuineIntel-6-8F-8`, `AuthenticAMD-25-11-1`)
//   arm64    `0x` and 16 lower-case hex digits (`0x00000000410fd490`, perf's `0x%016lx` MIDR)
//   riscv    `0xVENDOR-0xARCH-0xIMP`, lower-case hex
//   powerpc  8 lower-case hex digits (the PVR, `004e1202`)
//   s390     comma-separated fields, at least Manufacturer,Type,Model (`IBM,8561,703,T01`)
// Otherwise a warning located in `cpuid` (named `what`, such as "<--cpuid>"): cpuid-case, with a
// fix-it to perf's case, when only the case of hex digits differs from one of these forms;
// cpuid-malformed else, with a fix-it where one form is plainly meant (a MIDR with fewer than 16
// digits gets its leading zeros) and the forms as a hint.
std::optional<Diagnostic> check_cpuid_form(std::string_view cpuid, std::string_view what);

// Up to `count` rows of the mapfiles under `events_root` (each <arch>/mapfile.csv) nearest to
// `cpuid` (edit distance, ignoring case), each as `PATTERN (DIRECTORY)`, nearest first: the hint
// for an identifier that no row matches. Unreadable mapfiles count as having no rows.
std::vector<std::string> nearest_mapfile_rows(const std::filesystem::path& events_root,
                                              std::string_view cpuid, std::size_t count);

PMUCAT_END_NAMESPACE
