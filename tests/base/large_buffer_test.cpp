#include "base/large_buffer.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace pario {
namespace {

TEST(LargeBuffer, SmallBuffersComeFromTheHeap) {
  EXPECT_FALSE(LargeBuffer::allocate(0));
  LargeBuffer b = LargeBuffer::allocate(1000);
  ASSERT_TRUE(b);
  EXPECT_EQ(b.size(), 1000u);
  EXPECT_FALSE(b.huge());
  std::memset(b.get(), 1, b.size());
}

// A buffer of a huge page or more is its own mapping, starts on a huge
// page boundary and is writable to its end (an odd size: the rounding up).
TEST(LargeBuffer, LargeBuffersAreAlignedToHugePages) {
  const size_t bytes = 3 * LargeBuffer::kHugePage + 12345;
  LargeBuffer b = LargeBuffer::allocate(bytes);
  ASSERT_TRUE(b);
  EXPECT_TRUE(b.huge());
  EXPECT_EQ(b.size(), bytes);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(b.get()) % LargeBuffer::kHugePage, 0u);
  std::memset(b.get(), 0x5a, bytes);
  EXPECT_EQ(b.get()[bytes - 1], 0x5a);
  EXPECT_EQ(b.get()[0], 0x5a);
}

TEST(LargeBuffer, MovesAndResets) {
  LargeBuffer a = LargeBuffer::allocate(LargeBuffer::kHugePage);
  ASSERT_TRUE(a);
  char* p = a.get();
  p[0] = 9;
  LargeBuffer b(std::move(a));
  EXPECT_FALSE(a);
  EXPECT_EQ(b.get(), p);
  EXPECT_TRUE(b.huge());
  LargeBuffer c = LargeBuffer::allocate(10);
  c = std::move(b);  // c's heap buffer is freed
  EXPECT_EQ(c.get(), p);
  EXPECT_EQ(c.get()[0], 9);
  c.reset();
  EXPECT_FALSE(c);
  EXPECT_EQ(c.size(), 0u);
}

TEST(LargeBuffer, AnImpossibleSizeIsRefused) {
  EXPECT_FALSE(LargeBuffer::allocate(SIZE_MAX - 10));
  EXPECT_FALSE(LargeBuffer::allocate(SIZE_MAX / 2));  // more than the address space
}

}  // namespace
}  // namespace pario
