// tma_agu_ceil_div: q = ceil(x / d), or floor(x / d) with floor_i, for the in-bound windows and
// sweep lengths of the address generators. The owner clips x to 0..2^(Width-1) (a window never
// needs more: a row holds at most 2048 bytes and 256 indices, a box at most 1024 pixels); d is a
// traversal stride, 1..8. Restoring division of x + d - 1 (or x), one quotient bit per cycle.
//
// Latency: start_i loads; done_o is high from the Width-th cycle after until the next start.
module tma_agu_ceil_div #(
  parameter int unsigned Width = 12
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             start_i,
  input  logic [Width-1:0] x_i,      // 0..2^(Width-1)
  input  logic [3:0]       d_i,      // 1..8
  input  logic             floor_i,  // round down instead of up
  output logic [Width-1:0] q_o,
  output logic             done_o
);

  localparam int unsigned CountWidth = $clog2(Width + 1);

  logic [Width-1:0]      num_q;    // dividend bits still to shift in, quotient bits below them
  logic [3:0]            rem_q;    // partial remainder, < d
  logic [3:0]            d_q;
  logic [CountWidth-1:0] count_q;

  logic [4:0] trial;               // remainder with the next dividend bit shifted in
  logic       fits;
  assign trial = {rem_q, num_q[Width-1]};
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
      num_q   <= floor_i ? x_i : x_i + Width'(d_i) - Width'(1);
      rem_q   <= '0;
      d_q     <= d_i;
      count_q <= CountWidth'(Width);
    end else if (!done_o) begin
      num_q   <= {num_q[Width-2:0], fits};
      rem_q   <= fits ? 4'(trial - {1'b0, d_q}) : trial[3:0];
      count_q <= count_q - 1'b1;
    end
  end

  // The divisor is never zero and the remainder stays below it.
  always_comb begin
    if (rst_ni && !done_o) assert (d_q != '0 && rem_q < d_q);
  end

endmodule
