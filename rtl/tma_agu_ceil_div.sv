// tma_agu_ceil_div: q = ceil(x / d) for the in-bound windows of the address generators, with x
// clipped to 0..2048 by the owner (a window never needs more: rows hold at most 2048 bytes and
// 256 indices) and d an element stride, 1..8. Restoring division of x + d - 1, one quotient
// bit per cycle.
//
// Latency: start_i loads; done_o is high from the 12th cycle after until the next start.
module tma_agu_ceil_div (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        start_i,
  input  logic [11:0] x_i,     // 0..2048
  input  logic [3:0]  d_i,     // 1..8
  output logic [11:0] q_o,     // 0..2048
  output logic        done_o
);

  logic [11:0] num_q;   // dividend bits still to shift in, quotient bits shifted in below them
  logic [3:0]  rem_q;   // partial remainder, < d
  logic [3:0]  d_q;
  logic [3:0]  count_q;

  logic [4:0] trial;    // remainder with the next dividend bit shifted in
  logic       fits;
  assign trial = {rem_q, num_q[11]};
  assign fits  = trial >= {1'b0, d_q};

  assign q_o    = num_q;
  assign done_o = count_q == '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      num_q   <= '0;
      rem_q   <= '0;
      d_q     <= 4'd1;
      count_q <= '0;
    end else if (start_i) begin
      num_q   <= x_i + 12'(d_i) - 12'd1;
      rem_q   <= '0;
      d_q     <= d_i;
      count_q <= 4'd12;
    end else if (!done_o) begin
      num_q   <= {num_q[10:0], fits};
      rem_q   <= fits ? 4'(trial - {1'b0, d_q}) : trial[3:0];
      count_q <= count_q - 4'd1;
    end
  end

  // The divisor is never zero and the remainder stays below it.
  always_comb begin
    if (rst_ni && !done_o) assert (d_q != '0 && rem_q < d_q);
  end

endmodule
