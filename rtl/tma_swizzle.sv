// tma_swizzle: the shared-memory address swizzle of the TMA.
//
// Computes the byte address at which the TMA stores the byte whose unswizzled shared-memory
// address is addr_i (CuTe Swizzle<B,M,3>: B address bits above bit M+3 are XORed into the B
// bits above bit M; the flip mode also swaps 8-byte halves on odd 128-byte rows). Only bits
// [9:3] can change; the upper bits pass through.
//
// Mode: run time (mode_i) when FixedMode == 0, else the FixedMode parameter value, which
// leaves only the XOR gates of that mode (three for 128B). Latency: combinational, or one
// cycle with OutputReg = 1. Throughput: one address per cycle.
module tma_swizzle #(
  parameter int unsigned AddrWidth = 18,
  parameter int unsigned FixedMode = 0,  // 0: run-time mode_i; else a swizzle_e value
  parameter int unsigned OutputReg = 0
) (
  input  logic                 clk_i,
  input  logic                 rst_ni,
  input  logic [2:0]           mode_i,  // a tma_pkg::swizzle_e value
  input  logic [AddrWidth-1:0] addr_i,
  output logic [AddrWidth-1:0] addr_o
);
  logic [2:0] mode;  // a tma_pkg::swizzle_e value
  logic [AddrWidth-1:0] swizzled;

  assign mode = (FixedMode == 0) ? mode_i : FixedMode[2:0];

  always_comb begin
    swizzled = addr_i;
    unique case (mode)
      tma_pkg::Swizzle32B:  swizzled[4]   = addr_i[4]   ^ addr_i[7];
      tma_pkg::Swizzle64B:  swizzled[5:4] = addr_i[5:4] ^ addr_i[8:7];
      tma_pkg::Swizzle128B: swizzled[6:4] = addr_i[6:4] ^ addr_i[9:7];
      tma_pkg::Swizzle128BAtom32: swizzled[6:5] = addr_i[6:5] ^ addr_i[9:8];
      tma_pkg::Swizzle128BAtom32F: begin
        swizzled[6:5] = addr_i[6:5] ^ addr_i[9:8];
        swizzled[3]   = addr_i[3] ^ addr_i[7];
      end
      tma_pkg::Swizzle128BAtom64: swizzled[6] = addr_i[6] ^ addr_i[9];
      default: swizzled = addr_i;
    endcase
  end

  if (OutputReg != 0) begin : g_reg
    logic [AddrWidth-1:0] addr_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) addr_q <= '0;
      else         addr_q <= swizzled;
    end
    assign addr_o = addr_q;
  end else begin : g_comb
    assign addr_o = swizzled;
    logic unused_clk_rst;
    assign unused_clk_rst = clk_i ^ rst_ni;
  end

  // The swizzle permutes bytes inside a 1024-byte repeat: it never changes bits above 9.
  always_comb begin
    assert (swizzled[AddrWidth-1:10] == addr_i[AddrWidth-1:10]);
  end

endmodule
