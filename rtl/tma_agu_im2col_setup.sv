// tma_agu_im2col_setup: the set-up stage of the im2col address generator. From one command it
// computes an im2col_walk_t, after which the pixel walker needs only adders and narrow compares:
//   start    = globalAddress + c0 * elem + n * nstride + hc * hstride + sum_i (p_i + off_i) * sstride_i
//   first[k] = start with spatial dimensions 0..k-1 at their lower corner, i.e.
//              first[k] = first[k-1] + (lo_{k-1} - p_{k-1}) * sstride_{k-1}  (first[0] = start)
//   step[i]  = ses_i * sstride_i,  step[ns] = nes * nstride
// through one digit-serial multiplier (tma_agu_mac) and one adder, and per walked dimension the
// sweep lengths and in-bound step windows (tma_agu_im2col_window), and the channel window.
//
// The command is used where it stands (valid/ready obliges the source to hold it until it is
// taken): the stage computes from the bus and takes the command (cmd_ready_o) only when the walk
// is complete, keeping just the fields the walk copies. Phases: idle -> compute (from
// cmd_valid_i) -> take (one cycle) -> hold walk_valid_o until walk_ready_i.
//
// Latency: about 155 cycles (the first window unit's eight divisions, in parallel with the
// products).
// One command at a time; with the walker (the second command slot) a box's set-up overlaps the
// previous box's beats.
module tma_agu_im2col_setup (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic                  cmd_valid_i,
  output logic                  cmd_ready_o,
  input  tma_pkg::im2col_cmd_t  cmd_i,
  output logic                  walk_valid_o,
  input  logic                  walk_ready_i,
  output tma_pkg::im2col_walk_t walk_o
);

  localparam int unsigned NumJobs = 19;

  logic computing_q;  // working on the command on the bus
  logic holding_q;    // the walk is complete and the command taken
  logic start, take;
  assign start = cmd_valid_i && !computing_q && !holding_q;
  assign take  = cmd_valid_i && cmd_ready_o;

  logic [1:0] ns;  // spatial dimensions in use
  assign ns = 2'(cmd_i.rank - 3'd2);

  // ---- windows: one unit per spatial dimension; the first also does the image index
  logic [2:0]  win_done;
  logic [10:0] sweep_first [3];
  logic [10:0] sweep_rest [3];
  logic [10:0] lo_first [3];
  logic [10:0] hi_first [3];
  logic [10:0] lo_rest [3];
  logic [10:0] hi_rest [3];
  logic [10:0] n_lo, n_hi;
  for (genvar i = 0; i < 3; i++) begin : g_window
    logic [10:0] unit_n_lo, unit_n_hi;
    tma_agu_im2col_window #(.WithImage(i == 0)) u_window (
      .clk_i, .rst_ni, .start_i(start), .p_i(cmd_i.p[i]), .lo_i(cmd_i.lo[i]), .hi_i(cmd_i.hi[i]),
      .off_i(cmd_i.off[i]), .dim_i(cmd_i.sdim[i]), .e_i(2'(i) < ns ? cmd_i.ses[i] : 4'd1), .n_i(cmd_i.n),
      .nd_i(cmd_i.ndim), .ne_i(cmd_i.nes), .sweep_first_o(sweep_first[i]), .sweep_rest_o(sweep_rest[i]),
      .lo_first_o(lo_first[i]), .hi_first_o(hi_first[i]), .lo_rest_o(lo_rest[i]), .hi_rest_o(hi_rest[i]),
      .n_lo_o(unit_n_lo), .n_hi_o(unit_n_hi), .done_o(win_done[i])
    );
    if (i == 0) begin : g_image
      assign n_lo = unit_n_lo;
      assign n_hi = unit_n_hi;
    end else begin : g_spatial_only
      logic unused_n;
      assign unused_n = ^{unit_n_lo, unit_n_hi};
    end
  end

  // ---- products. Job j (a used job of dimension i < ns, or of no dimension):
  //   0: c0 x elem            1: n x nstride          2: hc x hstride (the held dimension)
  //   3+2i: p_i x sstride_i   4+2i: off_i x sstride_i            -> start
  //   9+2i: lo_i x sstride_i  10+2i: -(p_i x sstride_i)          -> first[i+1]
  //   15+i: ses_i x sstride_i -> step[i]          18: nes x nstride -> step[ns]
  localparam int unsigned JobPos = 3, JobWrap = 9, JobStep = 15, JobImageStep = 18;
  logic [4:0]  job_q;
  logic        launch_q, jobs_done_q;
  tma_pkg::gaddr_t acc_q;
  tma_pkg::gaddr_t z_q [4];      // start, first[1..3]
  tma_pkg::gaddr_t step_q [4];

  // Which jobs run: those of no dimension, and those of the spatial dimensions in use.
  logic [NumJobs-1:0] job_used;
  always_comb begin
    job_used = '1;
    for (int i = 0; i < 3; i++) begin
      if (2'(i) >= ns) begin
        job_used[JobPos + 2 * i]      = 1'b0;
        job_used[JobPos + 1 + 2 * i]  = 1'b0;
        job_used[JobWrap + 2 * i]     = 1'b0;
        job_used[JobWrap + 1 + 2 * i] = 1'b0;
        job_used[JobStep + i]         = 1'b0;
      end
    end
  end

  // A job's group: 0 adds into start, 1..3 into first[1..3], 4 into a step register.
  function automatic logic [2:0] job_group(input logic [4:0] j);
    job_group = j < 5'(JobWrap) ? 3'd0 : j < 5'(JobStep) ? 3'(((j - 5'(JobWrap)) >> 1) + 5'd1) : 3'd4;
  endfunction

  logic [1:0]         job_dim;
  logic [4:0]         job_rel;  // the job's index within its block
  tma_pkg::gaddr_t    mcand;
  logic signed [32:0] mult;
  logic               negate;
  always_comb begin
    job_rel = '0;
    if (job_q >= 5'(JobPos) && job_q < 5'(JobWrap)) job_rel = job_q - 5'(JobPos);
    else if (job_q >= 5'(JobWrap) && job_q < 5'(JobStep)) job_rel = job_q - 5'(JobWrap);
    job_dim = job_q >= 5'(JobStep) && job_q < 5'(JobImageStep) ? 2'(job_q - 5'(JobStep)) : 2'(job_rel >> 1);
    mcand  = tma_pkg::GAddrWidth'(cmd_i.sstride[job_dim]);
    mult   = 33'(signed'(cmd_i.p[job_dim]));
    negate = 1'b0;
    if (job_q == 5'd0) begin
      mcand = tma_pkg::GAddrWidth'(signed'(cmd_i.c0));
      mult  = 33'(1) << cmd_i.elem_log2;
    end else if (job_q == 5'd1 || job_q == 5'(JobImageStep)) begin
      mcand = tma_pkg::GAddrWidth'(cmd_i.nstride);
      mult  = job_q == 5'd1 ? 33'(signed'(cmd_i.n)) : 33'(cmd_i.nes);
    end else if (job_q == 5'd2) begin
      mcand = tma_pkg::GAddrWidth'(cmd_i.hstride);
      mult  = 33'(signed'(cmd_i.hc));
    end else if (job_q < 5'(JobWrap)) begin
      if (job_rel[0]) mult = 33'(cmd_i.off[job_dim]);
    end else if (job_q < 5'(JobStep)) begin
      if (!job_rel[0]) mult = 33'(signed'(cmd_i.lo[job_dim]));
      negate = job_rel[0];
    end else begin
      mult = 33'(cmd_i.ses[job_dim]);
    end
  end

  logic [4:0] next_job;   // the next used job, NumJobs when none is left
  always_comb begin
    next_job = 5'(NumJobs);
    for (int j = NumJobs - 1; j >= 0; j--) if (5'(j) > job_q && job_used[j]) next_job = 5'(j);
  end

  logic            mac_busy, mac_carry, mac_done;
  tma_pkg::gaddr_t addend;
  tma_agu_mac #(.Width(tma_pkg::GAddrWidth), .MultWidth(33)) u_mac (
    .clk_i, .rst_ni, .start_i(launch_q), .mcand_i(mcand), .mult_i(mult), .negate_i(negate),
    .busy_o(mac_busy), .addend_o(addend), .carry_o(mac_carry), .done_o(mac_done)
  );

  logic [1:0] step_target;  // which step register a step job adds into
  logic [2:0] group, next_group;
  logic       to_step;      // the job adds into a step register, not the accumulator
  assign step_target = job_q == 5'(JobImageStep) ? ns : job_dim;
  assign group       = job_group(job_q);
  assign next_group  = job_group(next_job);
  assign to_step     = group == 3'd4;

  tma_pkg::gaddr_t target, sum;
  assign target = to_step ? step_q[step_target] : acc_q;
  assign sum    = target + addend + tma_pkg::GAddrWidth'(mac_carry);

  // Take the command once everything that needs it is done.
  assign cmd_ready_o  = computing_q && jobs_done_q && (&win_done);
  assign walk_valid_o = holding_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      computing_q <= 1'b0;
      holding_q   <= 1'b0;
      job_q       <= '0;
      launch_q    <= 1'b0;
      jobs_done_q <= 1'b0;
      acc_q       <= '0;
      for (int k = 0; k < 4; k++) begin
        z_q[k]    <= '0;
        step_q[k] <= '0;
      end
    end else if (start) begin
      computing_q <= 1'b1;
      job_q       <= '0;
      launch_q    <= 1'b1;
      jobs_done_q <= 1'b0;
      acc_q       <= cmd_i.gbase;
      for (int k = 0; k < 4; k++) step_q[k] <= '0;
    end else begin
      launch_q <= 1'b0;
      if (take) begin
        computing_q <= 1'b0;
        holding_q   <= 1'b1;
      end
      if (walk_valid_o && walk_ready_i) holding_q <= 1'b0;
      if (mac_busy) begin
        if (to_step) step_q[step_target] <= sum;
        else acc_q <= sum;
        if (mac_done) begin
          // The last job of a group leaves start or first[k] in the accumulator (there is
          // always a step job after the last group).
          if (!to_step && next_group != group) z_q[2'(group)] <= sum;
          job_q       <= next_job;
          launch_q    <= next_job != 5'(NumJobs);
          jobs_done_q <= next_job == 5'(NumJobs);
        end
      end
    end
  end


  // ---- the fields the walk copies, taken with the command; the channel window: bytes
  // [win_lo, win_hi) of a pixel lie inside dimension 0
  logic signed [38:0] c0_wide;
  logic signed [38:0] lo_bytes, hi_bytes;  // -c0 and dim0 - c0 channels, in bytes
  logic [11:0]        win_lo, win_hi;
  assign c0_wide  = 39'(signed'(cmd_i.c0));
  assign lo_bytes = (39'sd0 - c0_wide) <<< cmd_i.elem_log2;
  assign hi_bytes = (39'(cmd_i.dim0) - c0_wide) <<< cmd_i.elem_log2;
  always_comb begin  // clipped to the row: 0..2048
    if (lo_bytes <= 0) win_lo = 12'd0;
    else if (lo_bytes >= 39'(tma_pkg::RowBytes)) win_lo = 12'(tma_pkg::RowBytes);
    else win_lo = lo_bytes[11:0];
    if (hi_bytes <= 0) win_hi = 12'd0;
    else if (hi_bytes >= 39'(tma_pkg::RowBytes)) win_hi = 12'(tma_pkg::RowBytes);
    else win_hi = hi_bytes[11:0];
  end

  // The held dimension (interleaved layouts keep tensor dimension rank-2 at its coordinate):
  // outside the tensor, every pixel is.
  logic held_outside;
  assign held_outside = $signed(cmd_i.hc) < 0 || 33'(cmd_i.hc) >= cmd_i.hdim;

  logic            held_outside_q;
  logic [1:0]      ns_q;
  logic [10:0]     pixels_q;
  tma_pkg::saddr_t smem_base_q;
  logic [11:0]     row_pitch_q, win_lo_q, win_hi_q;
  logic [7:0]      row_beats_q;
  logic [2:0]      swizzle_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_outside_q <= 1'b0;
      ns_q        <= 2'd1;
      pixels_q    <= 11'd1;
      smem_base_q <= '0;
      row_pitch_q <= '0;
      win_lo_q    <= '0;
      win_hi_q    <= '0;
      row_beats_q <= 8'd1;
      swizzle_q   <= 3'd0;
    end else if (take) begin
      held_outside_q <= held_outside;
      ns_q        <= ns;
      pixels_q    <= cmd_i.pixels;
      smem_base_q <= cmd_i.smem_base;
      row_pitch_q <= cmd_i.row_pitch;
      win_lo_q    <= win_lo;
      win_hi_q    <= win_hi;
      row_beats_q <= cmd_i.row_beats;
      swizzle_q   <= cmd_i.swizzle;
    end
  end

  always_comb begin
    walk_o.start    = z_q[0];
    walk_o.first[0] = z_q[1];
    walk_o.first[1] = z_q[2];
    walk_o.first[2] = z_q[3];
    for (int k = 0; k < 4; k++) walk_o.step[k] = step_q[k];
    walk_o.ns = ns_q;
    walk_o.held_outside = held_outside_q;
    for (int i = 0; i < 3; i++) begin
      walk_o.sweep_first[i] = sweep_first[i];
      walk_o.sweep_rest[i]  = sweep_rest[i];
      walk_o.lo_first[i]    = lo_first[i];
      walk_o.hi_first[i]    = hi_first[i];
      walk_o.lo_rest[i]     = lo_rest[i];
      walk_o.hi_rest[i]     = hi_rest[i];
    end
    walk_o.n_lo          = n_lo;
    walk_o.n_hi          = n_hi;
    walk_o.pixels        = pixels_q;
    walk_o.smem_base     = smem_base_q;
    walk_o.row_pitch     = row_pitch_q;
    walk_o.fmt.swizzle   = swizzle_q;
    walk_o.fmt.row_beats = row_beats_q;
    walk_o.fmt.unit_step = 9'd16;
    walk_o.fmt.unit_2p   = 1'b0;
    walk_o.fmt.win_lo    = win_lo_q;
    walk_o.fmt.win_hi    = win_hi_q;
  end

endmodule
