// Shared types of the tmasim RTL: the swizzle modes (encoded as CUtensorMapSwizzle), the
// address widths, and the structs that carry a box command between the address generators'
// stages.
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

  // Not every block uses every constant.
  /* verilator lint_off UNUSEDPARAM */
  localparam int unsigned GAddrWidth = 48;  // global byte address (arithmetic is modulo 2^48)
  localparam int unsigned SAddrWidth = 18;  // shared-memory byte address (228 KiB)
  localparam int unsigned NumOuter   = 4;   // tiled dimensions 1..4 (dimension 0 is the row)
  localparam int unsigned RowBytes   = 2048;  // a row holds at most 128 beats of 16 bytes
  /* verilator lint_on UNUSEDPARAM */

  typedef logic [GAddrWidth-1:0] gaddr_t;
  typedef logic [SAddrWidth-1:0] saddr_t;
  typedef logic [11:0]           row_off_t;   // a byte offset inside a row, 0..RowBytes

  // A tiled box: the decoded tensor map and the instruction's coordinates, as driven into
  // tma_agu. Fields of unused dimensions (d >= rank) are ignored.
  typedef struct packed {
    logic [2:0]                rank;        // 1..5
    logic [2:0]                elem_log2;   // unit bytes: 1..8 (element) or 16, 32 (interleave)
    logic [3:0]                es0;         // units stepped along dimension 0 (interleave; else 1)
    logic [2:0]                swizzle;     // a swizzle_e value
    gaddr_t                    gbase;
    saddr_t                    smem_base;
    logic [11:0]               row_pitch;   // bytes between rows in shared memory
    logic [7:0]                row_beats;   // 16-byte pieces per row, 1..128
    logic [NumOuter-1:0][39:0] stride;      // bytes, dimensions 1..4
    logic [NumOuter-1:0][8:0]  ext;         // rows per dimension, 1..256
    logic [NumOuter-1:0][3:0]  es;          // element strides, 1..8
    logic [NumOuter:0][32:0]   dim;         // globalDim, dimensions 0..4 (1..2^32)
    logic [NumOuter:0][31:0]   coord;       // signed coordinates, dimensions 0..4
  } tiled_cmd_t;

  // How the pieces of one row are laid out, fixed for a box (the beat stage's configuration).
  typedef struct packed {
    logic [2:0] swizzle;     // a swizzle_e value
    logic [7:0] row_beats;   // pieces per row
    logic [8:0] unit_step;   // global bytes between consecutive units of a row
    logic       unit_2p;     // a unit spans two pieces (32-byte interleave)
    row_off_t   win_lo;      // bytes [win_lo, win_hi) of every row lie inside dimension 0
    row_off_t   win_hi;
  } row_fmt_t;

  // A box after set-up: everything the row walker needs, no multiplication left.
  typedef struct packed {
    gaddr_t                    start;       // first unit of the box's first row
    logic [NumOuter-1:0][GAddrWidth-1:0] step;  // address step of one row index, per dimension
    logic [NumOuter-1:0][7:0]  last;        // last row index per dimension (0 when unused)
    logic [NumOuter-1:0][8:0]  idx_lo;      // row indices [idx_lo, idx_hi) are inside the tensor
    logic [NumOuter-1:0][8:0]  idx_hi;
    saddr_t                    smem_base;
    logic [11:0]               row_pitch;
    row_fmt_t                  fmt;
  } walk_t;

  // An im2col box, as driven into tma_agu_im2col: rank 3-5, so 1-3 spatial dimensions and the
  // image index. Plain layouts walk tensor dimensions 1..rank-2 (W, H, D) with channels along
  // dimension 0; interleaved ones walk dimensions 0..rank-3 (dimension 0 in 16/32-byte units,
  // one unit a pixel) and hold dimension rank-2 at its coordinate (hc, hdim, hstride). Fields of
  // unused spatial dimensions are ignored.
  typedef struct packed {
    logic [2:0]       rank;        // 3..5
    logic [1:0]       elem_log2;
    logic [2:0]       swizzle;     // a swizzle_e value
    gaddr_t           gbase;
    saddr_t           smem_base;
    logic [11:0]      row_pitch;   // bytes between pixels in shared memory
    logic [7:0]       row_beats;   // 16-byte pieces per pixel
    logic [10:0]      pixels;      // pixelsPerColumn, 1..1024
    logic [32:0]      dim0;        // channels
    logic [2:0][32:0] sdim;        // spatial dims
    logic [32:0]      ndim;        // images
    logic [2:0][39:0] sstride;     // bytes
    logic [39:0]      nstride;
    logic [2:0][31:0] lo;          // bounding box [lo, hi] per spatial dimension (signed)
    logic [2:0][33:0] hi;
    logic [2:0][3:0]  ses;         // traversal strides
    logic [3:0]       nes;
    logic [2:0][15:0] off;         // im2col offsets
    logic [31:0]      c0;          // first channel (signed)
    logic [2:0][31:0] p;           // starting pixel position (signed)
    logic [31:0]      n;           // starting image (signed)
    logic [31:0]      hc;          // the held dimension's coordinate (signed; 0 when none)
    logic [32:0]      hdim;        // its globalDim (1 when none)
    logic [39:0]      hstride;     // its stride in bytes (0 when none)
  } im2col_cmd_t;

  // An im2col box after set-up. Walk dimensions 0..ns-1 are the spatial ones, ns the image.
  typedef struct packed {
    gaddr_t                         start;
    logic [2:0][GAddrWidth-1:0]     first;        // first row of walk dims 1..3's passes
    logic [3:0][GAddrWidth-1:0]     step;         // per walk dimension
    logic [1:0]                     ns;           // spatial dimensions, 1..3
    logic                           held_outside; // the held dimension is outside the tensor
    logic [2:0][10:0]               sweep_first;  // step at which a sweep wraps (first / later)
    logic [2:0][10:0]               sweep_rest;
    logic [2:0][10:0]               lo_first;     // steps [lo, hi) of a sweep inside the tensor
    logic [2:0][10:0]               hi_first;
    logic [2:0][10:0]               lo_rest;
    logic [2:0][10:0]               hi_rest;
    logic [10:0]                    n_lo;         // image steps [n_lo, n_hi) inside the tensor
    logic [10:0]                    n_hi;
    logic [10:0]                    pixels;
    saddr_t                         smem_base;
    logic [11:0]                    row_pitch;
    row_fmt_t                       fmt;
  } im2col_walk_t;
endpackage
