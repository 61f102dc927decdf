#include "base/status.h"

#include <gtest/gtest.h>

#include <cerrno>

namespace pario {
namespace {

Result<int> half(int x) {
  if (x % 2) return Status(Code::kInvalidArgument, "odd");
  return x / 2;
}

Status quarter(int x, int* out) {
  PARIO_ASSIGN_OR_RETURN(int h, half(x));
  PARIO_ASSIGN_OR_RETURN(*out, half(h));
  return Status::Ok();
}

TEST(Status, ErrnoMapsToCodesOnce) {
  EXPECT_EQ(errno_status(ENOENT, "x").code(), Code::kNotFound);
  EXPECT_EQ(errno_status(ENOSPC, "x").code(), Code::kNoSpace);
  EXPECT_EQ(errno_status(EDQUOT, "x").code(), Code::kNoSpace);
  EXPECT_EQ(errno_status(EACCES, "x").code(), Code::kPermission);
  EXPECT_EQ(errno_status(ELOOP, "x").code(), Code::kPermission);
  EXPECT_EQ(errno_status(EIO, "x").code(), Code::kIo);
  Status s = errno_status(ENOSPC, "/scratch/f");
  EXPECT_EQ(s.sys_errno(), ENOSPC);
  EXPECT_EQ(s.message(), "/scratch/f: No space left on device");
}

TEST(Status, TooManyOpenFilesSaysWhichLimit) {
  EXPECT_NE(errno_status(EMFILE, "x").message().find("ulimit -n"), std::string::npos);
  EXPECT_NE(errno_status(ENFILE, "x").message().find("fs.file-max"), std::string::npos);
}

TEST(Status, ContextIsPrependedAndCodeKept) {
  Status s = Status(Code::kIo, "cause", EIO).with_context("call");
  EXPECT_EQ(s.message(), "call: cause");
  EXPECT_EQ(s.code(), Code::kIo);
  EXPECT_EQ(s.sys_errno(), EIO);
  EXPECT_TRUE(Status::Ok().with_context("x").ok());
}

TEST(Result, MacrosPropagateTheFirstError) {
  int out = -1;
  EXPECT_TRUE(quarter(8, &out).ok());
  EXPECT_EQ(out, 2);
  Status s = quarter(6, &out);  // 6/2 = 3 is odd
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_EQ(s.message(), "odd");
}

TEST(Status, EveryPublicCodeHasAName) {
  for (int c = PARIO_OK; c <= PARIO_ERR_PERMISSION; ++c) {
    EXPECT_STRNE(code_name(c), "unknown status code") << c;
  }
  EXPECT_STREQ(code_name(999), "unknown status code");
}

}  // namespace
}  // namespace pario
