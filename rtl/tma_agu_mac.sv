// tma_agu_mac: digit-serial multiplier for the address generators' set-up stage. It walks the
// signed multiplier one bit per cycle, least significant first, and hands its owner one addend
// per cycle (the multiplicand shifted to that bit, or its two's complement for the sign bits);
// the owner adds addend_o + carry_o into whatever it accumulates, so one adder serves every
// product of a command and no multiplier array is built.
//
// With negate_i the addends sum to -(mcand x mult) instead.
//
// Latency: start_i loads the operands; from the next cycle one addend per cycle until done_o,
// which comes with the last addend. A multiplier of n significant bits (sign bit included)
// takes n cycles: 1 for 0, 1 or -1, 13 for coordinates below 4096. Products are modulo
// 2^Width.
module tma_agu_mac #(
  parameter int unsigned Width     = 48,
  parameter int unsigned MultWidth = 33
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic                        start_i,
  input  logic [Width-1:0]            mcand_i,
  input  logic signed [MultWidth-1:0] mult_i,
  input  logic                        negate_i,
  output logic                        busy_o,
  output logic [Width-1:0]            addend_o,  // add addend_o + carry_o this cycle (when busy_o)
  output logic                        carry_o,
  output logic                        done_o
);

  logic                        busy_q;
  logic [Width-1:0]            mcand_q;
  logic signed [MultWidth-1:0] mult_q;
  logic                        negate_q;

  // What is left of the multiplier after this bit: nothing, or only sign bits.
  logic rest_zero, rest_ones, all_ones;
  assign rest_zero = mult_q[MultWidth-1:1] == '0;
  assign rest_ones = &mult_q[MultWidth-1:1];
  assign all_ones  = rest_ones && mult_q[0];

  // -1 x mcand x 2^k is ~(mcand << k) + 1; otherwise the bit selects the shifted multiplicand.
  // Negated, -(a + c) = ~a + (1 - c): both are inverted.
  logic [Width-1:0] addend;
  assign addend   = all_ones ? ~mcand_q : (mult_q[0] ? mcand_q : '0);
  assign addend_o = negate_q ? ~addend : addend;
  assign carry_o  = all_ones ^ negate_q;
  assign done_o   = busy_q && (rest_zero || all_ones);
  assign busy_o   = busy_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      mcand_q <= '0;
      mult_q  <= '0;
      negate_q <= 1'b0;
    end else if (start_i) begin
      busy_q  <= 1'b1;
      mcand_q <= mcand_i;
      mult_q  <= mult_i;
      negate_q <= negate_i;
    end else if (busy_q) begin
      busy_q  <= !done_o;
      mcand_q <= mcand_q << 1;
      mult_q  <= mult_q >>> 1;
    end
  end

endmodule
