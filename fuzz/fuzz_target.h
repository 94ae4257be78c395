// The libFuzzer entry point every target in fuzz/ defines. Declared here so the same sources link
// into libFuzzer (clang) and into the corpus replay tests (tests/fuzz, any compiler).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

// Stops the run on a broken invariant: libFuzzer and the replay tests both report it as a crash.
// The invariant is named first, so a CI log says which one broke (the optimizer merges the traps,
// and the line of the crash frame is then any of them).
#define PMUCAT_FUZZ_CHECK(condition)                                                         \
  do {                                                                                       \
    if (!(condition)) {                                                                      \
      std::fprintf(stderr, "%s:%d: invariant broken: %s\n", __FILE__, __LINE__, #condition); \
      __builtin_trap();                                                                      \
    }                                                                                        \
  } while (false)
