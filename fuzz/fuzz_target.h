// The libFuzzer entry point every target in fuzz/ defines. Declared here so the same sources link
// into libFuzzer (clang) and into the corpus replay tests (tests/fuzz, any compiler).
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>

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

// A fresh, empty file under $TMPDIR (fuzz/run points it at a scratch folder of its own) named
// `<stem>.XXXXXX`, for targets that read a file or check one they wrote.
inline std::filesystem::path fuzz_scratch_file(std::string_view stem) {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  std::string name = (ec ? std::filesystem::path("/tmp") : dir) / (std::string(stem) + ".XXXXXX");
  const int fd = ::mkstemp(name.data());
  PMUCAT_FUZZ_CHECK(fd >= 0);
  ::close(fd);
  return name;
}
