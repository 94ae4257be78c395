// SmallVector: inline up to N, heap beyond, same contents either way.
#include "pmucat/small_vector.h"

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include <cstdint>
#include <vector>

PMUCAT_BEGIN_NAMESPACE
namespace {

TEST(SmallVector, StaysInlineUpToItsCapacity) {
  SmallVector<int, 3> values;
  EXPECT_TRUE(values.empty());
  values.push_back(1);
  values.push_back(2);
  values.push_back(3);
  EXPECT_FALSE(values.spilled());
  ASSERT_EQ(values.size(), 3u);
  EXPECT_EQ(values[0], 1);
  EXPECT_EQ(values.back(), 3);
  values.push_back(4);
  EXPECT_TRUE(values.spilled());
  ASSERT_EQ(values.size(), 4u);
  EXPECT_EQ((std::vector<int>(values.begin(), values.end())), (std::vector<int>{1, 2, 3, 4}));
  values.clear();
  EXPECT_TRUE(values.empty());
  EXPECT_FALSE(values.spilled());
  values.push_back(9);
  EXPECT_EQ(values.front(), 9);
}

TEST(SmallVector, EqualityComparesContentsNotStorage) {
  SmallVector<int, 2> spilled{1, 2, 3};
  spilled.clear();
  spilled.push_back(5);
  EXPECT_EQ(spilled, (SmallVector<int, 2>{5}));
  EXPECT_FALSE((SmallVector<int, 2>{5}) == (SmallVector<int, 2>{5, 6}));
  EXPECT_FALSE((SmallVector<int, 2>{5, 7}) == (SmallVector<int, 2>{5, 6}));
}

// Behaves as std::vector for any sequence of pushes, copies and clears.
RC_GTEST_PROP(SmallVectorProperties, MatchesStdVector, (const std::vector<std::uint16_t>& ops)) {
  SmallVector<std::uint16_t, 4> small;
  std::vector<std::uint16_t> model;
  for (const std::uint16_t op : ops) {
    if (op % 17 == 0) {
      small.clear();
      model.clear();
    } else if (op % 13 == 0) {
      const SmallVector<std::uint16_t, 4> copy = small;  // copies keep contents
      small = copy;
    } else {
      small.push_back(op);
      model.push_back(op);
    }
    RC_ASSERT(small.size() == model.size());
    RC_ASSERT(std::vector<std::uint16_t>(small.begin(), small.end()) == model);
    RC_ASSERT(small.spilled() == (model.size() > 4));
  }
}

}  // namespace
PMUCAT_END_NAMESPACE
