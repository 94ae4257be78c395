// Running a piece of a test on a thread with a small stack: code that recursed once per level of
// its input would overflow it and kill the test, where the main thread's 8 MiB would hide it.
#pragma once

#include <cstddef>
#include <functional>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

// 256 KiB: far less than a main thread's stack, more than any bounded recursion needs.
inline constexpr std::size_t kSmallStack = std::size_t{256} << 10;

// Runs `body` on a new thread whose stack is `stack_bytes`, and waits for it. False when the
// thread could not be made (the body did not run).
[[nodiscard]] bool run_on_small_stack(const std::function<void()>& body,
                                      std::size_t stack_bytes = kSmallStack);

}  // namespace testing
PMUCAT_END_NAMESPACE
