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
// Latency: the first beat is valid the cycle after the command is accepted. Throughput: one
// beat per cycle while beat_ready_i is high: 16 bytes, or up to 128 with Chunks = 8 (a beat
// never spans two rows; beat_chunks_o says how many pieces it holds). The beat is a function of registered state only,
// so it holds still under back-pressure: no beat is lost or repeated.
module tma_agu #(
  parameter int unsigned AddrWidth     = 48,
  parameter int unsigned SmemAddrWidth = 18,
  parameter int unsigned Chunks        = 1    // 16-byte pieces per beat: 1, or 8 for 128 bytes/cycle
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  // command (decoded tensor map and coordinates)
  input  logic                     cmd_valid_i,
  output logic                     cmd_ready_o,
  input  logic [2:0]               rank_i,        // 1..5
  input  logic [2:0]               elem_log2_i,   // unit bytes: 1, 2, 4, 8, or 16, 32 (interleave)
  input  logic [3:0]               es0_i,         // units stepped in dimension 0 (interleave; else 1)
  input  logic [2:0]               swizzle_i,     // a tma_pkg::swizzle_e value
  input  logic [AddrWidth-1:0]     gbase_i,       // globalAddress
  input  logic [SmemAddrWidth-1:0] smem_base_i,   // destination, 128-byte aligned
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

  localparam int unsigned NumOuter = 4;

  // ---- command registers
  logic                      busy_q, busy_d;
  logic [2:0]                rank_q;
  logic [2:0]                elem_log2_q;
  logic [3:0]                es0_q;
  logic [2:0]                swizzle_q;
  logic [AddrWidth-1:0]      gbase_q;
  logic [SmemAddrWidth-1:0]  smem_base_q;
  logic [11:0]               row_pitch_q;
  logic [7:0]                row_beats_q;
  logic signed [33:0]        dim_q [5];
  logic signed [40:0]        stride_q [NumOuter];
  logic [8:0]                ext_q [NumOuter];
  logic [3:0]                es_q [NumOuter];
  logic signed [31:0]        c0_q;
  logic signed [31:0]        cstart_q [NumOuter];

  // ---- iteration state: beat in row, row index per outer dimension, running row coordinate,
  // byte offset of the row in global memory and of the row in shared memory
  logic [7:0]                beat_q, beat_d;
  logic [8:0]                idx_q [NumOuter];
  logic [8:0]                idx_d [NumOuter];
  logic signed [34:0]        coord_q [NumOuter];
  logic signed [34:0]        coord_d [NumOuter];
  logic signed [63:0]        goff_q, goff_d;
  logic [SmemAddrWidth-1:0]  srow_q, srow_d;

  assign cmd_ready_o  = !busy_q;
  assign beat_valid_o = busy_q;

  // ---- the current beat (from registered state only): pieces beat_q .. beat_q+Chunks-1 of the row
  logic row_in_bounds;
  always_comb begin
    row_in_bounds = 1'b1;
    for (int d = 0; d < NumOuter; d++) begin
      if (d + 1 < rank_q) begin
        if (coord_q[d] < 0 || coord_q[d] >= 35'(dim_q[d + 1])) row_in_bounds = 1'b0;
      end
    end
  end

  logic [8:0] pieces_left;
  assign pieces_left   = 9'(row_beats_q) - 9'(beat_q);
  assign beat_chunks_o = pieces_left >= 9'(Chunks) ? 4'(Chunks) : 4'(pieces_left);

  logic unit_mode;  // interleave units (16 or 32 bytes): a piece is (part of) one unit
  assign unit_mode = elem_log2_q >= 3'd4;
  logic [4:0] elems_per_beat;
  assign elems_per_beat = elem_log2_q >= 3'd4 ? 5'd1 : 5'(16 >> elem_log2_q);

  for (genvar j = 0; j < Chunks; j++) begin : g_piece
    logic [7:0]         piece;
    logic [7:0]         unit_idx, unit_sub;
    logic signed [35:0] unit_coord, first_elem;
    logic signed [63:0] gaddr_full;
    logic [SmemAddrWidth-1:0] smem_unswizzled;
    assign piece      = beat_q + 8'(j);
    assign unit_idx   = elem_log2_q == 3'd5 ? (piece >> 1) : piece;
    assign unit_sub   = elem_log2_q == 3'd5 ? {7'd0, piece[0]} : 8'd0;
    assign unit_coord = 36'(c0_q) + 36'(unit_idx) * 36'(es0_q);
    assign first_elem = 36'(c0_q) + 36'(piece) * 36'(elems_per_beat);
    always_comb begin
      for (int b = 0; b < 16; b++) begin
        logic signed [35:0] e;
        e = unit_mode ? unit_coord : first_elem + (36'(b) >> elem_log2_q);
        beat_oob_o[16 * j + b] = !row_in_bounds || e < 0 || e >= 36'(dim_q[0]);
      end
    end
    assign gaddr_full = unit_mode
        ? 64'(gbase_q) + goff_q + (64'(unit_coord) <<< elem_log2_q) + 64'(unit_sub) * 64'd16
        : 64'(gbase_q) + (64'(c0_q) <<< elem_log2_q) + goff_q + 64'(piece) * 64'd16;
    assign beat_gaddr_o[j * AddrWidth +: AddrWidth] = gaddr_full[AddrWidth-1:0];
    logic unused_gaddr_high;
    assign unused_gaddr_high = ^gaddr_full[63:AddrWidth];
    assign smem_unswizzled = smem_base_q + srow_q + SmemAddrWidth'(piece) * SmemAddrWidth'(16);
    tma_swizzle #(.AddrWidth(SmemAddrWidth)) u_swizzle (
      .clk_i (clk_i),
      .rst_ni(rst_ni),
      .mode_i(swizzle_q),
      .addr_i(smem_unswizzled),
      .addr_o(beat_smem_addr_o[j * SmemAddrWidth +: SmemAddrWidth])
    );
  end

  // ---- the box ends after the last beat of the last row of every outer dimension
  logic [NumOuter-1:0] dim_done;  // the row index of dimension d is at its last value
  always_comb begin
    for (int d = 0; d < NumOuter; d++) dim_done[d] = (d + 1 >= rank_q) || (idx_q[d] == ext_q[d] - 9'd1);
  end
  logic row_end;  // this beat holds the row's last piece
  assign row_end     = pieces_left <= 9'(Chunks);
  assign beat_last_o = row_end && (&dim_done);

  // ---- next state: advance by one beat on a handshake
  logic carry;
  always_comb begin
    carry  = 1'b0;
    busy_d = busy_q;
    beat_d = beat_q;
    for (int d = 0; d < NumOuter; d++) begin
      idx_d[d]   = idx_q[d];
      coord_d[d] = coord_q[d];
    end
    goff_d = goff_q;
    srow_d = srow_q;
    if (busy_q && beat_ready_i) begin
      if (beat_last_o) begin
        busy_d = 1'b0;
      end else if (!row_end) begin
        beat_d = beat_q + 8'(Chunks);
      end else begin
        beat_d = '0;
        srow_d = srow_q + SmemAddrWidth'(row_pitch_q);
        carry = 1'b1;
        for (int d = 0; d < NumOuter; d++) begin
          if (carry && (d + 1 < rank_q)) begin
            if (idx_q[d] == ext_q[d] - 9'd1) begin  // wrap this dimension, carry on
              idx_d[d]   = '0;
              coord_d[d] = 35'(cstart_q[d]);
              goff_d     = goff_d - 64'(idx_q[d]) * 64'(es_q[d]) * 64'(stride_q[d]);
            end else begin
              idx_d[d]   = idx_q[d] + 9'd1;
              coord_d[d] = coord_q[d] + 35'(es_q[d]);
              goff_d     = goff_d + 64'(es_q[d]) * 64'(stride_q[d]);
              carry      = 1'b0;
            end
          end
        end
      end
    end
  end

  // ---- registers
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      beat_q      <= '0;
      goff_q      <= '0;
      srow_q      <= '0;
      rank_q      <= 3'd1;
      elem_log2_q <= '0;
      es0_q       <= 4'd1;
      swizzle_q   <= '0;
      gbase_q     <= '0;
      smem_base_q <= '0;
      row_pitch_q <= '0;
      row_beats_q <= 8'd1;
      c0_q        <= '0;
      for (int d = 0; d < 5; d++) dim_q[d] <= '0;
      for (int d = 0; d < NumOuter; d++) begin
        stride_q[d] <= '0;
        ext_q[d]    <= 9'd1;
        es_q[d]     <= 4'd1;
        cstart_q[d] <= '0;
        idx_q[d]    <= '0;
        coord_q[d]  <= '0;
      end
    end else if (cmd_valid_i && cmd_ready_o) begin
      busy_q      <= 1'b1;
      beat_q      <= '0;
      srow_q      <= '0;
      rank_q      <= rank_i;
      elem_log2_q <= elem_log2_i;
      es0_q       <= es0_i;
      swizzle_q   <= swizzle_i;
      gbase_q     <= gbase_i;
      smem_base_q <= smem_base_i;
      row_pitch_q <= row_pitch_i;
      row_beats_q <= row_beats_i;
      c0_q        <= c0_i;
      dim_q[0] <= 34'(dim0_i);
      dim_q[1] <= 34'(dim1_i);
      dim_q[2] <= 34'(dim2_i);
      dim_q[3] <= 34'(dim3_i);
      dim_q[4] <= 34'(dim4_i);
      stride_q[0] <= 41'(stride1_i);
      stride_q[1] <= 41'(stride2_i);
      stride_q[2] <= 41'(stride3_i);
      stride_q[3] <= 41'(stride4_i);
      ext_q[0] <= ext1_i;
      ext_q[1] <= ext2_i;
      ext_q[2] <= ext3_i;
      ext_q[3] <= ext4_i;
      es_q[0] <= es1_i;
      es_q[1] <= es2_i;
      es_q[2] <= es3_i;
      es_q[3] <= es4_i;
      cstart_q[0] <= c1_i;
      cstart_q[1] <= c2_i;
      cstart_q[2] <= c3_i;
      cstart_q[3] <= c4_i;
      coord_q[0] <= 35'(c1_i);
      coord_q[1] <= 35'(c2_i);
      coord_q[2] <= 35'(c3_i);
      coord_q[3] <= 35'(c4_i);
      for (int d = 0; d < NumOuter; d++) idx_q[d] <= '0;
      // Starting row offset: sum of c_d * stride_d over the outer dimensions in use.
      goff_q <= ((rank_i > 3'd1) ? 64'(c1_i) * 64'(stride1_i) : 64'd0) +
                ((rank_i > 3'd2) ? 64'(c2_i) * 64'(stride2_i) : 64'd0) +
                ((rank_i > 3'd3) ? 64'(c3_i) * 64'(stride3_i) : 64'd0) +
                ((rank_i > 3'd4) ? 64'(c4_i) * 64'(stride4_i) : 64'd0);
    end else begin
      busy_q <= busy_d;
      beat_q <= beat_d;
      goff_q <= goff_d;
      srow_q <= srow_d;
      for (int d = 0; d < NumOuter; d++) begin
        idx_q[d]   <= idx_d[d];
        coord_q[d] <= coord_d[d];
      end
    end
  end

  // A beat never changes while it waits for ready.
  logic                     was_stalled_q;
  logic [AddrWidth-1:0]     held_gaddr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      was_stalled_q <= 1'b0;
      held_gaddr_q  <= '0;
    end else begin
      was_stalled_q <= beat_valid_o && !beat_ready_i;
      held_gaddr_q  <= beat_gaddr_o[AddrWidth-1:0];
    end
  end
  always_comb begin
    if (was_stalled_q) assert (beat_valid_o && beat_gaddr_o[AddrWidth-1:0] == held_gaddr_q);
  end

endmodule
