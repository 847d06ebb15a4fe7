// tma_agu_beats: the beat stage of the address generators. Given the first unit of a row (its
// global address and its unswizzled shared-memory address), it emits the row as beats of up to
// Chunks 16-byte pieces: per piece the swizzled shared-memory address, the global address of its
// first byte and a per-byte out-of-bound mask. Addresses advance by running adders (one global,
// one shared), never by multiplication; a piece's mask needs only 8-bit compares of its index
// against the row's in-bound window, which set-up computed once per box.
//
// Latency: a row is loaded in one cycle (load_i); its first beat is on the outputs the next
// cycle. Throughput: one beat per cycle (advance_i). Outputs are functions of registers and
// of fmt_i and row_inb_i, which the owner holds for the row.
module tma_agu_beats #(
  parameter int unsigned Chunks = 1   // 16-byte pieces per beat: 1, or 8 for 128 bytes/cycle
) (
  input  logic                         clk_i,
  input  logic                         rst_ni,
  input  tma_pkg::row_fmt_t                     fmt_i,
  input  logic                         load_i,       // start a row
  input  tma_pkg::gaddr_t                       row_gaddr_i,
  input  tma_pkg::saddr_t                       row_smem_i,
  input  logic                         advance_i,    // this beat is taken and is not the row's last
  input  logic                         row_inb_i,    // the row lies inside dimensions 1..4
  output logic [Chunks*tma_pkg::SAddrWidth-1:0] smem_addr_o,
  output logic [Chunks*tma_pkg::GAddrWidth-1:0] gaddr_o,
  output logic [Chunks*16-1:0]         oob_o,
  output logic [3:0]                   chunks_o,     // valid pieces, 1..Chunks
  output logic                         row_end_o     // this beat holds the row's last piece
);


  localparam int unsigned GLow = 10;  // a piece lies less than 1024 bytes past its beat's unit

  logic [7:0] piece_q;   // first piece of the beat
  tma_pkg::gaddr_t     unit_q;    // global address of the unit holding that piece
  tma_pkg::saddr_t     smem_q;    // unswizzled shared-memory address of that piece

  logic [8:0] pieces_left;
  assign pieces_left = 9'(fmt_i.row_beats) - 9'(piece_q);
  assign row_end_o   = pieces_left <= 9'(Chunks);
  assign chunks_o    = row_end_o ? 4'(pieces_left) : 4'(Chunks);

  // The unit address moves by the unit step once per unit; a 32-byte unit spans two pieces.
  logic [11:0] unit_advance;
  if (Chunks == 1) begin : g_advance_narrow
    assign unit_advance = fmt_i.unit_2p && !piece_q[0] ? '0 : 12'(fmt_i.unit_step);
  end else begin : g_advance_wide
    assign unit_advance = fmt_i.unit_2p ? 12'(fmt_i.unit_step) << ($clog2(Chunks) - 1)
                                        : 12'(fmt_i.unit_step) << $clog2(Chunks);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      piece_q <= '0;
      unit_q  <= '0;
      smem_q  <= '0;
    end else if (load_i) begin
      piece_q <= '0;
      unit_q  <= row_gaddr_i;
      smem_q  <= row_smem_i;
    end else if (advance_i) begin
      piece_q <= piece_q + 8'(Chunks);
      unit_q  <= unit_q + tma_pkg::GAddrWidth'(unit_advance);
      smem_q  <= smem_q + tma_pkg::SAddrWidth'(16 * Chunks);
    end
  end

  // In-bound bytes of the row, [win_lo, win_hi), as a piece index and a byte inside it.
  logic [7:0]  lo_piece, hi_piece;
  logic [15:0] lo_bytes, hi_bytes;  // bytes of the edge piece inside the window
  assign lo_piece = fmt_i.win_lo[11:4];
  assign hi_piece = fmt_i.win_hi[11:4];
  assign lo_bytes = 16'hffff << fmt_i.win_lo[3:0];
  assign hi_bytes = ~(16'hffff << fmt_i.win_hi[3:0]);

  // Carry-select: the pieces share one increment of the address bits above their offsets.
  logic [tma_pkg::GAddrWidth-GLow-1:0] unit_high_inc;
  logic [tma_pkg::SAddrWidth-8:0]      smem_high_inc;
  assign unit_high_inc = unit_q[tma_pkg::GAddrWidth-1:GLow] + 1'b1;
  assign smem_high_inc = smem_q[tma_pkg::SAddrWidth-1:7] + 1'b1;

  for (genvar j = 0; j < Chunks; j++) begin : g_piece
    logic [7:0]  piece;
    logic [9:0]  offset;      // global bytes from the beat's unit to this piece
    logic [GLow:0] g_low;
    logic [7:0]  s_low;
    tma_pkg::saddr_t      smem_unswizzled;
    logic [15:0] inb;

    assign piece = piece_q + 8'(j);
    if (Chunks == 1) begin : g_offset_narrow
      assign offset = {5'd0, fmt_i.unit_2p && piece_q[0], 4'd0};
    end else begin : g_offset_wide
      assign offset = fmt_i.unit_2p ? 10'(j / 2) * 10'(fmt_i.unit_step) + 10'(16 * (j % 2))
                                    : 10'(j) * 10'(fmt_i.unit_step);
    end
    assign g_low = {1'b0, unit_q[GLow-1:0]} + (GLow + 1)'(offset);
    assign gaddr_o[j * tma_pkg::GAddrWidth +: tma_pkg::GAddrWidth] =
        {g_low[GLow] ? unit_high_inc : unit_q[tma_pkg::GAddrWidth-1:GLow], g_low[GLow-1:0]};

    assign s_low = {1'b0, smem_q[6:0]} + 8'(16 * j);
    assign smem_unswizzled = {s_low[7] ? smem_high_inc : smem_q[tma_pkg::SAddrWidth-1:7], s_low[6:0]};
    tma_swizzle #(.AddrWidth(tma_pkg::SAddrWidth)) u_swizzle (
      .clk_i, .rst_ni, .mode_i(fmt_i.swizzle), .addr_i(smem_unswizzled),
      .addr_o(smem_addr_o[j * tma_pkg::SAddrWidth +: tma_pkg::SAddrWidth])
    );

    always_comb begin
      inb = row_inb_i ? 16'hffff : 16'h0000;
      if (piece < lo_piece) inb = '0;
      else if (piece == lo_piece) inb &= lo_bytes;
      if (piece > hi_piece) inb = '0;
      else if (piece == hi_piece) inb &= hi_bytes;
    end
    assign oob_o[16 * j +: 16] = ~inb;
  end

endmodule
