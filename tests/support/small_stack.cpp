#include "support/small_stack.h"

#include <pthread.h>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace testing {

bool run_on_small_stack(const std::function<void()>& body, std::size_t stack_bytes) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return false;
  bool ran = false;
  if (pthread_attr_setstacksize(&attr, stack_bytes) == 0) {
    auto run = [](void* arg) -> void* {
      (*static_cast<const std::function<void()>*>(arg))();
      return nullptr;
    };
    pthread_t thread;
    if (pthread_create(&thread, &attr, run, const_cast<std::function<void()>*>(&body)) == 0) {
      ran = pthread_join(thread, nullptr) == 0;
    }
  }
  pthread_attr_destroy(&attr);
  return ran;
}

}  // namespace testing
PMUCAT_END_NAMESPACE
