#include "pmucat/suggest.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

PMUCAT_BEGIN_NAMESPACE
namespace {

TEST(Suggest, EditDistanceBasics) {
  EXPECT_EQ(edit_distance("umask", "umask"), 0u);
  EXPECT_EQ(edit_distance("umsk", "umask"), 1u);
  EXPECT_EQ(edit_distance("UMASK", "umask"), 0u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

RC_GTEST_PROP(Suggest, EditDistanceIsSymmetricAndBounded, (std::string a, std::string b)) {
  const std::size_t distance = edit_distance(a, b);
  RC_ASSERT(distance == edit_distance(b, a));
  RC_ASSERT(distance <= std::max(a.size(), b.size()));
  RC_ASSERT(edit_distance(a, a) == 0u);
}

TEST(Suggest, NearestPicksAPlausibleTypo) {
  const std::vector<std::string> names = {"event", "umask", "cmask", "inv", "edge"};
  EXPECT_EQ(nearest_name("umsk", names), "umask");
  EXPECT_EQ(nearest_name("evnt", names), "event");
  EXPECT_EQ(nearest_name("frobnicate", names), std::nullopt);
  EXPECT_EQ(nearest_name("x", std::vector<std::string>{}), std::nullopt);
}

}  // namespace
PMUCAT_END_NAMESPACE
