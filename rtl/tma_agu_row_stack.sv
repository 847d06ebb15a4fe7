// tma_agu_row_stack: the row addresses of an N-D walk without multiplication, shared by the
// tiled and im2col address generators. It holds the current row's global address, its shared-
// memory address, and for each walk dimension k >= 1 the address of the row where dimension
// k's current pass began (the dimensions below k at their first value). When the walk moves on
// in dimension k (those below it having wrapped), the next row is
//   k == 0 : the current row + step[0]
//   k >= 1 : first[k] + step[k], which then becomes first[j] for every j in 1..k
// so a wrap costs no rewind multiply. The owner says which dimension moves (adv_dim_i) and
// holds the steps; shared-memory rows are row_pitch_i apart.
//
// Latency: the next row's addresses are combinational (load_gaddr_o/load_smem_o, the new box's
// start while box_i is high); they are registered on box_i or row_i.
module tma_agu_row_stack (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   box_i,        // a new box starts: the stack takes its start rows
  input  tma_pkg::gaddr_t        start_i,      // its first row
  input  tma_pkg::gaddr_t        first1_i, first2_i, first3_i,  // first rows of dims 1..3's passes
  input  tma_pkg::saddr_t        smem_base_i,
  input  logic                   row_i,        // move to the next row
  input  logic [1:0]             adv_dim_i,    // the dimension that advances
  input  tma_pkg::gaddr_t        step0_i, step1_i, step2_i, step3_i,
  input  logic [11:0]            row_pitch_i,
  output tma_pkg::gaddr_t        load_gaddr_o, // the row the beat stage loads now
  output tma_pkg::saddr_t        load_smem_o
);

  localparam int unsigned Dims = 4;

  tma_pkg::gaddr_t row_q;
  tma_pkg::gaddr_t first_q [1:Dims-1];
  tma_pkg::saddr_t srow_q;

  tma_pkg::gaddr_t step [Dims];
  assign step[0] = step0_i;
  assign step[1] = step1_i;
  assign step[2] = step2_i;
  assign step[3] = step3_i;

  tma_pkg::gaddr_t next_row;
  always_comb begin
    next_row = row_q;
    for (int k = 1; k < Dims; k++) if (adv_dim_i == 2'(k)) next_row = first_q[k];
    next_row = next_row + step[adv_dim_i];
  end

  assign load_gaddr_o = box_i ? start_i : next_row;
  assign load_smem_o  = box_i ? smem_base_i : srow_q + tma_pkg::SAddrWidth'(row_pitch_i);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q  <= '0;
      srow_q <= '0;
      for (int k = 1; k < Dims; k++) first_q[k] <= '0;
    end else if (box_i) begin
      row_q      <= start_i;
      srow_q     <= smem_base_i;
      first_q[1] <= first1_i;
      first_q[2] <= first2_i;
      first_q[3] <= first3_i;
    end else if (row_i) begin
      row_q  <= next_row;
      srow_q <= load_smem_o;
      for (int k = 1; k < Dims; k++) if (2'(k) <= adv_dim_i) first_q[k] <= next_row;
    end
  end

endmodule
