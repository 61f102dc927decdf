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

// An OK Status holds nothing; an error holds its code, errno and message,
// and copies of it are independent (issue 30 made the error part a pointer).
TEST(Status, CopiesAreIndependentAndOkIsEmpty) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(ok.code(), Code::kOk);
  EXPECT_EQ(ok.sys_errno(), 0);
  EXPECT_EQ(ok.message(), "");
  Status a(Code::kNoSpace, "disk full", ENOSPC);
  Status b = a;
  b = std::move(b).with_context("write");
  EXPECT_EQ(a.message(), "disk full");
  EXPECT_EQ(b.message(), "write: disk full");
  EXPECT_EQ(b.code(), Code::kNoSpace);
  EXPECT_EQ(b.sys_errno(), ENOSPC);
  Status c;
  c = a;
  EXPECT_EQ(c.raw_code(), PARIO_ERR_NO_SPACE);
  c = Status::Ok();
  EXPECT_TRUE(c.ok());
  EXPECT_EQ(a.message(), "disk full");
  Status d = std::move(a);
  EXPECT_EQ(d.message(), "disk full");
  Status kept(Code::kOk, "an OK with words");  // kept as given, as before
  EXPECT_TRUE(kept.ok());
  EXPECT_EQ(kept.message(), "an OK with words");
  Result<int> r = Status(Code::kIo, "eio", EIO);
  EXPECT_EQ(r.status().sys_errno(), EIO);
  Result<int> v = 7;
  EXPECT_TRUE(v.status().ok());
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
