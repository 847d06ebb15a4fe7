#include "tmasim/traversal.hpp"

namespace tmasim {

int64_t dim0_reach(const TensorMap& m, Op op) {
  const int64_t dim0 = m.global_dims[0];
  if (op != Op::store && op != Op::reduce) return dim0;
  const int64_t unit = m.row_unit_bytes();
  return (dim0 * unit + 15) / 16 * 16 / unit;
}

}  // namespace tmasim
