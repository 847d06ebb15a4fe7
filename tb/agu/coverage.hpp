// The testplan's coverage bins (docs/rtl_testplan.md lists the same names and goals) and what
// one box hits of them.
#pragma once
#include <cstdint>
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model.hpp"

namespace agu_tb {

struct Coverage {
  std::vector<std::pair<std::string, uint64_t>> plan;  // bin, goal
  std::map<std::string, uint64_t> hits;
  Coverage() {
    auto bin = [&](const std::string& b, uint64_t goal) { plan.emplace_back(b, goal); };
    for (int r = 1; r <= 5; ++r) bin("tiled.rank." + std::to_string(r), 100);
    for (const char* u : {"1", "2", "4", "8", "16i", "32i"}) bin(std::string("tiled.unit.") + u, 100);
    for (const char* s : {"none", "32B", "64B", "128B"}) bin(std::string("tiled.swizzle.") + s, 100);
    bin("tiled.swizzle.atom", 20);
    for (const char* b : {"1", "mid", "128"}) bin(std::string("tiled.row_beats.") + b, 10);
    for (const char* b : {"1", "mid", "256"}) bin(std::string("tiled.box_extent.") + b, 10);
    for (const char* b : {"1", "mid", "8"}) bin(std::string("tiled.elem_stride.") + b, 10);
    bin("tiled.elem_stride0.interleave>1", 10);
    for (const char* b : {"1", "max"}) bin(std::string("tiled.dim.") + b, 10);
    for (const char* b : {"min", "max"}) bin(std::string("tiled.stride.") + b, 10);
    for (const char* b : {"min", "zero", "max"}) bin(std::string("tiled.coord.") + b, 10);
    for (const char* b : {"none", "dim0_low", "dim0_high", "outer_low", "outer_high", "whole_box"})
      bin(std::string("tiled.oob.") + b, 10);
    bin("tiled.gaddr_wraps_2^48", 10);
    for (int r = 3; r <= 5; ++r) bin("im2col.rank." + std::to_string(r), 100);
    for (const char* b : {"16B", "32B", "held_outside"}) bin(std::string("im2col.interleave.") + b, 50);
    for (const char* e : {"1", "2", "4", "8"}) bin(std::string("im2col.elem.") + e, 100);
    for (const char* s : {"none", "32B", "64B", "128B"}) bin(std::string("im2col.swizzle.") + s, 50);
    for (const char* b : {"1", "mid", "1024"}) bin(std::string("im2col.pixels.") + b, 10);
    for (const char* b : {"1", "mid", "8"}) bin(std::string("im2col.traversal_stride.") + b, 10);
    for (const char* b : {"w", "h", "d", "image"}) bin(std::string("im2col.wrap.") + b, 10);
    for (const char* b : {"none", "spatial_low", "spatial_high", "image_low", "image_high", "channel", "channel_low"})
      bin(std::string("im2col.oob.") + b, 10);
    for (const char* b : {"min", "max"}) bin(std::string("im2col.corner.") + b, 10);
    for (const char* b : {"0", "max"}) bin(std::string("im2col.offset.") + b, 10);
    bin("im2col.dim.max", 10);
    bin("im2col.channels.max", 10);
    bin("im2col.coord.max", 10);
    for (const char* lane : {"tiled", "tiled_wide", "im2col", "im2col_wide"}) {
      const std::string l = lane;
      bin("proto." + l + ".back_to_back", 10);
      bin("proto." + l + ".zero_bubble", 10);
      bin("proto." + l + ".stall", 100);
      bin("proto." + l + ".stall_on_last", 10);
      if (l.find("wide") != std::string::npos)
        for (const char* b : {"1", "mid", "8"}) bin("proto." + l + ".chunks." + b, 10);
    }
    bin("proto.reset_mid_box", 5);
    bin("proto.reset_in_setup", 5);
  }
  void hit(const std::string& b) { ++hits[b]; }
  // Bins below their goal (unknown bins are a bench bug: they count as missed).
  int missed(bool wide, bool print) const {
    int n = 0;
    for (const auto& [b, goal] : plan) {
      if (!wide && b.find("wide") != std::string::npos) continue;
      const auto it = hits.find(b);
      const uint64_t got = it == hits.end() ? 0 : it->second;
      const bool ok = got >= goal;
      if (print) std::printf("  %-40s %10llu  goal %4llu %s\n", b.c_str(), (unsigned long long)got,
                             (unsigned long long)goal, ok ? "" : "  <-- below goal");
      n += !ok;
    }
    for (const auto& [b, count] : hits) {
      bool known = false;
      for (const auto& p : plan) known |= p.first == b;
      if (!known) {
        if (print) std::printf("  %-40s %10llu  NOT IN THE TESTPLAN\n", b.c_str(), (unsigned long long)count);
        ++n;
      }
    }
    return n;
  }
};

inline std::string mid_bin(int64_t v, int64_t lo, int64_t hi, const std::string& lo_name, const std::string& hi_name) {
  return v <= lo ? lo_name : v >= hi ? hi_name : "mid";
}

// ---- coverage of a box (from the map, the instruction and the model's rows)
inline void note_box(Coverage& cov, const TensorMap& m, const TmaInstruction& ins, const std::vector<std::vector<Piece>>& rows) {
  auto oob_kinds = [&]() {
    bool any = false, all = true;
    for (const auto& row : rows)
      for (const Piece& p : row) {
        any |= p.oob != 0;
        all &= p.oob == 0xffffu;
      }
    return std::pair<bool, bool>{any, all};
  };
  const auto [any_oob, all_oob] = oob_kinds();
  if (m.mode == TensorMode::im2col) {
    const int ns = m.rank - 2;
    const int eb = m.elem_bytes();
    cov.hit("im2col.rank." + std::to_string(m.rank));
    if (m.interleave != Interleave::none) {
      cov.hit(std::string("im2col.interleave.") + (m.interleave == Interleave::b16 ? "16B" : "32B"));
      const int h = m.rank - 2;
      if (ins.coords[h] < 0 || ins.coords[h] >= m.global_dims[h]) cov.hit("im2col.interleave.held_outside");
    }
    cov.hit("im2col.elem." + std::to_string(eb));
    cov.hit("im2col.swizzle." + std::string(m.swizzle == Swizzle::none ? "none" : m.swizzle == Swizzle::b32 ? "32B"
                                              : m.swizzle == Swizzle::b64 ? "64B" : "128B"));
    cov.hit("im2col.pixels." + mid_bin(m.pixels_per_column, 1, 1024, "1", "1024"));
    for (int d = 1; d < m.rank; ++d) cov.hit("im2col.traversal_stride." + mid_bin(m.element_strides[d], 1, 8, "1", "8"));
    const int64_t limit = m.rank == 3 ? 32768 : m.rank == 4 ? 128 : 16;
    for (int i = 0; i < ns; ++i) {
      for (int64_t v : {m.lower_corner[i], m.upper_corner[i]}) {
        if (v == -limit) cov.hit("im2col.corner.min");
        if (v == limit - 1) cov.hit("im2col.corner.max");
      }
      if (ins.im2col_offsets[i] == 0) cov.hit("im2col.offset.0");
      if (ins.im2col_offsets[i] >= 65000) cov.hit("im2col.offset.max");
      if (m.global_dims[i + 1] >= (int64_t(1) << 32) - 65536) cov.hit("im2col.dim.max");
      if (ins.coords[i + 1] >= INT32_MAX - 65536) cov.hit("im2col.coord.max");
    }
    // What the walk did, from the model's rows: wraps, and which side a pixel fell off.
    std::array<int64_t, 5> prev{};
    bool first = true;
    const char* wrap_name[] = {"w", "h", "d"};
    const int n_dim = m.rank - 1;
    int64_t k = 0;
    for_each_row(m, ins, [&](const BoxRow& row) {
      if (!first) {
        for (int i = 0; i < ns; ++i)
          if (row.coord[i + 1] < prev[i + 1]) cov.hit(std::string("im2col.wrap.") + wrap_name[i]);
        if (row.coord[n_dim] != prev[n_dim]) cov.hit("im2col.wrap.image");
      }
      first = false;
      prev = row.coord;
      for (int i = 0; i < ns; ++i) {
        if (row.coord[i + 1] < 0) cov.hit("im2col.oob.spatial_low");
        if (row.coord[i + 1] >= m.global_dims[i + 1]) cov.hit("im2col.oob.spatial_high");
      }
      if (row.coord[n_dim] < 0) cov.hit("im2col.oob.image_low");
      if (row.coord[n_dim] >= m.global_dims[n_dim]) cov.hit("im2col.oob.image_high");
      if (row.row_in_bounds && ins.coords[0] + m.channels_per_pixel > m.global_dims[0]) cov.hit("im2col.oob.channel");
      ++k;
    });
    if (!any_oob) cov.hit("im2col.oob.none");
    if (m.global_dims[0] >= (int64_t(1) << 32) - 65536) cov.hit("im2col.channels.max");
    if (ins.coords[0] < 0) cov.hit("im2col.oob.channel_low");
    return;
  }
  cov.hit("tiled.rank." + std::to_string(m.rank));
  const int unit = m.row_unit_bytes();
  cov.hit("tiled.unit." + std::to_string(unit) + (m.interleave != Interleave::none ? "i" : ""));
  cov.hit("tiled.swizzle." + std::string(m.swizzle == Swizzle::none ? "none" : m.swizzle == Swizzle::b32 ? "32B"
                                         : m.swizzle == Swizzle::b64 ? "64B" : m.swizzle == Swizzle::b128 ? "128B"
                                                                                                         : "atom"));
  cov.hit("tiled.row_beats." + mid_bin(m.inner_row_bytes() / 16, 1, 128, "1", "128"));
  if (m.interleave != Interleave::none && m.element_strides[0] > 1) cov.hit("tiled.elem_stride0.interleave>1");
  for (int d = 0; d < m.rank; ++d) {
    if (m.global_dims[d] == 1) cov.hit("tiled.dim.1");
    if (m.global_dims[d] >= (int64_t(1) << 32) - 65536) cov.hit("tiled.dim.max");
    if (ins.coords[d] <= INT32_MIN + 65536) cov.hit("tiled.coord.min");
    if (ins.coords[d] == 0) cov.hit("tiled.coord.zero");
    if (ins.coords[d] >= INT32_MAX - 65536) cov.hit("tiled.coord.max");
    if (d == 0) continue;
    cov.hit("tiled.box_extent." + mid_bin(m.box_dims[d], 1, 256, "1", "256"));
    cov.hit("tiled.elem_stride." + mid_bin(m.element_strides[d], 1, 8, "1", "8"));
    if (m.global_strides[d - 1] == 16) cov.hit("tiled.stride.min");
    if (m.global_strides[d - 1] >= (int64_t(1) << 40) - (int64_t(1) << 24)) cov.hit("tiled.stride.max");
    if (ins.coords[d] < 0) cov.hit("tiled.oob.outer_low");
    if (ins.coords[d] + (m.box_extent(d) - 1) * m.element_strides[d] >= m.global_dims[d]) cov.hit("tiled.oob.outer_high");
  }
  if (ins.coords[0] < 0) cov.hit("tiled.oob.dim0_low");
  const int64_t step0 = m.interleave == Interleave::none ? 1 : m.element_strides[0];
  if (ins.coords[0] + (m.box_extent(0) - 1) * step0 >= m.global_dims[0]) cov.hit("tiled.oob.dim0_high");
  if (all_oob) cov.hit("tiled.oob.whole_box");
  if (!any_oob) cov.hit("tiled.oob.none");
  bool wraps = false;  // some piece's address went past 2^48 (model arithmetic is 64-bit)
  for_each_row(m, ins, [&](const BoxRow& row) {
    const uint64_t a = m.global_address + static_cast<uint64_t>(row.global_offset);
    wraps |= (a >> 48) != 0 && (a >> 63) == 0;
  });
  if (wraps) cov.hit("tiled.gaddr_wraps_2^48");
}

}  // namespace agu_tb
