// tma_agu_tiled_setup: the set-up stage of the tiled address generator. It turns one box
// command into a walk_t, so that the row walker and the beat stage need only adders and
// narrow compares:
//   start     = globalAddress + c0 * unit + sum over dimensions 1..rank-1 of c_d * stride_d
//   step_d    = elementStride_d * stride_d
//   [idx_lo_d, idx_hi_d) = the row indices i with 0 <= c_d + i * elementStride_d < dim_d
//   [win_lo, win_hi)      = the bytes of a row whose unit lies inside dimension 0
// The products come from one digit-serial multiplier (tma_agu_mac) feeding one adder; the
// windows from ten small serial dividers (tma_agu_ceil_div).
//
// The command is used where it stands: valid/ready obliges the source to hold it until it is
// taken, so the stage computes from the bus and takes the command (cmd_ready_o) only when the
// walk is complete, keeping just the few fields the walk copies. Phases: idle -> compute (from
// cmd_valid_i) -> take (one cycle, cmd_ready_o high) -> hold walk_valid_o until walk_ready_i.
//
// Latency: 14 cycles, or 3 + the multiplier's bits over its products when more (about 15 per
// outer dimension for coordinates below 4096). Throughput: one command at a time; a new one is
// started the cycle after the walk is taken, so with the walker (the second command slot) a
// box's set-up overlaps the previous box's beats.
module tma_agu_tiled_setup (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic                 cmd_valid_i,
  output logic                 cmd_ready_o,
  input  tma_pkg::tiled_cmd_t  cmd_i,
  output logic                 walk_valid_o,
  input  logic                 walk_ready_i,
  output tma_pkg::walk_t       walk_o
);

  localparam int unsigned NumDims = tma_pkg::NumOuter + 1;

  logic computing_q;  // working on the command on the bus
  logic holding_q;    // the walk is complete and the command taken
  logic start;        // a command appears while the stage is free
  assign start = cmd_valid_i && !computing_q && !holding_q;

  // ---- in-bound windows: ceil(-c_d / es_d) and ceil((dim_d - c_d) / es_d)
  function automatic logic [11:0] clip_row(input logic signed [34:0] v);
    if (v <= 0) clip_row = 12'd0;
    else if (v >= 35'(tma_pkg::RowBytes)) clip_row = 12'(tma_pkg::RowBytes);
    else clip_row = v[11:0];
  endfunction

  logic [11:0]        q_lo [NumDims];
  logic [11:0]        q_hi [NumDims];
  logic [NumDims-1:0] lo_done, hi_done;
  for (genvar d = 0; d < NumDims; d++) begin : g_window
    logic signed [34:0] c;
    logic [3:0]         divisor;
    assign c = 35'(signed'(cmd_i.coord[d]));
    if (d == 0) begin : g_dim0  // units of dimension 0 step es0 only when interleaved
      assign divisor = cmd_i.elem_log2 >= 3'd4 ? cmd_i.es0 : 4'd1;
    end else begin : g_outer
      assign divisor = 3'(d) < cmd_i.rank ? cmd_i.es[d-1] : 4'd1;
    end
    tma_agu_ceil_div u_lo (
      .clk_i, .rst_ni, .start_i(start), .x_i(clip_row(-c)), .d_i(divisor), .floor_i(1'b0), .q_o(q_lo[d]),
      .done_o(lo_done[d])
    );
    tma_agu_ceil_div u_hi (
      .clk_i, .rst_ni, .start_i(start), .x_i(clip_row(35'(cmd_i.dim[d]) - c)), .d_i(divisor), .floor_i(1'b0),
      .q_o(q_hi[d]), .done_o(hi_done[d])
    );
  end

  // ---- products: job 0 adds c0 * unit bytes, then per outer dimension d in use
  // c_d * stride_d (into the start address) and es_d * stride_d (into its step)
  logic [3:0]      job_q;       // 0, then 2d-1 and 2d for dimension d
  logic            launch_q;    // start the job this cycle
  logic            jobs_done_q;
  tma_pkg::gaddr_t acc_q;
  tma_pkg::gaddr_t step_q [tma_pkg::NumOuter];

  logic [2:0] job_dim;          // outer dimension of the job (1..4), 0 for job 0
  logic       job_is_step;
  assign job_dim     = 3'((job_q + 4'd1) >> 1);
  assign job_is_step = job_q != '0 && !job_q[0];

  tma_pkg::gaddr_t    mcand;
  logic signed [32:0] mult;
  always_comb begin
    mcand = tma_pkg::GAddrWidth'(signed'(cmd_i.coord[0]));
    mult  = 33'(1) << cmd_i.elem_log2;
    for (int d = 1; d < NumDims; d++) begin
      if (job_dim == 3'(d)) begin
        mcand = tma_pkg::GAddrWidth'(cmd_i.stride[d-1]);
        mult  = job_is_step ? 33'(cmd_i.es[d-1]) : 33'(signed'(cmd_i.coord[d]));
      end
    end
  end

  logic            mac_busy, mac_carry, mac_done;
  tma_pkg::gaddr_t addend;
  tma_agu_mac #(.Width(tma_pkg::GAddrWidth), .MultWidth(33)) u_mac (
    .clk_i, .rst_ni, .start_i(launch_q), .mcand_i(mcand), .mult_i(mult), .negate_i(1'b0),
    .busy_o(mac_busy), .addend_o(addend), .carry_o(mac_carry), .done_o(mac_done)
  );

  // One adder: the accumulator or the job's step register, plus this cycle's addend.
  tma_pkg::gaddr_t target, sum;
  always_comb begin
    target = acc_q;
    for (int d = 0; d < tma_pkg::NumOuter; d++) if (job_is_step && job_dim == 3'(d + 1)) target = step_q[d];
  end
  assign sum = target + addend + tma_pkg::GAddrWidth'(mac_carry);

  logic next_job_used;  // the job after this one belongs to a dimension in use
  assign next_job_used = 3'((job_q + 4'd2) >> 1) < cmd_i.rank;

  // Take the command once everything that needs it is done.
  assign cmd_ready_o  = computing_q && jobs_done_q && (&lo_done) && (&hi_done);
  assign walk_valid_o = holding_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      computing_q <= 1'b0;
      holding_q   <= 1'b0;
      job_q       <= '0;
      launch_q    <= 1'b0;
      jobs_done_q <= 1'b0;
      acc_q       <= '0;
      for (int d = 0; d < tma_pkg::NumOuter; d++) step_q[d] <= '0;
    end else if (start) begin
      computing_q <= 1'b1;
      job_q       <= '0;
      launch_q    <= 1'b1;
      jobs_done_q <= 1'b0;
      acc_q       <= cmd_i.gbase;
      for (int d = 0; d < tma_pkg::NumOuter; d++) step_q[d] <= '0;
    end else begin
      launch_q <= 1'b0;
      if (cmd_valid_i && cmd_ready_o) begin
        computing_q <= 1'b0;
        holding_q   <= 1'b1;
      end
      if (walk_valid_o && walk_ready_i) holding_q <= 1'b0;
      if (mac_busy) begin
        if (job_is_step) begin
          for (int d = 0; d < tma_pkg::NumOuter; d++) if (job_dim == 3'(d + 1)) step_q[d] <= sum;
        end else begin
          acc_q <= sum;
        end
        if (mac_done) begin
          job_q       <= job_q + 4'd1;
          launch_q    <= next_job_used;
          jobs_done_q <= !next_job_used;
        end
      end
    end
  end

  // ---- the fields the walk copies, taken with the command
  logic [2:0]       rank_q, elem_log2_q, swizzle_q;
  logic [3:0]       es0_q;
  tma_pkg::saddr_t  smem_base_q;
  logic [11:0]      row_pitch_q;
  logic [7:0]       row_beats_q;
  logic [8:0]       ext_q [tma_pkg::NumOuter];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rank_q      <= 3'd1;
      elem_log2_q <= '0;
      swizzle_q   <= 3'd0;
      es0_q       <= 4'd1;
      smem_base_q <= '0;
      row_pitch_q <= '0;
      row_beats_q <= 8'd1;
      for (int d = 0; d < tma_pkg::NumOuter; d++) ext_q[d] <= 9'd1;
    end else if (cmd_valid_i && cmd_ready_o) begin
      rank_q      <= cmd_i.rank;
      elem_log2_q <= cmd_i.elem_log2;
      swizzle_q   <= cmd_i.swizzle;
      es0_q       <= cmd_i.es0;
      smem_base_q <= cmd_i.smem_base;
      row_pitch_q <= cmd_i.row_pitch;
      row_beats_q <= cmd_i.row_beats;
      for (int d = 0; d < tma_pkg::NumOuter; d++) ext_q[d] <= cmd_i.ext[d];
    end
  end

  // ---- the walk
  function automatic logic [8:0] clip_idx(input logic [11:0] q);
    clip_idx = q >= 12'd256 ? 9'd256 : q[8:0];
  endfunction
  function automatic logic [11:0] unit_bytes(input logic [11:0] q, input logic [2:0] unit_log2);
    logic [16:0] b;
    b = 17'(q) << unit_log2;
    unit_bytes = b >= 17'(tma_pkg::RowBytes) ? 12'(tma_pkg::RowBytes) : b[11:0];
  endfunction

  logic unit_mode;  // interleave: dimension 0 moves in 16- or 32-byte units
  assign unit_mode = elem_log2_q >= 3'd4;

  always_comb begin
    walk_o.start     = acc_q;
    walk_o.smem_base = smem_base_q;
    walk_o.row_pitch = row_pitch_q;
    for (int d = 0; d < tma_pkg::NumOuter; d++) begin
      walk_o.step[d] = step_q[d];
      if (3'(d + 1) < rank_q) begin
        walk_o.last[d]   = 8'(ext_q[d] - 9'd1);
        walk_o.idx_lo[d] = clip_idx(q_lo[d + 1]);
        walk_o.idx_hi[d] = clip_idx(q_hi[d + 1]);
      end else begin  // an unused dimension: one row, index 0, in bounds
        walk_o.last[d]   = '0;
        walk_o.idx_lo[d] = '0;
        walk_o.idx_hi[d] = 9'd1;
      end
    end
    walk_o.fmt.swizzle   = swizzle_q;
    walk_o.fmt.row_beats = row_beats_q;
    walk_o.fmt.unit_step = unit_mode ? 9'(es0_q) << (elem_log2_q - 3'd4) << 4 : 9'd16;
    walk_o.fmt.unit_2p   = elem_log2_q == 3'd5;
    walk_o.fmt.win_lo    = unit_bytes(q_lo[0], elem_log2_q);
    walk_o.fmt.win_hi    = unit_bytes(q_hi[0], elem_log2_q);
  end

endmodule
