// tma_agu_im2col: the TMA box address generator for im2col tensor maps (interleave none),
// rank 3-5: pixelsPerColumn pixels, each a run of channelsPerPixel channels.
//
// Pixels walk W, then H, then D inside the bounding box [lower, dim-1+upper] of each spatial
// dimension, stepping by the traversal strides and wrapping to the lower corner; past the
// last spatial dimension the image index advances by its own traversal stride. Each pixel is
// read at its position plus the im2col offsets. Beats are 16 bytes: the swizzled shared-memory
// address (pixel p's row at p * row pitch), the global address of the beat's first byte, a
// per-byte out-of-bound mask, and `last` on the final beat.
//
// Latency: first beat the cycle after the command handshake. Throughput: one beat per cycle
// while beat_ready_i is high; beats depend on registered state only, so back-pressure never
// loses or repeats one.
module tma_agu_im2col #(
  parameter int unsigned AddrWidth     = 48,
  parameter int unsigned SmemAddrWidth = 18
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic                     cmd_valid_i,
  output logic                     cmd_ready_o,
  input  logic [2:0]               rank_i,          // 3..5
  input  logic [1:0]               elem_log2_i,
  input  logic [2:0]               swizzle_i,
  input  logic [AddrWidth-1:0]     gbase_i,
  input  logic [SmemAddrWidth-1:0] smem_base_i,
  input  logic [11:0]              row_pitch_i,     // bytes between pixels in shared memory
  input  logic [7:0]               row_beats_i,     // beats per pixel: channels * bytes / 16
  input  logic [10:0]              pixels_i,        // pixelsPerColumn (1..1024)
  input  logic [32:0]              dim0_i,          // channels
  input  logic [32:0]              sdim0_i, sdim1_i, sdim2_i,   // spatial dims W, H, D
  input  logic [32:0]              ndim_i,          // images
  input  logic [39:0]              sstride0_i, sstride1_i, sstride2_i, nstride_i,  // bytes
  input  logic signed [31:0]       lo0_i, lo1_i, lo2_i,         // bounding box, per spatial dim
  input  logic signed [31:0]       hi0_i, hi1_i, hi2_i,
  input  logic [3:0]               ses0_i, ses1_i, ses2_i, nes_i,  // traversal strides
  input  logic [15:0]              off0_i, off1_i, off2_i,      // im2col offsets
  input  logic signed [31:0]       c0_i,                         // first channel
  input  logic signed [31:0]       p0_i, p1_i, p2_i,            // starting pixel position
  input  logic signed [31:0]       n_i,                          // starting image
  output logic                     beat_valid_o,
  input  logic                     beat_ready_i,
  output logic [SmemAddrWidth-1:0] beat_smem_addr_o,
  output logic [AddrWidth-1:0]     beat_gaddr_o,
  output logic [15:0]              beat_oob_o,
  output logic                     beat_last_o
);

  localparam int unsigned NumSpatial = 3;

  logic                      busy_q;
  logic [2:0]                rank_q;
  logic [1:0]                elem_log2_q;
  logic [2:0]                swizzle_q;
  logic [AddrWidth-1:0]      gbase_q;
  logic [SmemAddrWidth-1:0]  smem_base_q;
  logic [11:0]               row_pitch_q;
  logic [7:0]                row_beats_q;
  logic [10:0]               pixels_q;
  logic signed [33:0]        dim0_q, ndim_q;
  logic signed [33:0]        sdim_q [NumSpatial];
  logic signed [40:0]        sstride_q [NumSpatial];
  logic signed [40:0]        nstride_q;
  logic signed [31:0]        lo_q [NumSpatial];
  logic signed [31:0]        hi_q [NumSpatial];
  logic [3:0]                ses_q [NumSpatial];
  logic [3:0]                nes_q;
  logic [15:0]               off_q [NumSpatial];
  logic signed [31:0]        c0_q;

  logic [7:0]                beat_q;
  logic [10:0]               pixel_q;
  logic signed [35:0]        pos_q [NumSpatial];
  logic signed [35:0]        n_q;
  logic [SmemAddrWidth-1:0]  srow_q;

  assign cmd_ready_o  = !busy_q;
  assign beat_valid_o = busy_q;

  logic [1:0] spatial;  // spatial dimensions in use: rank - 2
  assign spatial = 2'(rank_q - 3'd2);

  // ---- the current beat
  logic signed [36:0] read_pos [NumSpatial];
  logic pixel_in_bounds;
  logic signed [63:0] pixel_goff;
  always_comb begin
    pixel_in_bounds = (n_q >= 0) && (n_q < 36'(ndim_q));
    pixel_goff = 64'(n_q) * 64'(nstride_q);
    for (int i = 0; i < NumSpatial; i++) begin
      read_pos[i] = 37'(pos_q[i]) + 37'(off_q[i]);
      if (2'(i) < spatial) begin
        if (read_pos[i] < 0 || read_pos[i] >= 37'(sdim_q[i])) pixel_in_bounds = 1'b0;
        pixel_goff = pixel_goff + 64'(read_pos[i]) * 64'(sstride_q[i]);
      end
    end
  end

  // Unsigned: a cast of the (signed) constant 16 to 5 bits would read as -16.
  logic [4:0] elems_per_beat;
  logic signed [35:0] first_elem;
  assign elems_per_beat = 5'(16 >> elem_log2_q);
  assign first_elem = 36'(c0_q) + 36'(beat_q) * 36'(elems_per_beat);
  always_comb begin
    beat_oob_o = '0;
    for (int b = 0; b < 16; b++) begin
      logic signed [35:0] e;
      e = first_elem + (36'(b) >> elem_log2_q);
      if (!pixel_in_bounds || e < 0 || e >= 36'(dim0_q)) beat_oob_o[b] = 1'b1;
    end
  end

  logic signed [63:0] gaddr_full;
  assign gaddr_full   = 64'(gbase_q) + (64'(c0_q) <<< elem_log2_q) + pixel_goff + 64'(beat_q) * 64'd16;
  assign beat_gaddr_o = gaddr_full[AddrWidth-1:0];
  logic unused_gaddr_high;
  assign unused_gaddr_high = ^gaddr_full[63:AddrWidth];

  tma_swizzle #(.AddrWidth(SmemAddrWidth)) u_swizzle (
    .clk_i (clk_i),
    .rst_ni(rst_ni),
    .mode_i(swizzle_q),
    .addr_i(smem_base_q + srow_q + SmemAddrWidth'(beat_q) * SmemAddrWidth'(16)),
    .addr_o(beat_smem_addr_o)
  );

  assign beat_last_o = (beat_q == row_beats_q - 8'd1) && (pixel_q == pixels_q - 11'd1);

  // ---- next pixel position: step W; past its upper bound wrap to the lower corner and carry
  logic signed [35:0] pos_next [NumSpatial];
  logic signed [35:0] n_next;
  logic carry;
  always_comb begin
    carry = 1'b1;
    n_next = n_q;
    for (int i = 0; i < NumSpatial; i++) begin
      pos_next[i] = pos_q[i];
      if (carry && 2'(i) < spatial) begin
        // The stride must be signed here: an unsigned operand would make the comparison
        // unsigned, and a negative position would look past the upper corner.
        if (pos_q[i] + $signed({32'd0, ses_q[i]}) <= 36'(hi_q[i])) begin
          pos_next[i] = pos_q[i] + $signed({32'd0, ses_q[i]});
          carry = 1'b0;
        end else begin
          pos_next[i] = 36'(lo_q[i]);
        end
      end
    end
    if (carry) n_next = n_q + $signed({32'd0, nes_q});
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q      <= 1'b0;
      rank_q      <= 3'd3;
      elem_log2_q <= '0;
      swizzle_q   <= '0;
      gbase_q     <= '0;
      smem_base_q <= '0;
      row_pitch_q <= '0;
      row_beats_q <= 8'd1;
      pixels_q    <= 11'd1;
      dim0_q      <= '0;
      ndim_q      <= '0;
      nstride_q   <= '0;
      nes_q       <= 4'd1;
      c0_q        <= '0;
      beat_q      <= '0;
      pixel_q     <= '0;
      n_q         <= '0;
      srow_q      <= '0;
      for (int i = 0; i < NumSpatial; i++) begin
        sdim_q[i]    <= '0;
        sstride_q[i] <= '0;
        lo_q[i]      <= '0;
        hi_q[i]      <= '0;
        ses_q[i]     <= 4'd1;
        off_q[i]     <= '0;
        pos_q[i]     <= '0;
      end
    end else if (cmd_valid_i && cmd_ready_o) begin
      busy_q      <= 1'b1;
      rank_q      <= rank_i;
      elem_log2_q <= elem_log2_i;
      swizzle_q   <= swizzle_i;
      gbase_q     <= gbase_i;
      smem_base_q <= smem_base_i;
      row_pitch_q <= row_pitch_i;
      row_beats_q <= row_beats_i;
      pixels_q    <= pixels_i;
      dim0_q      <= 34'(dim0_i);
      ndim_q      <= 34'(ndim_i);
      nstride_q   <= 41'(nstride_i);
      nes_q       <= nes_i;
      c0_q        <= c0_i;
      beat_q      <= '0;
      pixel_q     <= '0;
      n_q         <= 36'(n_i);
      srow_q      <= '0;
      sdim_q[0] <= 34'(sdim0_i);
      sdim_q[1] <= 34'(sdim1_i);
      sdim_q[2] <= 34'(sdim2_i);
      sstride_q[0] <= 41'(sstride0_i);
      sstride_q[1] <= 41'(sstride1_i);
      sstride_q[2] <= 41'(sstride2_i);
      lo_q[0] <= lo0_i;
      lo_q[1] <= lo1_i;
      lo_q[2] <= lo2_i;
      hi_q[0] <= hi0_i;
      hi_q[1] <= hi1_i;
      hi_q[2] <= hi2_i;
      ses_q[0] <= ses0_i;
      ses_q[1] <= ses1_i;
      ses_q[2] <= ses2_i;
      off_q[0] <= off0_i;
      off_q[1] <= off1_i;
      off_q[2] <= off2_i;
      pos_q[0] <= 36'(p0_i);
      pos_q[1] <= 36'(p1_i);
      pos_q[2] <= 36'(p2_i);
    end else if (busy_q && beat_ready_i) begin
      if (beat_last_o) begin
        busy_q <= 1'b0;
      end else if (beat_q != row_beats_q - 8'd1) begin
        beat_q <= beat_q + 8'd1;
      end else begin
        beat_q  <= '0;
        pixel_q <= pixel_q + 11'd1;
        srow_q  <= srow_q + SmemAddrWidth'(row_pitch_q);
        n_q     <= n_next;
        for (int i = 0; i < NumSpatial; i++) pos_q[i] <= pos_next[i];
      end
    end
  end

endmodule
