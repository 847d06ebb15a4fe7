// Functional coverage model of the harness's input space (issue 11), in the manner of a
// verification testplan: coverpoints over one TMA case (mode, rank, element type,
// interleave, swizzle, element strides and out-of-bound side per dimension, ragged row
// ends, base and destination alignment, operation, im2col corners, offsets and channel
// alignment) and the crosses that matter. The same model
//   - steers the random generator of the coverage capture towards bins still below target,
//   - and, given the capture's records, reports how often the H100 answered each bin.
// A bin is *hit* by a case the GPU answered conclusively (a copy, or a trap the model
// judges: illegal instruction, misaligned address); a bin whose every case the driver
// refused is *unreachable* with the driver's result; any other bin under the minimum is
// *empty*, a failure of the capture.
// Host-only C++17: the harness includes it, and so does tb/gpu/coverage_tool.cpp, which
// CI builds to check the committed report against the committed capture.
#pragma once
#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "tma_cases.h"

namespace ref {

constexpr int kCoverMinHits = 3;

struct Coverpoint {
  std::string name, what;
  std::vector<std::string> bins;
};

// Where a dimension's box lies against the tensor: inside, over the low edge, over the
// high edge, over both, or wholly outside.
inline const char* oob_side(ll first, ll last, ll dim) {
  if (last < 0 || first >= dim) return "outside";
  if (first < 0 && last >= dim) return "both";
  if (first < 0) return "low";
  if (last >= dim) return "high";
  return "none";
}

inline std::vector<std::string> concat(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

inline const char* stride_bin(int s) { return s == 1 ? "1" : s == 2 ? "2" : "gt2"; }
inline const char* sign_bin(int v) { return v < 0 ? "neg" : v == 0 ? "zero" : "pos"; }

inline std::string op_bin(const Case& c) {
  if (c.op == 0 && c.mcast > 1) return "multicast." + std::to_string(c.mcast);
  if (c.op == 2) return std::string("reduce.") + redop_name(c.redop);
  return op_name(c.op);
}

// The first and last coordinate the box touches in dimension d of a tiled map.
inline void tiled_extent(const Case& c, int d, ll* first, ll* last) {
  const TMap& t = c.tm;
  int s = (d == 0 && t.inter == 0) ? 1 : t.estr[d];
  ll n = (t.box[d] + s - 1) / s;
  if (t.inter && t.rank >= 3 && d == t.rank - 2) n = 1;  // the C/8 dimension takes one index
  *first = c.coords[d];
  *last = c.coords[d] + (n - 1) * s;
}

// How the tensor's row (dimension 0) ends against the box: the box stays inside, or it
// runs past the end, which falls on a 16-byte chunk boundary of global memory or inside one.
inline const char* row_end_bin(const Case& c) {
  ll first, last;
  tiled_extent(c, 0, &first, &last);
  if (last < c.tm.dims[0]) return "inside";
  return (c.tm.dims[0] * dtype_bytes(c.tm.dtype)) % 16 ? "clipped_mid_chunk" : "clipped_on_chunk";
}

// Whether the im2col pixel walk of the case leaves its first image.
inline bool im2col_crosses_image(const Case& c) {
  const TMap& t = c.tm;
  int ns = t.rank - 2;
  ll pos[3], lo[3], hi[3];
  for (int i = 0; i < ns; ++i) {
    pos[i] = c.coords[i + 1];
    lo[i] = t.lower[i];
    hi[i] = t.dims[i + 1] - 1 + t.upper[i];
  }
  for (int p = 1; p < t.ppc; ++p) {
    int i = 0;
    for (; i < ns; ++i) {
      pos[i] += t.estr[i + 1];
      if (pos[i] <= hi[i]) break;
      pos[i] = lo[i];
    }
    if (i == ns) return true;
  }
  return false;
}

inline bool im2col_start_inside(const Case& c) {
  for (int i = 0; i < c.tm.rank - 2; ++i) {
    ll lo = c.tm.lower[i], hi = c.tm.dims[i + 1] - 1 + c.tm.upper[i];
    if (c.coords[i + 1] < lo || c.coords[i + 1] > hi) return false;
  }
  return true;
}

class CoverageModel {
 public:
  CoverageModel() {
    std::vector<std::string> dtypes, dtypes_unpacked, swz4, ops, redops;
    for (int d = 0; d < kNumDTypes; ++d) dtypes.push_back(dtype_name(d));
    for (int d = 0; d < P4A8; ++d) dtypes_unpacked.push_back(dtype_name(d));
    for (int s = 0; s <= 3; ++s) swz4.push_back(swizzle_name(s));
    for (int r = 0; r < 8; ++r) redops.push_back(std::string("reduce.") + redop_name(r));
    ops = {"load", "store"};
    ops.insert(ops.end(), redops.begin(), redops.end());
    ops.insert(ops.end(), {"prefetch", "multicast.2", "multicast.4"});

    add("mode_rank", "mode and tensor rank", {"tiled.1", "tiled.2", "tiled.3", "tiled.4", "tiled.5", "im2col.3",
                                               "im2col.4", "im2col.5"});
    add("dtype", "element type, any mode", dtypes);
    add("interleave", "interleave, any mode", {"none", "16b", "32b"});
    std::vector<std::string> swz7;
    for (int s = 0; s <= 6; ++s) swz7.push_back(swizzle_name(s));
    add("swizzle", "swizzle, any mode", swz7);
    add("l2_promotion", "L2 promotion, any mode", {"none", "64b", "128b", "256b"});
    add("oob_fill_x_dtype", "out-of-bound fill x element type", cross({"zero", "nan"}, dtypes_unpacked));
    add("gbase_align", "largest power of two (<= 256) dividing the global base", {"16", "32", "64", "128", "256"});
    add("smem_align", "destination/source offset alignment", {"128", "not128"});
    add("op", "operation (tiled)", ops);
    add("op_x_dtype", "store and each reduction x element type (tiled)",
        cross(concat({"store"}, redops), dtypes_unpacked));
    for (int d = 0; d < 5; ++d)
      add("estride_d" + std::to_string(d), "element stride of dimension " + std::to_string(d) + " (tiled)",
          {"1", "2", "gt2"});
    for (int d = 0; d < 5; ++d)
      add("oob_d" + std::to_string(d), "box against the tensor in dimension " + std::to_string(d) + " (tiled)",
          {"none", "low", "high", "both", "outside"});
    add("dim0_bytes", "global extent of dimension 0 in bytes (tiled)", {"mult16", "not16"});
    std::vector<std::string> offs;
    for (int o = 0; o < 1024; o += 128) offs.push_back(std::to_string(o));
    add("swizzle_x_smem_offset", "swizzle x 128-byte-aligned offset within a 1024-byte repeat (tiled)", cross(swz4, offs));
    add("op_x_row_end", "operation x how the tensor's row ends against the box (tiled)",
        cross(concat({"load", "store"}, redops), {"inside", "clipped_on_chunk", "clipped_mid_chunk"}));
    add("store_x_esize_x_row_end", "stores: element size x row end inside a 16-byte chunk",
        cross({"1", "2", "4", "8"}, {"clipped_mid_chunk"}));
    std::vector<std::string> dims5{"d0", "d1", "d2", "d3", "d4"};
    add("interleave_x_estride", "interleave x dimension x element stride (tiled)",
        cross(cross({"16b", "32b"}, dims5), {"1", "2", "gt2"}));
    add("interleave_x_rank", "interleave x rank (tiled)", cross({"16b", "32b"}, {"1", "2", "3", "4", "5"}));
    add("interleave_x_op", "interleave x operation (tiled)",
        cross({"16b", "32b"}, {"load", "store", "reduce.add", "prefetch"}));
    add("interleave_x_oob", "interleave x some dimension out of bounds (tiled)", cross({"16b", "32b"}, {"inside", "oob"}));
    add("im2col_dtype", "im2col: element type", dtypes_unpacked);
    for (int i = 0; i < 3; ++i)
      add("im2col_corner_d" + std::to_string(i), "im2col: lower x upper corner sign, spatial dimension " + std::to_string(i),
          cross({"neg", "zero", "pos"}, {"neg", "zero", "pos"}));
    add("im2col_offsets", "im2col: offset per spatial dimension", cross({"d0", "d1", "d2"}, {"zero", "pos"}));
    add("im2col_channel_align", "im2col: element size x channel start 16-byte aligned",
        cross({"1", "2", "4", "8"}, {"aligned", "unaligned"}));
    add("im2col_swizzle_x_channel_align", "im2col: swizzle x channel start alignment", cross(swz4, {"aligned", "unaligned"}));
    add("im2col_channels", "im2col: channels past the end of dimension 0", {"inside", "past_end"});
    add("im2col_interleave_x_swizzle", "im2col: interleave x swizzle", cross({"none", "16b", "32b"}, swz4));
    add("im2col_estride", "im2col: traversal stride of spatial dimension 0 and of N",
        {"w.1", "w.2", "w.gt2", "n.1", "n.gt1"});
    add("im2col_start", "im2col: start pixel against the bounding box", {"inside", "outside"});
    add("im2col_pixels", "im2col: the pixel walk", {"one_image", "crosses_image"});
  }

  const std::vector<Coverpoint>& points() const { return points_; }

  // Every bin the case hits, as "coverpoint:bin".
  std::vector<std::string> hits(const Case& c) const {
    std::vector<std::string> h;
    auto hit = [&](const std::string& cp, const std::string& bin) { h.push_back(cp + ":" + bin); };
    const TMap& t = c.tm;
    const int es = dtype_bytes(t.dtype);
    hit("mode_rank", std::string(t.mode ? "im2col." : "tiled.") + std::to_string(t.rank));
    hit("dtype", dtype_name(t.dtype));
    hit("interleave", interleave_name(t.inter));
    hit("swizzle", swizzle_name(t.swz));
    hit("l2_promotion", l2_name(t.l2));
    if (!dtype_packed(t.dtype)) hit("oob_fill_x_dtype", std::string(t.oob ? "nan." : "zero.") + dtype_name(t.dtype));
    int ga = 16;
    while (ga < 256 && c.gbase % (2 * ga) == 0) ga *= 2;
    if (c.gbase % 16 == 0) hit("gbase_align", std::to_string(ga));
    hit("smem_align", c.smem_offset % 128 ? "not128" : "128");
    if (c.encode_only) return h;
    if (t.mode == 0) {
      const std::string op = op_bin(c);
      hit("op", op);
      if ((c.op == 1 || c.op == 2) && !dtype_packed(t.dtype)) hit("op_x_dtype", op + "." + dtype_name(t.dtype));
      bool any_oob = false;
      for (int d = 0; d < t.rank; ++d) {
        hit("estride_d" + std::to_string(d), stride_bin(t.estr[d]));
        ll first, last;
        tiled_extent(c, d, &first, &last);
        const char* side = oob_side(first, last, t.dims[d]);
        any_oob |= side[0] != 'n';
        hit("oob_d" + std::to_string(d), side);
        if (t.inter) hit("interleave_x_estride", std::string(interleave_name(t.inter)) + ".d" + std::to_string(d) + "." +
                                                     stride_bin(t.estr[d]));
      }
      hit("dim0_bytes", (t.dims[0] * es) % 16 ? "not16" : "mult16");
      if (t.swz <= 3 && c.smem_offset % 128 == 0)
        hit("swizzle_x_smem_offset", std::string(swizzle_name(t.swz)) + "." + std::to_string(c.smem_offset % 1024));
      const char* row_end = row_end_bin(c);
      if (c.op <= 2 && c.mcast == 1) hit("op_x_row_end", op + "." + row_end);
      if (c.op == 1 && std::string(row_end) == "clipped_mid_chunk") hit("store_x_esize_x_row_end", std::to_string(es) + "." + row_end);
      if (t.inter) {
        hit("interleave_x_rank", std::string(interleave_name(t.inter)) + "." + std::to_string(t.rank));
        if (op == "load" || op == "store" || op == "reduce.add" || op == "prefetch")
          hit("interleave_x_op", std::string(interleave_name(t.inter)) + "." + op);
        hit("interleave_x_oob", std::string(interleave_name(t.inter)) + (any_oob ? ".oob" : ".inside"));
      }
      return h;
    }
    if (!dtype_packed(t.dtype)) hit("im2col_dtype", dtype_name(t.dtype));
    const int ns = t.rank - 2;
    for (int i = 0; i < ns && i < 3; ++i) {
      hit("im2col_corner_d" + std::to_string(i), std::string(sign_bin(t.lower[i])) + "." + sign_bin(t.upper[i]));
      hit("im2col_offsets", "d" + std::to_string(i) + (c.offs[i] ? ".pos" : ".zero"));
    }
    const char* align = (ll(c.coords[0]) * es) % 16 ? "unaligned" : "aligned";
    if (es <= 8) hit("im2col_channel_align", std::to_string(es) + "." + align);
    if (t.swz <= 3) hit("im2col_swizzle_x_channel_align", std::string(swizzle_name(t.swz)) + "." + align);
    hit("im2col_channels", c.coords[0] + t.cpp > t.dims[0] ? "past_end" : "inside");
    if (t.swz <= 3) hit("im2col_interleave_x_swizzle", std::string(interleave_name(t.inter)) + "." + swizzle_name(t.swz));
    hit("im2col_estride", std::string("w.") + stride_bin(t.estr[1]));
    hit("im2col_estride", t.estr[t.rank - 1] > 1 ? "n.gt1" : "n.1");
    const bool inside = im2col_start_inside(c);
    hit("im2col_start", inside ? "inside" : "outside");
    if (inside) hit("im2col_pixels", im2col_crosses_image(c) ? "crosses_image" : "one_image");
    return h;
  }

 private:
  static std::vector<std::string> cross(const std::vector<std::string>& a, const std::vector<std::string>& b) {
    std::vector<std::string> out;
    for (auto& x : a)
      for (auto& y : b) out.push_back(x + "." + y);
    return out;
  }
  void add(const std::string& name, const std::string& what, const std::vector<std::string>& bins) {
    points_.push_back(Coverpoint{name, what, bins});
  }
  std::vector<Coverpoint> points_;
};

// What the GPU answered for one case, read from its record line.
enum class Answer { copied, trapped, rejected, inconclusive };

inline std::string json_string_field(const std::string& line, const std::string& key) {
  const std::string k = "\"" + key + "\":\"";
  size_t p = line.find(k);
  if (p == std::string::npos) return "";
  p += k.size();
  size_t e = line.find('"', p);
  return e == std::string::npos ? "" : line.substr(p, e - p);
}

inline Answer classify(const std::string& line, std::string* detail) {
  const std::string enc = json_string_field(line, "encode_result");
  if (enc != "CUDA_SUCCESS") {
    *detail = enc;
    return Answer::rejected;
  }
  if (line.find("\"coords\"") == std::string::npos) {  // an encode-only case the driver accepted
    *detail = "accepted";
    return Answer::copied;
  }
  const std::string err = json_string_field(line, "launch_error");
  if (!err.empty()) {
    *detail = err;
    return err == "cudaErrorIllegalInstruction" || err == "cudaErrorMisalignedAddress" ? Answer::trapped
                                                                                          : Answer::inconclusive;
  }
  if (line.find("\"skipped\"") != std::string::npos || line.find("\"hang\":true") != std::string::npos) {
    *detail = "inconclusive";
    return Answer::inconclusive;
  }
  *detail = "copied";
  return Answer::copied;
}

struct BinTally {
  int hits = 0, trapped = 0, rejected = 0, inconclusive = 0;
  std::set<std::string> reasons;
};

// The coverage report of a capture: one line per bin. Returns the number of empty bins
// (reachable, or never tried, and hit fewer than kCoverMinHits times).
inline int coverage_report(const std::vector<Case>& cases, const std::vector<std::string>& records, FILE* out) {
  CoverageModel model;
  std::map<std::string, const Case*> by_name;
  for (const Case& c : cases) by_name[c.name] = &c;
  std::map<std::string, BinTally> tally;
  int answers[4] = {};
  int unknown = 0;
  for (const std::string& line : records) {
    const std::string name = json_string_field(line, "name");
    auto it = by_name.find(name);
    if (it == by_name.end()) {
      ++unknown;
      continue;
    }
    std::string detail;
    const Answer a = classify(line, &detail);
    ++answers[static_cast<int>(a)];
    for (const std::string& b : model.hits(*it->second)) {
      BinTally& bt = tally[b];
      if (a == Answer::copied || a == Answer::trapped) ++bt.hits;
      if (a == Answer::trapped) ++bt.trapped;
      if (a == Answer::rejected) {
        ++bt.rejected;
        bt.reasons.insert(detail);
      }
      if (a == Answer::inconclusive) ++bt.inconclusive;
    }
  }
  int bins = 0, covered = 0, unreachable = 0, empty = 0;
  std::string body;
  char line[512];
  for (const Coverpoint& cp : model.points()) {
    snprintf(line, sizeof line, "\n%s: %s\n", cp.name.c_str(), cp.what.c_str());
    body += line;
    for (const std::string& b : cp.bins) {
      ++bins;
      const BinTally& bt = tally[cp.name + ":" + b];
      std::string verdict;
      if (bt.hits >= kCoverMinHits) {
        ++covered;
        verdict = "covered";
      } else if (bt.hits == 0 && bt.rejected > 0 && bt.inconclusive == 0) {
        ++unreachable;
        verdict = "unreachable: the driver refused every encode (";
        for (auto& r : bt.reasons) verdict += (verdict.back() == '(' ? "" : ", ") + r;
        verdict += ")";
      } else {
        ++empty;
        verdict = "EMPTY";
      }
      snprintf(line, sizeof line, "  %-26s hits %4d (%4d trapped)  rejected %4d  inconclusive %3d  %s\n", b.c_str(),
               bt.hits, bt.trapped, bt.rejected, bt.inconclusive, verdict.c_str());
      body += line;
    }
  }
  fprintf(out, "coverage of %zu records: %d copied, %d trapped, %d rejected by the driver, %d inconclusive",
          records.size(), answers[0], answers[1], answers[2], answers[3]);
  if (unknown) fprintf(out, ", %d not in the case list", unknown);
  fprintf(out, "\nbins: %d; covered (>= %d hits) %d, unreachable %d, empty %d\n", bins, kCoverMinHits, covered,
          unreachable, empty);
  fputs(body.c_str(), out);
  return empty + (unknown ? 1 : 0);
}

}  // namespace ref
