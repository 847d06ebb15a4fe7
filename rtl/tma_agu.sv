// tma_agu: the TMA box address generator for tiled tensor maps, 1D-5D, with traversal
// (element) strides and boxes partly or wholly out of bounds. Dimension 0 moves in units of
// 2^unit_log2 bytes: an element (1-8 bytes, stride ignored), or for interleaved layouts a whole
// 16- or 32-byte group, stepping es0 units (the driver passes the box extent of the collapsed
// C/8 dimension as 1).
//
// For one command (a decoded tensor map plus the instruction's coordinates) it emits the box
// as 16-byte beats in the order the TMA writes shared memory: innermost row first, rows in
// dimension order. Each beat carries the swizzled shared-memory address, the global address of
// its first byte, and a per-byte out-of-bound mask (bytes to fill instead of read). The last
// beat of the box is flagged.
//
// Microarchitecture, the iDMA N-D way (no multiplier after set-up):
//   set-up (tma_agu_tiled_setup): start address, per-dimension steps and in-bound windows,
//     digit-serially, while the previous box is still being walked;
//   row walker (here): one index counter per outer dimension; the next row's address is the
//     current one plus the step of the dimension that advanced, or, when dimensions wrapped,
//     the saved first row of the dimension that advanced plus its step (a stack of row
//     pointers instead of a rewind multiply); a row is in bounds when every index lies in its
//     window (8-bit compares);
//   beat stage (tma_agu_beats): running global and shared-memory addresses, the swizzle, the
//     per-byte mask from the row's byte window.
//
// Latency: a command is taken when the set-up stage is free; its first beat is valid the cycle
// after set-up ends (13 cycles or more, see tma_agu_tiled_setup) and the previous box's last
// beat has gone. Throughput: one beat per cycle while beat_ready_i is high: 16 bytes, or up to
// 128 with Chunks = 8 (a beat never spans two rows; beat_chunks_o says how many pieces it
// holds), with no bubble between rows or between boxes whose set-up is done. The beat is a
// function of registered state only, so it holds still under back-pressure.
module tma_agu #(
  parameter int unsigned AddrWidth     = tma_pkg::GAddrWidth,  // fixed by tma_pkg
  parameter int unsigned SmemAddrWidth = tma_pkg::SAddrWidth,
  parameter int unsigned Chunks        = 1            // 16-byte pieces per beat: 1, or 8
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // command (decoded tensor map and coordinates), packed into a tiled_cmd_t
  input  logic                     cmd_valid_i,
  output logic                     cmd_ready_o,
  input  logic [2:0]               rank_i,        // 1..5
  input  logic [2:0]               elem_log2_i,   // unit bytes: 1, 2, 4, 8, or 16, 32 (interleave)
  input  logic [3:0]               es0_i,         // units stepped in dimension 0 (interleave; else 1)
  input  logic [2:0]               swizzle_i,     // a tma_pkg::swizzle_e value
  input  logic [AddrWidth-1:0]     gbase_i,       // globalAddress
  input  logic [SmemAddrWidth-1:0] smem_base_i,   // destination, 16-byte aligned
  input  logic [11:0]              row_pitch_i,   // bytes between rows in shared memory
  input  logic [7:0]               row_beats_i,   // 16-byte beats per row (1..128)
  input  logic [32:0]              dim0_i, dim1_i, dim2_i, dim3_i, dim4_i,
  input  logic [39:0]              stride1_i, stride2_i, stride3_i, stride4_i,  // bytes
  input  logic [8:0]               ext1_i, ext2_i, ext3_i, ext4_i,  // rows per dimension (1..256)
  input  logic [3:0]               es1_i, es2_i, es3_i, es4_i,       // element strides (1..8)
  input  logic signed [31:0]       c0_i, c1_i, c2_i, c3_i, c4_i,     // coordinates
  // beats
  output logic                     beat_valid_o,
  input  logic                     beat_ready_i,
  output logic [Chunks*SmemAddrWidth-1:0] beat_smem_addr_o,  // piece j at [j*SmemAddrWidth +: SmemAddrWidth]
  output logic [Chunks*AddrWidth-1:0]     beat_gaddr_o,      // piece j's first byte
  output logic [Chunks*16-1:0]            beat_oob_o,        // bit 16*j+b: byte b of piece j is out of bounds
  output logic [3:0]                      beat_chunks_o,     // valid pieces in this beat (1..Chunks)
  output logic                            beat_last_o
);


  if (AddrWidth != tma_pkg::GAddrWidth || SmemAddrWidth != tma_pkg::SAddrWidth) begin : g_width_check
    $error("tma_agu: AddrWidth and SmemAddrWidth are fixed by tma_pkg");
  end

  tma_pkg::tiled_cmd_t cmd;
  always_comb begin
    cmd.rank      = rank_i;
    cmd.elem_log2 = elem_log2_i;
    cmd.es0       = es0_i;
    cmd.swizzle   = swizzle_i;
    cmd.gbase     = gbase_i;
    cmd.smem_base = smem_base_i;
    cmd.row_pitch = row_pitch_i;
    cmd.row_beats = row_beats_i;
    cmd.stride    = {stride4_i, stride3_i, stride2_i, stride1_i};
    cmd.ext       = {ext4_i, ext3_i, ext2_i, ext1_i};
    cmd.es        = {es4_i, es3_i, es2_i, es1_i};
    cmd.dim       = {dim4_i, dim3_i, dim2_i, dim1_i, dim0_i};
    cmd.coord     = {c4_i, c3_i, c2_i, c1_i, c0_i};
  end

  // ---- set-up: the first of the two command slots
  logic  walk_valid, walk_take;
  tma_pkg::walk_t walk;
  tma_agu_tiled_setup u_setup (
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_i(cmd),
    .walk_valid_o(walk_valid), .walk_ready_i(walk_take), .walk_o(walk)
  );

  // ---- row walker: the second slot
  logic            busy_q;
  tma_pkg::walk_t  walk_q;                          // the box being walked (start, smem_base unused)
  logic [7:0]      idx_q [tma_pkg::NumOuter];       // row index per outer dimension
  logic            unused_walk_fields;              // the row stack takes these
  assign unused_walk_fields = ^{walk_q.start, walk_q.smem_base};

  logic advance, row_end;
  assign beat_valid_o = busy_q;
  assign advance      = busy_q && beat_ready_i;

  logic [tma_pkg::NumOuter-1:0] at_last;   // dimension d's index is at its last value
  logic                row_inb;
  always_comb begin
    row_inb = 1'b1;
    for (int d = 0; d < tma_pkg::NumOuter; d++) begin
      at_last[d] = idx_q[d] == walk_q.last[d];
      if (9'(idx_q[d]) < walk_q.idx_lo[d] || 9'(idx_q[d]) >= walk_q.idx_hi[d]) row_inb = 1'b0;
    end
  end
  assign beat_last_o = row_end && (&at_last);
  assign walk_take   = walk_valid && (!busy_q || (advance && beat_last_o));

  // The next row: the lowest dimension not at its last index advances, those below it restart.
  logic [1:0] adv_dim;
  always_comb begin
    adv_dim = 2'(tma_pkg::NumOuter - 1);
    for (int d = tma_pkg::NumOuter - 1; d >= 0; d--) if (!at_last[d]) adv_dim = 2'(d);
  end

  logic            row_load, row_next;
  tma_pkg::gaddr_t row_gaddr;
  tma_pkg::saddr_t row_smem;
  assign row_next = advance && row_end && !beat_last_o;
  assign row_load = walk_take || row_next;
  tma_agu_row_stack u_rows (
    .clk_i, .rst_ni, .box_i(walk_take), .start_i(walk.start), .first1_i(walk.start), .first2_i(walk.start),
    .first3_i(walk.start), .smem_base_i(walk.smem_base), .row_i(row_next), .adv_dim_i(adv_dim),
    .step0_i(walk_q.step[0]), .step1_i(walk_q.step[1]), .step2_i(walk_q.step[2]), .step3_i(walk_q.step[3]),
    .row_pitch_i(walk_q.row_pitch), .load_gaddr_o(row_gaddr), .load_smem_o(row_smem)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      walk_q <= '0;
      for (int d = 0; d < tma_pkg::NumOuter; d++) idx_q[d] <= '0;
    end else if (walk_take) begin
      busy_q <= 1'b1;
      walk_q <= walk;
      for (int d = 0; d < tma_pkg::NumOuter; d++) idx_q[d] <= '0;
    end else if (advance && beat_last_o) begin
      busy_q <= 1'b0;
    end else if (row_next) begin
      for (int d = 0; d < tma_pkg::NumOuter; d++) begin
        if (2'(d) < adv_dim) idx_q[d] <= '0;
        else if (2'(d) == adv_dim) idx_q[d] <= idx_q[d] + 8'd1;
      end
    end
  end

  tma_agu_beats #(.Chunks(Chunks)) u_beats (
    .clk_i, .rst_ni, .fmt_i(walk_q.fmt), .load_i(row_load), .row_gaddr_i(row_gaddr), .row_smem_i(row_smem),
    .advance_i(advance && !row_end), .row_inb_i(row_inb),
    .smem_addr_o(beat_smem_addr_o), .gaddr_o(beat_gaddr_o), .oob_o(beat_oob_o), .chunks_o(beat_chunks_o),
    .row_end_o(row_end)
  );

  // ---- assertions: a beat never changes while it waits for ready; the walk stays in its box
  tma_agu_hold_check #(.Width(Chunks * (tma_pkg::GAddrWidth + tma_pkg::SAddrWidth + 16) + 5)) u_hold (
    .clk_i, .rst_ni, .valid_i(beat_valid_o), .ready_i(beat_ready_i),
    .data_i({beat_gaddr_o, beat_smem_addr_o, beat_oob_o, beat_chunks_o, beat_last_o})
  );
  always_comb begin
    if (rst_ni && busy_q)
      for (int d = 0; d < tma_pkg::NumOuter; d++) assert (idx_q[d] <= walk_q.last[d]);
  end

endmodule
