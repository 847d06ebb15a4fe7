// tma_agu_im2col: the TMA box address generator for im2col tensor maps, rank 3-5:
// pixelsPerColumn pixels, each a run of channelsPerPixel channels (or, for interleaved layouts,
// one 16/32-byte unit: the driver maps the walked dimensions and the held one, see tma_pkg).
//
// Pixels walk W, then H, then D inside the bounding box [lower, dim-1+upper] of each spatial
// dimension, stepping by the traversal strides and wrapping to the lower corner; past the
// last spatial dimension the image index advances by its own traversal stride. Each pixel is
// read at its position plus the im2col offsets. Beats carry the swizzled shared-memory address
// (pixel p's row at p * row pitch), the global address of the piece's first byte, a per-byte
// out-of-bound mask, and `last` on the final beat.
//
// Microarchitecture: set-up (tma_agu_im2col_setup) turns the command into addresses and narrow
// numbers; the pixel walker keeps per walk dimension a step counter and a first-sweep flag and
// compares them with the sweep lengths and in-bound windows set-up computed (11-bit compares);
// the row addresses come from the row-pointer stack (tma_agu_row_stack) and the beats from the
// beat stage (tma_agu_beats), both shared with the tiled generator tma_agu.
//
// Latency: the first beat is valid the cycle after set-up ends (about 100 cycles) and the
// previous box's last beat has gone. Throughput: one beat per cycle while beat_ready_i is high
// (16 bytes, or up to 128 with Chunks = 8), no bubble between pixels; beats depend on
// registered state only, so back-pressure never loses or repeats one.
module tma_agu_im2col #(
  parameter int unsigned AddrWidth     = tma_pkg::GAddrWidth,  // fixed by tma_pkg
  parameter int unsigned SmemAddrWidth = tma_pkg::SAddrWidth,
  parameter int unsigned Chunks        = 1                     // 16-byte pieces per beat: 1 or 8
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
  input  logic signed [33:0]       hi0_i, hi1_i, hi2_i,
  input  logic [3:0]               ses0_i, ses1_i, ses2_i, nes_i,  // traversal strides
  input  logic [15:0]              off0_i, off1_i, off2_i,      // im2col offsets
  input  logic signed [31:0]       c0_i,                         // first channel
  input  logic signed [31:0]       p0_i, p1_i, p2_i,            // starting pixel position
  input  logic signed [31:0]       n_i,                          // starting image
  input  logic signed [31:0]       hc_i,            // held dimension (interleaved layouts): coordinate,
  input  logic [32:0]              hdim_i,          //   globalDim,
  input  logic [39:0]              hstride_i,       //   stride; 0, 1, 0 when there is none
  output logic                     beat_valid_o,
  input  logic                     beat_ready_i,
  output logic [Chunks*SmemAddrWidth-1:0] beat_smem_addr_o,
  output logic [Chunks*AddrWidth-1:0]     beat_gaddr_o,
  output logic [Chunks*16-1:0]            beat_oob_o,
  output logic [3:0]                      beat_chunks_o,
  output logic                            beat_last_o
);

  if (AddrWidth != tma_pkg::GAddrWidth || SmemAddrWidth != tma_pkg::SAddrWidth) begin : g_width_check
    $error("tma_agu_im2col: AddrWidth and SmemAddrWidth are fixed by tma_pkg");
  end

  tma_pkg::im2col_cmd_t cmd;
  always_comb begin
    cmd.rank      = rank_i;
    cmd.elem_log2 = elem_log2_i;
    cmd.swizzle   = swizzle_i;
    cmd.gbase     = gbase_i;
    cmd.smem_base = smem_base_i;
    cmd.row_pitch = row_pitch_i;
    cmd.row_beats = row_beats_i;
    cmd.pixels    = pixels_i;
    cmd.dim0      = dim0_i;
    cmd.sdim      = {sdim2_i, sdim1_i, sdim0_i};
    cmd.ndim      = ndim_i;
    cmd.sstride   = {sstride2_i, sstride1_i, sstride0_i};
    cmd.nstride   = nstride_i;
    cmd.lo        = {lo2_i, lo1_i, lo0_i};
    cmd.hi        = {hi2_i, hi1_i, hi0_i};
    cmd.ses       = {ses2_i, ses1_i, ses0_i};
    cmd.nes       = nes_i;
    cmd.off       = {off2_i, off1_i, off0_i};
    cmd.c0        = c0_i;
    cmd.p         = {p2_i, p1_i, p0_i};
    cmd.n         = n_i;
    cmd.hc        = hc_i;
    cmd.hdim      = hdim_i;
    cmd.hstride   = hstride_i;
  end

  logic                  walk_valid, walk_take;
  tma_pkg::im2col_walk_t walk;
  tma_agu_im2col_setup u_setup (
    .clk_i, .rst_ni, .cmd_valid_i, .cmd_ready_o, .cmd_i(cmd),
    .walk_valid_o(walk_valid), .walk_ready_i(walk_take), .walk_o(walk)
  );

  // ---- pixel walker: walk dimensions 0..ns-1 are spatial, ns is the image index
  localparam int unsigned Dims = 4;
  logic                  busy_q;
  tma_pkg::im2col_walk_t walk_q;
  logic [10:0]           count_q [Dims];   // steps taken in the dimension's current sweep
  logic [2:0]            first_sweep_q;    // spatial dimension i has not wrapped yet
  logic [10:0]           pixel_q;
  logic                  unused_walk_fields;  // the row stack takes these
  assign unused_walk_fields = ^{walk_q.start, walk_q.first, walk_q.smem_base};

  logic advance, row_end;
  assign beat_valid_o = busy_q;
  assign advance      = busy_q && beat_ready_i;

  logic [Dims-1:0] at_last;
  logic            pixel_inb;
  always_comb begin
    pixel_inb = !walk_q.held_outside;
    for (int k = 0; k < Dims; k++) begin
      at_last[k] = 1'b0;
      if (k < 3 && 2'(k) < walk_q.ns) begin
        at_last[k] = count_q[k] == (first_sweep_q[k] ? walk_q.sweep_first[k] : walk_q.sweep_rest[k]);
        if (first_sweep_q[k]) begin
          if (count_q[k] < walk_q.lo_first[k] || count_q[k] >= walk_q.hi_first[k]) pixel_inb = 1'b0;
        end else begin
          if (count_q[k] < walk_q.lo_rest[k] || count_q[k] >= walk_q.hi_rest[k]) pixel_inb = 1'b0;
        end
      end else if (2'(k) == walk_q.ns) begin
        if (count_q[k] < walk_q.n_lo || count_q[k] >= walk_q.n_hi) pixel_inb = 1'b0;
      end
    end
  end
  assign beat_last_o = row_end && pixel_q == walk_q.pixels - 11'd1;
  assign walk_take   = walk_valid && (!busy_q || (advance && beat_last_o));

  // The lowest walk dimension not at the end of its sweep advances (the image index never ends).
  logic [1:0] adv_dim;
  always_comb begin
    adv_dim = walk_q.ns;
    for (int k = Dims - 1; k >= 0; k--) if (2'(k) < walk_q.ns && !at_last[k]) adv_dim = 2'(k);
  end

  logic            row_load, row_next;
  tma_pkg::gaddr_t row_gaddr;
  tma_pkg::saddr_t row_smem;
  assign row_next = advance && row_end && !beat_last_o;
  assign row_load = walk_take || row_next;
  tma_agu_row_stack u_rows (
    .clk_i, .rst_ni, .box_i(walk_take), .start_i(walk.start), .first1_i(walk.first[0]),
    .first2_i(walk.first[1]), .first3_i(walk.first[2]), .smem_base_i(walk.smem_base), .row_i(row_next),
    .adv_dim_i(adv_dim), .step0_i(walk_q.step[0]), .step1_i(walk_q.step[1]), .step2_i(walk_q.step[2]),
    .step3_i(walk_q.step[3]), .row_pitch_i(walk_q.row_pitch), .load_gaddr_o(row_gaddr), .load_smem_o(row_smem)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q        <= 1'b0;
      walk_q        <= '0;
      first_sweep_q <= '0;
      pixel_q       <= '0;
      for (int k = 0; k < Dims; k++) count_q[k] <= '0;
    end else if (walk_take) begin
      busy_q        <= 1'b1;
      walk_q        <= walk;
      first_sweep_q <= '1;
      pixel_q       <= '0;
      for (int k = 0; k < Dims; k++) count_q[k] <= '0;
    end else if (advance && beat_last_o) begin
      busy_q <= 1'b0;
    end else if (row_next) begin
      pixel_q <= pixel_q + 11'd1;
      for (int k = 0; k < Dims; k++) begin
        if (2'(k) < adv_dim) count_q[k] <= '0;  // wrapped: a later sweep starts at the lower corner
        else if (2'(k) == adv_dim) count_q[k] <= count_q[k] + 11'd1;
      end
      for (int k = 0; k < 3; k++) if (2'(k) < adv_dim) first_sweep_q[k] <= 1'b0;
    end
  end

  tma_agu_beats #(.Chunks(Chunks)) u_beats (
    .clk_i, .rst_ni, .fmt_i(walk_q.fmt), .load_i(row_load), .row_gaddr_i(row_gaddr), .row_smem_i(row_smem),
    .advance_i(advance && !row_end), .row_inb_i(pixel_inb),
    .smem_addr_o(beat_smem_addr_o), .gaddr_o(beat_gaddr_o), .oob_o(beat_oob_o), .chunks_o(beat_chunks_o),
    .row_end_o(row_end)
  );

  // A beat never changes while it waits for ready.
  tma_agu_hold_check #(.Width(Chunks * (tma_pkg::GAddrWidth + tma_pkg::SAddrWidth + 16) + 5)) u_hold (
    .clk_i, .rst_ni, .valid_i(beat_valid_o), .ready_i(beat_ready_i),
    .data_i({beat_gaddr_o, beat_smem_addr_o, beat_oob_o, beat_chunks_o, beat_last_o})
  );

endmodule
