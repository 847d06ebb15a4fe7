// tma_agu_hold_check: assertions only, nothing reaches an output. Under valid/ready, a valid that
// is not taken stays valid, and its payload does not change, until the handshake. Synthesis
// drops it (scripts/synth.sh reads the RTL with -noassert).
module tma_agu_hold_check #(
  parameter int unsigned Width = 1
) (
  input logic             clk_i,
  input logic             rst_ni,
  input logic             valid_i,
  input logic             ready_i,
  input logic [Width-1:0] data_i
);

  logic             stalled_q;
  logic [Width-1:0] data_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      stalled_q <= 1'b0;
      data_q    <= '0;
    end else begin
      stalled_q <= valid_i && !ready_i;
      data_q    <= data_i;
    end
  end
  always_comb begin
    if (rst_ni && stalled_q) assert (valid_i && data_i == data_q);
  end

endmodule
