// Internal unit test of cli/common/ordered_parallel.h: the tools' ordered worker pool.
// ordered_parallel: results arrive in index order whatever thread made them, no more than the
// window wait at once, and a failure on any thread reaches the caller without a hang.
#include "common/ordered_parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "pmucat/version.h"

PMUCAT_BEGIN_NAMESPACE
namespace cli {
namespace {

struct Made {
  std::size_t index;
  std::thread::id thread;
};

TEST(OrderedParallel, ConsumesEveryIndexOnceInOrder) {
  for (unsigned jobs : {1u, 2u, 3u, 8u}) {
    for (std::size_t count : {0u, 1u, 2u, 7u, 500u}) {
      std::vector<std::size_t> seen;
      ordered_parallel(
          count, jobs, 4,
          [](std::size_t i) {
            // Uneven work, so later items often finish before earlier ones.
            if (i % 5 == 0) std::this_thread::sleep_for(std::chrono::microseconds(200));
            return i * 3;
          },
          [&](std::size_t i, std::size_t value) {
            EXPECT_EQ(value, i * 3);
            seen.push_back(i);
          });
      ASSERT_EQ(seen.size(), count) << jobs << " jobs";
      for (std::size_t i = 0; i < count; ++i) EXPECT_EQ(seen[i], i);
    }
  }
}

TEST(OrderedParallel, ConsumesOnTheCallingThreadAndProducesOnOthers) {
  const std::thread::id caller = std::this_thread::get_id();
  std::set<std::thread::id> producers;
  std::mutex producers_mutex;
  std::condition_variable produced_elsewhere;
  ordered_parallel(
      200, 3, 8,
      [&](std::size_t i) {
        std::unique_lock lock(producers_mutex);
        producers.insert(std::this_thread::get_id());
        produced_elsewhere.notify_all();
        // Item 0 is held back until some other thread has produced an item, so a load on the
        // machine cannot let one thread make them all; the timeout only keeps a broken
        // ordered_parallel from hanging the suite.
        if (i == 0) {
          produced_elsewhere.wait_for(lock, std::chrono::seconds(30),
                                      [&] { return producers.size() > 1; });
        }
        return Made{i, std::this_thread::get_id()};
      },
      [&](std::size_t i, Made made) {
        EXPECT_EQ(made.index, i);
        EXPECT_EQ(std::this_thread::get_id(), caller);
      });
  EXPECT_GT(producers.size(), 1u);  // other threads did take part
}

TEST(OrderedParallel, KeepsAtMostTheWindowAhead) {
  const std::size_t window = 5;
  std::atomic<std::size_t> consumed{0};
  std::atomic<std::size_t> furthest_ahead{0};
  ordered_parallel(
      300, 4, window,
      [&](std::size_t i) {
        // Index i may start while the item before it in the window is still being consumed.
        std::size_t ahead = i - std::min(i, consumed.load());
        std::size_t seen = furthest_ahead.load();
        while (ahead > seen && !furthest_ahead.compare_exchange_weak(seen, ahead)) {
        }
        return i;
      },
      [&](std::size_t, std::size_t) {
        std::this_thread::sleep_for(std::chrono::microseconds(50));  // a slow consumer
        ++consumed;
      });
  EXPECT_EQ(consumed.load(), 300u);
  EXPECT_LE(furthest_ahead.load(), window);
}

TEST(OrderedParallel, AFailingProducerReachesTheCaller) {
  for (unsigned jobs : {1u, 2u, 4u}) {
    std::size_t consumed = 0;
    EXPECT_THROW(ordered_parallel(
                     100, jobs, 4,
                     [](std::size_t i) {
                       if (i == 37) throw std::runtime_error("item 37");
                       return std::to_string(i);
                     },
                     [&](std::size_t, const std::string&) { ++consumed; }),
                 std::runtime_error);
    EXPECT_LE(consumed, 37u) << jobs << " jobs";
  }
}

TEST(OrderedParallel, AFailingConsumerReachesTheCaller) {
  EXPECT_THROW(ordered_parallel(
                   100, 3, 4, [](std::size_t i) { return i; },
                   [](std::size_t i, std::size_t) {
                     if (i == 10) throw std::logic_error("consumer");
                   }),
               std::logic_error);
}

TEST(OrderedParallel, AutomaticJobsIsAtLeastOneAndCapped) {
  EXPECT_GE(automatic_jobs(4), 1u);
  EXPECT_LE(automatic_jobs(4), 4u);
  EXPECT_EQ(automatic_jobs(1), 1u);
  EXPECT_EQ(automatic_jobs(0), 1u);
}

}  // namespace
}  // namespace cli
PMUCAT_END_NAMESPACE
