// Producing items on several threads while consuming them in order on the calling thread.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {

// The number of threads `--jobs 0` (automatic) means: one per online CPU, at most `cap`.
unsigned automatic_jobs(unsigned cap);

// Calls produce(i) for every i in [0, count) on up to `jobs` threads (the calling thread is one
// of them) and consume(i, result) on the calling thread in index order. At most `window`
// results wait to be consumed, so memory stays bounded however large `count` is. An exception
// from produce() or consume() is rethrown here after every thread has stopped.
template <class Produce, class Consume>
void ordered_parallel(std::size_t count, unsigned jobs, std::size_t window, Produce&& produce,
                      Consume&& consume) {
  using Result = decltype(produce(std::size_t{0}));
  if (jobs <= 1 || count < 2) {
    for (std::size_t i = 0; i < count; ++i) consume(i, produce(i));
    return;
  }
  if (window < jobs) window = jobs;
  std::mutex mutex;
  std::condition_variable produced;  // a result arrived, or a producer failed
  std::condition_variable consumed;  // the window moved on
  std::vector<std::optional<Result>> results(count);
  std::size_t next = 0;      // the next index to produce
  std::size_t in_order = 0;  // indices below this one are consumed
  std::exception_ptr failure;

  // Produces index `i` with the lock released; false when producing failed.
  auto produce_one = [&](std::unique_lock<std::mutex>& lock, std::size_t i) {
    lock.unlock();
    std::optional<Result> result;
    std::exception_ptr error;
    try {
      result.emplace(produce(i));
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    if (error) {
      if (!failure) failure = error;
      next = count;  // nobody starts anything new
    } else {
      results[i] = std::move(result);
    }
    produced.notify_all();
  };
  auto may_start = [&] { return next < count && next < in_order + window && !failure; };

  auto worker = [&] {
    std::unique_lock lock(mutex);
    while (true) {
      consumed.wait(lock, [&] { return may_start() || next >= count || failure; });
      if (!may_start()) return;
      produce_one(lock, next++);
    }
  };
  std::vector<std::jthread> threads;
  threads.reserve(jobs - 1);
  for (unsigned j = 1; j < jobs; ++j) threads.emplace_back(worker);

  {
    std::unique_lock lock(mutex);
    for (std::size_t i = 0; i < count && !failure; ++i) {
      // The calling thread produces too while the item it waits for is not ready.
      while (!results[i] && !failure) {
        if (may_start()) {
          produce_one(lock, next++);
        } else {
          produced.wait(lock);
        }
      }
      if (failure) break;
      Result result = std::move(*results[i]);
      results[i].reset();
      in_order = i + 1;
      consumed.notify_all();
      lock.unlock();
      try {
        consume(i, std::move(result));
      } catch (...) {
        lock.lock();
        failure = std::current_exception();
        break;
      }
      lock.lock();
    }
    if (!failure) in_order = count;
    next = count;
    consumed.notify_all();
  }
  threads.clear();  // joins
  if (failure) std::rethrow_exception(failure);
}

}  // namespace cli
PMUCAT_END_NAMESPACE
