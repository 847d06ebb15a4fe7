#include "tmasim/tma.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <sstream>

#include "tmasim/numeric.hpp"
#include "tmasim/prefetch.hpp"
#include "tmasim/swizzle.hpp"
#include "tmasim/traversal.hpp"

namespace tmasim {

const char* Fault::cuda_error() const {
  switch (kind_) {
    case Kind::illegal_instruction: return "cudaErrorIllegalInstruction";
    case Kind::misaligned_address: return "cudaErrorMisalignedAddress";
    case Kind::illegal_address: return "cudaErrorIllegalAddress";
  }
  return "cudaErrorUnknown";
}

namespace {

template <class... Args>
std::string cat(Args&&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

[[noreturn]] void trap(Fault::Kind kind, const std::string& why) { throw Fault(kind, why); }

void check_operands(const TensorMap& m, const TmaInstruction& ins) {
  if (static_cast<int>(ins.coords.size()) != m.rank)
    throw Error(cat("instruction has ", ins.coords.size(), " coordinates; the tensor map has rank ", m.rank));
  if (m.mode == TensorMode::im2col && static_cast<int>(ins.im2col_offsets.size()) != m.rank - 2)
    throw Error(cat("im2col instruction needs ", m.rank - 2, " offsets, got ", ins.im2col_offsets.size()));
  if (m.mode == TensorMode::im2col && ins.op != Op::load && ins.op != Op::prefetch)
    throw Error("im2col stores and reductions (.im2col_no_offs) are not modelled");
  for (int32_t off : ins.im2col_offsets)
    if (off < 0 || off > 0xffff) throw Error(cat("im2col offset ", off, " does not fit the instruction's 16 bits"));
}

}  // namespace

namespace {
void check_valid_map(const TensorMap& m) {
  if (auto bad = validate(m)) throw Error("invalid tensor map: " + bad->rule + ": " + bad->message);
}
void check_on_valid_map(const TensorMap& m, const TmaInstruction& ins);
}  // namespace

void check_instruction(const TensorMap& m, const TmaInstruction& ins) {
  check_valid_map(m);
  check_on_valid_map(m, ins);
}

void InstructionChecker::check(const TensorMap& m, const TmaInstruction& ins) {
  if (std::find(valid_.begin(), valid_.end(), &m) == valid_.end()) {
    check_valid_map(m);
    valid_.push_back(&m);
  }
  check_on_valid_map(m, ins);
}

namespace {
void check_on_valid_map(const TensorMap& m, const TmaInstruction& ins) {
  check_operands(m, ins);
  // Tiled and im2col alike (the im2col channel start too, the PTX ISA's example among them).
  if (m.interleave == Interleave::none && (int64_t(ins.coords[0]) * m.elem_bytes()) % 16)
    trap(Fault::Kind::illegal_instruction,
         cat("innermost coordinate ", ins.coords[0], " x ", m.elem_bytes(), " bytes is not 16-byte aligned"));
  if (m.mode == TensorMode::im2col) {
    for (int i = 0; i < m.rank - 2; ++i) {
      const int d = m.spatial_dim(i);
      int64_t lo = m.lower_corner[i], hi = m.global_dims[d] - 1 + m.upper_corner[i];
      if (ins.coords[d] < lo || ins.coords[d] > hi)
        trap(Fault::Kind::illegal_instruction, cat("im2col coordinate ", ins.coords[d], " of dimension ", d,
                                                   " is outside the bounding box [", lo, ", ", hi, "]"));
    }
  }
  if (ins.op == Op::store || ins.op == Op::reduce) {
    for (int d = 0; d < m.rank; ++d)
      if (ins.coords[d] < 0)
        trap(Fault::Kind::illegal_instruction,
             cat("store/reduce coordinate ", ins.coords[d], " of dimension ", d, " is negative"));
  }
  if (ins.op == Op::reduce && !reduce_supported(ins.reduce_op, m.dtype))
    trap(Fault::Kind::illegal_instruction,
         cat("cp.reduce.async.bulk.tensor .", name(ins.reduce_op), " does not support ", name(m.dtype)));
  // Checked last: the H100 reports any illegal-instruction condition above first.
  if (ins.op != Op::prefetch && ins.smem_offset % 128 != 0)
    trap(Fault::Kind::misaligned_address,
         cat("shared-memory address ", ins.smem_offset, " is not 128-byte aligned"));
}
}  // namespace

namespace {

// The 16-bit pattern the H100 writes for out-of-bound elements with NaN fill, any float type.
constexpr uint8_t kNanFill[2] = {0xf7, 0x7f};

struct Mover {
  const TensorMap& m;
  GlobalMemory g;
  SharedMemory s;
  int es;
  bool nan_fill;
  // Shared-memory chunks of this many bytes stay contiguous under the swizzle.
  uint32_t chunk;

  uint8_t* smem_at(int64_t unswizzled, int64_t bytes) const {
    uint32_t a = swizzle_address(m.swizzle, static_cast<uint32_t>(unswizzled));
    if (a + bytes > static_cast<int64_t>(s.size)) throw Fault(Fault::Kind::illegal_address, cat("shared-memory access at ", a, " is outside the ", s.size, "-byte window"));
    return s.data + a;
  }
  // Where byte `offset` of the tensor lies in the provided memory (outside it: < 0 or >= g.size).
  int64_t global_rel(int64_t offset) const {
    return static_cast<int64_t>(m.global_address) + offset - static_cast<int64_t>(g.base);
  }
  uint8_t* global_at(int64_t offset, int64_t bytes) const {
    const int64_t rel = global_rel(offset);
    if (rel < 0 || rel + bytes > static_cast<int64_t>(g.size))
      throw Fault(Fault::Kind::illegal_address, cat("global access at ", static_cast<int64_t>(m.global_address) + offset,
                                                    " is outside the provided memory"));
    return g.data + rel;
  }
  // One unit to or from shared memory, split where the swizzle may separate its chunks
  // (a 32-byte interleave unit spans two 16-byte chunks).
  void to_smem(int64_t unswizzled, const uint8_t* unit) const {
    for (int o = 0; o < es; o += static_cast<int>(chunk)) {
      int n = es - o < static_cast<int>(chunk) ? es - o : static_cast<int>(chunk);
      std::memcpy(smem_at(unswizzled + o, n), unit + o, n);
    }
  }
  void from_smem(int64_t unswizzled, uint8_t* unit) const {
    for (int o = 0; o < es; o += static_cast<int>(chunk)) {
      int n = es - o < static_cast<int>(chunk) ? es - o : static_cast<int>(chunk);
      std::memcpy(unit + o, smem_at(unswizzled + o, n), n);
    }
  }

  // A hint that the row will be moved: its global bytes and their place in shared memory (the
  // first 256 bytes of each, where they lie in the provided memories).
  void prefetch_row(const BoxRow& r) const {
    if (!r.row_in_bounds) return;
    const int64_t rel = global_rel(r.global_offset);
    const int64_t global_bytes = std::min<int64_t>(r.elements * r.element_step * es, 256);
    for (int64_t o = 0; o < global_bytes; o += 64)
      if (rel + o >= 0 && rel + o < static_cast<int64_t>(g.size)) prefetch_read(g.data + rel + o);
    const int64_t smem_bytes = std::min<int64_t>(r.elements * es, 256);
    for (int64_t o = 0; o < smem_bytes; o += 64) {  // the swizzle moves each part of the row on its own
      const uint32_t to = swizzle_address(m.swizzle, static_cast<uint32_t>(r.smem_offset + o));
      if (to < s.size) prefetch_write(s.data + to);
    }
  }

  int64_t reach;  // elements of dimension 0 the operation reaches (dim0_reach)
  bool element_in_bounds(const BoxRow& r, int64_t k) const { return r.element_in_bounds(k, reach); }
  int64_t element_global(const BoxRow& r, int64_t k) const { return r.element_global(k, es); }

  // tfloat32 maps deliver fp32 values rounded to tf32's 10 fraction bits (half away from zero).
  void convert(uint8_t* unit) const {
    if (m.dtype != DType::tf32 && m.dtype != DType::tf32_ftz) return;
    for (int b = 0; b < es; b += 4) convert_tf32(unit + b);  // an interleave unit holds several
  }
  void convert_tf32(uint8_t* dst) const {
    uint32_t v;
    std::memcpy(&v, dst, 4);
    const uint32_t exp = (v >> 23) & 0xffu;
    if (exp == 0xffu) {
      v = (v & 0x7fffffu) ? (v & 0x80000000u) | 0x7fffe000u : v;  // NaN becomes the canonical tf32 NaN
    } else {  // subnormals are rounded too, also for tfloat32_ftz
      v = (v + 0x1000u) & ~0x1fffu;
    }
    std::memcpy(dst, &v, 4);
  }

  void fill(uint8_t* dst) const {
    for (int b = 0; b < es; ++b) dst[b] = nan_fill ? kNanFill[b & 1] : 0;
  }

  void load_row(const BoxRow& r) const {
    const bool converts = m.dtype == DType::tf32 || m.dtype == DType::tf32_ftz;
    const bool contiguous = !converts && r.element_step == 1 && element_in_bounds(r, 0) &&
                            element_in_bounds(r, r.elements - 1);
    if (contiguous) {  // whole row in bounds: move swizzle chunks at a time
      const int64_t bytes = r.elements * es;
      const uint8_t* src = global_at(r.global_offset, bytes);
      int64_t o = 0;
      if (chunk == 16)  // most maps: a copy of a constant size, inlined
        for (; o + 16 <= bytes; o += 16) std::memcpy(smem_at(r.smem_offset + o, 16), src + o, 16);
      for (; o < bytes; o += chunk) {
        int64_t n = bytes - o < chunk ? bytes - o : chunk;
        std::memcpy(smem_at(r.smem_offset + o, n), src + o, n);
      }
      return;
    }
    uint8_t unit[32];
    for (int64_t k = 0; k < r.elements; ++k) {
      if (element_in_bounds(r, k)) {
        std::memcpy(unit, global_at(element_global(r, k), es), es);
        convert(unit);
      } else {
        fill(unit);
      }
      to_smem(r.element_smem(k, es), unit);
    }
  }

  void store_row(const BoxRow& r, bool reduce, ReduceOp op) const {
    for (int64_t k = 0; k < r.elements; ++k) {
      if (!element_in_bounds(r, k)) continue;  // stores clip to the tensor's last 16-byte chunk
      uint8_t src[32];
      from_smem(r.element_smem(k, es), src);
      uint8_t* dst = global_at(element_global(r, k), es);
      if (reduce)  // an interleave unit holds several elements, each reduced on its own
        for (int b = 0; b < es; b += m.elem_bytes()) reduce_element(op, m.dtype, dst + b, src + b);
      else
        std::memcpy(dst, src, es);
    }
  }
};

}  // namespace

int64_t execute(const TensorMap& m, const TmaInstruction& ins, GlobalMemory g, SharedMemory s) {
  check_instruction(m, ins);
  if (ins.op == Op::prefetch) return 0;
  const int64_t end = ins.smem_offset + m.smem_footprint();
  if (end > static_cast<int64_t>(s.size))
    throw Fault(Fault::Kind::illegal_address,
                cat("the box needs shared memory up to byte ", end, "; the window has ", s.size));
  const uint32_t chunk = m.swizzle == Swizzle::b128_atom32_flip8 ? 8 : 16;
  Mover mv{m, g, s, m.row_unit_bytes(), m.oob_fill == OobFill::nan, chunk, dim0_reach(m, ins.op)};
  const auto move = [&](const BoxRow& r) {
    if (ins.op == Op::load)
      mv.load_row(r);
    else
      mv.store_row(r, ins.op == Op::reduce, ins.reduce_op);
  };
  // A box's rows lie far apart in a tensor far larger than the caches: each row's global bytes are
  // asked for kAhead rows before they are moved (the rows in a ring), so their misses overlap.
  constexpr size_t kAhead = 16;
  std::array<BoxRow, kAhead> ring;
  size_t seen = 0;
  for_each_row(m, ins, [&](const BoxRow& r) {
    if (seen >= kAhead) move(ring[seen % kAhead]);
    ring[seen++ % kAhead] = r;
    mv.prefetch_row(r);
  });
  for (size_t k = seen > kAhead ? seen - kAhead : 0; k < seen; ++k) move(ring[k % kAhead]);
  return ins.op == Op::load ? m.transaction_bytes() : 0;
}

}  // namespace tmasim
