// Bank-conflict model on textbook patterns (the H100 counts for all 514 measured patterns are
// checked by the conflicts_h100_ncu_patterns ctest).
#include <gtest/gtest.h>

#include "tmasim/conflicts.hpp"
#include "tmasim/tile_layout.hpp"

using namespace tmasim;

namespace {
WarpAccess strided(SmemOp op, int width, int stride) {
  WarpAccess a;
  a.op = op;
  a.width = width;
  for (int l = 0; l < 32; ++l) a.addr[l] = int64_t(l) * stride;
  return a;
}
}  // namespace

TEST(Conflicts, ConsecutiveWordsTakeOneWavefront) { EXPECT_EQ(evaluate(strided(SmemOp::ld, 4, 4)).wavefronts, 1); }

TEST(Conflicts, TwoWayConflictForStrideTwoWords) {
  ConflictResult r = evaluate(strided(SmemOp::ld, 4, 8));
  EXPECT_EQ(r.wavefronts, 2);
  EXPECT_EQ(r.conflicts(), 1);
}

TEST(Conflicts, SameBankDifferentRowsSerialise) { EXPECT_EQ(evaluate(strided(SmemOp::ld, 4, 128)).wavefronts, 32); }

TEST(Conflicts, BroadcastIsFree) { EXPECT_EQ(evaluate(strided(SmemOp::ld, 4, 0)).wavefronts, 1); }

TEST(Conflicts, SixteenByteVectorsNeedFourWavefrontsAtBest) {
  EXPECT_EQ(evaluate(strided(SmemOp::ld, 16, 16)).wavefronts, 4);
  EXPECT_EQ(evaluate(strided(SmemOp::ld, 16, 16)).ideal, 4);
}

TEST(Conflicts, InactiveLanesAreNotServed) {
  WarpAccess a = strided(SmemOp::ld, 4, 128);
  for (int l = 1; l < 32; ++l) a.addr[l] = -1;
  EXPECT_EQ(evaluate(a).wavefronts, 1);
}

TEST(Conflicts, LdmatrixOnUnswizzled128ByteRowsConflictsEightWays) {
  TileLayout t;
  t.swizzle = Swizzle::none;
  EXPECT_EQ(evaluate(matrix_access(t, SmemOp::ldmatrix, 4, false, 0, 0)).wavefronts, 32);
  t.swizzle = Swizzle::b128;
  EXPECT_EQ(evaluate(matrix_access(t, SmemOp::ldmatrix, 4, false, 0, 0)).wavefronts, 4);
}

TEST(Conflicts, SixtyFourBanksHalveTheStride128Conflict) {
  BankGeometry g;
  g.banks = 64;
  EXPECT_EQ(evaluate(strided(SmemOp::ld, 4, 128), g).wavefronts, 16);
}

TEST(Conflicts, DetailListsEveryActiveLaneOnce) {
  ConflictResult r = evaluate(strided(SmemOp::ld, 4, 8), {}, true);
  ASSERT_EQ(r.detail.size(), 2u);
  EXPECT_EQ(r.detail[0].lanes.size() + r.detail[1].lanes.size(), 32u);
}

TEST(Conflicts, MisalignedLaneIsAnError) {
  WarpAccess a = strided(SmemOp::ld, 16, 16);
  a.addr[3] = 8;
  EXPECT_THROW(check_access(a), Error);
}

TEST(Conflicts, FastCountEqualsTheDetailedOneOnRandomAccesses) {
  uint64_t state = 12345;
  auto next = [&]() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 33;
  };
  for (int banks : {16, 32, 64}) {
    for (int bank_bytes : {4, 8}) {
      BankGeometry g;
      g.banks = banks;
      g.bank_bytes = bank_bytes;
      for (int k = 0; k < 3000; ++k) {
        WarpAccess a;
        const int kind = static_cast<int>(next() % 5);
        a.op = kind < 3 ? (next() % 2 ? SmemOp::ld : SmemOp::st) : (kind == 3 ? SmemOp::ldmatrix : SmemOp::stmatrix);
        a.width = kind < 3 ? 4 << kind : 16;
        a.num = 1 << (next() % 3);
        const int bytes = kind < 3 ? a.width : 16;
        const int span = 1 << (6 + next() % 8);  // small spans make broadcasts and conflicts likely
        for (int l = 0; l < 32; ++l)
          a.addr[l] = (kind < 3 && next() % 7 == 0) ? -1 : int64_t(next() % (span / bytes + 1)) * bytes;
        ASSERT_EQ(evaluate(a, g, false).wavefronts, evaluate(a, g, true).wavefronts)
            << "banks " << banks << " bank_bytes " << bank_bytes << " case " << k;
      }
    }
  }
}
