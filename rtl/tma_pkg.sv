// Shared types of the tmasim RTL: the swizzle modes, encoded as CUtensorMapSwizzle.
package tma_pkg;
  typedef enum logic [2:0] {
    SwizzleNone        = 3'd0,
    Swizzle32B         = 3'd1,
    Swizzle64B         = 3'd2,
    Swizzle128B        = 3'd3,
    Swizzle128BAtom32  = 3'd4,
    Swizzle128BAtom32F = 3'd5,  // 32B atoms, 8B halves flipped on odd 128B rows
    Swizzle128BAtom64  = 3'd6
  } swizzle_e;
endpackage
