// A tool's main body runs inside guarded_main so that no exception ends the process: an
// escaping one would abort (status 134) with no message naming the tool. Anything that escapes
// is reported on stderr and mapped to exit status 2, like any other I/O or internal error.
#pragma once

#include <cstdio>
#include <exception>
#include <new>

namespace pmucat::cli {

template <class Body>
int guarded_main(const char* tool, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: out of memory\n", tool);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: internal error: %s\n", tool, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: error: internal error (unknown exception)\n", tool);
  }
  return 2;
}

}  // namespace pmucat::cli
