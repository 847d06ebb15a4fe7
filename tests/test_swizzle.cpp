#include <gtest/gtest.h>
#include "tmasim/swizzle.hpp"
TEST(Swizzle, Placeholder128) { EXPECT_EQ(tmasim::swizzle_address(tmasim::Swizzle::b128, 0x80), 0x90u); }
