// tma_agu_im2col_window: for one walked dimension of an im2col box, the numbers that let the
// pixel walker use narrow counters instead of wide positions. A dimension's pixels sweep from
// a start position by the traversal stride e up to the bounding box's upper corner hi, then
// wrap to its lower corner lo; the first sweep starts at the instruction's position p, later
// ones at lo. Step k of a sweep reads position start + k*e + off, inside the tensor when
// 0 <= start + k*e + off < dim. Computed here, clipped to 0..2047 (a box has at most 1024
// pixels, so 2047 means "never"):
//   sweep_first_o / sweep_rest_o : the step at which the first / a later sweep wraps,
//                                  floor((hi - p) / e) and floor((hi - lo) / e), 0 if negative
//   lo/hi_first_o, lo/hi_rest_o  : steps [lo, hi) of a first / later sweep inside the tensor,
//                                  ceil((-off - start) / e) and ceil((dim - off - start) / e)
// With WithImage the unit then does the image index n (stepping ne through nd images):
//   n_lo_o, n_hi_o               : image steps [lo, hi) inside the tensor, ceil(-n / ne) and
//                                  ceil((nd - n) / ne)
//
// Latency: six divisions (eight WithImage) through one tma_agu_ceil_div, 17 cycles each (x is
// registered before the divider takes it): done_o 103 (137) cycles after start_i. Inputs must
// hold until done_o.
module tma_agu_im2col_window #(
  parameter bit WithImage = 1'b0
) (
  input  logic               clk_i,
  input  logic               rst_ni,
  input  logic               start_i,
  input  logic signed [31:0] p_i,
  input  logic signed [31:0] lo_i,
  input  logic signed [33:0] hi_i,
  input  logic [15:0]        off_i,
  input  logic [32:0]        dim_i,
  input  logic [3:0]         e_i,
  input  logic signed [31:0] n_i,     // WithImage only
  input  logic [32:0]        nd_i,
  input  logic [3:0]         ne_i,
  output logic [10:0]        sweep_first_o,
  output logic [10:0]        sweep_rest_o,
  output logic [10:0]        lo_first_o,
  output logic [10:0]        hi_first_o,
  output logic [10:0]        lo_rest_o,
  output logic [10:0]        hi_rest_o,
  output logic [10:0]        n_lo_o,
  output logic [10:0]        n_hi_o,
  output logic               done_o
);

  localparam int unsigned DivWidth = 14;          // x clipped to 0..8192: q >= 1024 for e <= 8
  localparam int unsigned Steps    = WithImage ? 8 : 6;

  logic [3:0]  step_q;    // which quotient is being computed; Steps when done
  logic        prep_q;    // register this step's x this cycle
  logic        launch_q;  // start the divider this cycle
  logic [DivWidth-1:0] x_q;
  logic [10:0] q_q [Steps];

  // Step s divides x = a - b - c:
  //   0: hi - p (floor)   1: hi - lo (floor)   2: -off - p   3: dim - off - p   4: -off - lo   5: dim - off - lo
  //   6: -n (by ne)       7: nd - n (by ne)
  logic signed [35:0] a, b, c, x;
  logic               image_step;
  assign image_step = step_q >= 4'd6;
  always_comb begin
    a = step_q <= 4'd1 ? 36'(hi_i) : (step_q == 4'd3 || step_q == 4'd5) ? 36'(dim_i) : step_q == 4'd7 ? 36'(nd_i) : 36'sd0;
    b = image_step ? 36'(n_i) : (step_q == 4'd1 || step_q == 4'd4 || step_q == 4'd5) ? 36'(lo_i) : 36'(p_i);
    c = (step_q <= 4'd1 || image_step) ? 36'sd0 : 36'(off_i);
    x = a - b - c;
  end
  logic [DivWidth-1:0] x_clipped;  // registered: the subtract and the divider's add are two cycles
  assign x_clipped = x <= 0 ? '0 : x >= 36'sd8192 ? DivWidth'(8192) : x[DivWidth-1:0];

  logic                div_done;
  logic [DivWidth-1:0] q;
  tma_agu_ceil_div #(.Width(DivWidth)) u_div (
    .clk_i, .rst_ni, .start_i(launch_q), .x_i(x_q), .d_i(image_step ? ne_i : e_i), .floor_i(step_q <= 4'd1),
    .q_o(q), .done_o(div_done)
  );

  assign done_o = step_q == 4'(Steps);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      step_q   <= 4'(Steps);
      prep_q   <= 1'b0;
      launch_q <= 1'b0;
      x_q      <= '0;
      for (int s = 0; s < Steps; s++) q_q[s] <= '0;
    end else if (start_i) begin
      step_q   <= '0;
      prep_q   <= 1'b1;
    end else if (prep_q) begin
      prep_q   <= 1'b0;
      x_q      <= x_clipped;
      launch_q <= 1'b1;
    end else if (launch_q) begin
      launch_q <= 1'b0;
    end else if (!done_o && div_done) begin
      q_q[3'(step_q)] <= q >= DivWidth'(2047) ? 11'd2047 : q[10:0];
      step_q      <= step_q + 4'd1;
      prep_q      <= step_q != 4'(Steps - 1);
    end
  end

  assign sweep_first_o = q_q[0];
  assign sweep_rest_o  = q_q[1];
  assign lo_first_o    = q_q[2];
  assign hi_first_o    = q_q[3];
  assign lo_rest_o     = q_q[4];
  assign hi_rest_o     = q_q[5];
  if (WithImage) begin : g_image
    assign n_lo_o = q_q[Steps - 2];
    assign n_hi_o = q_q[Steps - 1];
  end else begin : g_no_image
    assign n_lo_o = '0;
    assign n_hi_o = '0;
    logic unused_image;
    assign unused_image = ^{n_i, nd_i, ne_i};
  end

endmodule
