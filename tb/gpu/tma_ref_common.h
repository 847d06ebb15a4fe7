// Host-side vocabulary of the H100 reference harness: tensor-map parameters as the
// driver takes them, their golden-case JSON names, and a tiny JSON line writer.
// Shared by the functional, pattern and timing parts of tma_ref.cu.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace ref {

using ll = long long;

enum DType {
  U8, U16, U32, I32, U64, I64, F16, F32, F64, BF16, F32FTZ, TF32, TF32FTZ,
  P4A8, P4A16, P6A16, kNumDTypes
};
inline const char* dtype_name(int d) {
  static const char* n[] = {"uint8",   "uint16",      "uint32",   "int32",        "uint64",
                            "int64",   "float16",     "float32",  "float64",      "bfloat16",
                            "float32_ftz", "tfloat32", "tfloat32_ftz", "16u4_align8b",
                            "16u4_align16b", "16u6_align16b"};
  return n[d];
}
// Bytes per element; packed types report the bytes of their 16-value group.
inline int dtype_bytes(int d) {
  static const int b[] = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4, 8, 16, 16};
  return b[d];
}
inline bool dtype_packed(int d) { return d >= P4A8; }
inline bool dtype_float(int d) { return d >= F16 && d <= TF32FTZ; }

inline const char* swizzle_name(int s) {
  static const char* n[] = {"none", "32b", "64b", "128b", "128b_atom_32b", "128b_atom_32b_flip_8b",
                            "128b_atom_64b"};
  return s >= 0 && s <= 6 ? n[s] : "invalid";
}
inline int swizzle_span(int s) { return s == 0 ? 0 : s == 1 ? 32 : s == 2 ? 64 : 128; }
inline const char* interleave_name(int i) {
  static const char* n[] = {"none", "16b", "32b"};
  return n[i];
}
inline const char* l2_name(int i) {
  static const char* n[] = {"none", "64b", "128b", "256b"};
  return i >= 0 && i <= 3 ? n[i] : "invalid";
}
inline const char* redop_name(int r) {
  static const char* n[] = {"add", "min", "max", "inc", "dec", "and", "or", "xor"};
  return n[r];
}
inline const char* op_name(int o) {
  static const char* n[] = {"load", "store", "reduce", "prefetch"};
  return n[o];
}

struct TMap {
  int mode = 0;  // 0 tiled, 1 im2col
  int dtype = F16;
  int rank = 2;
  ll dims[6] = {};
  ll strides[5] = {};  // bytes, dims 1..rank-1
  int box[6] = {};
  int lower[3] = {}, upper[3] = {};
  int cpp = 0, ppc = 0;
  int estr[6] = {1, 1, 1, 1, 1, 1};
  int inter = 0, swz = 0, l2 = 0, oob = 0;
};

// The global fill of golden-case.md section 1.
inline uint8_t fill_byte(uint64_t i) {
  return static_cast<uint8_t>((static_cast<uint32_t>(i * 2654435761ull)) >> 24);
}

class JsonLine {
 public:
  JsonLine& key(const char* k) {
    sep();
    s_ += '"';
    s_ += k;
    s_ += "\":";
    fresh_ = true;
    return *this;
  }
  JsonLine& str(const std::string& v) {
    s_ += '"';
    for (char c : v) {
      if (c == '"' || c == '\\') s_ += '\\';
      s_ += c;
    }
    s_ += '"';
    fresh_ = false;
    return *this;
  }
  JsonLine& num(ll v) {
    s_ += std::to_string(v);
    fresh_ = false;
    return *this;
  }
  JsonLine& real(double v) {
    char b[64];
    snprintf(b, sizeof b, "%.6g", v);
    s_ += b;
    fresh_ = false;
    return *this;
  }
  JsonLine& boolean(bool v) {
    s_ += v ? "true" : "false";
    fresh_ = false;
    return *this;
  }
  template <class T>
  JsonLine& arr(const T* v, int n) {
    s_ += '[';
    for (int i = 0; i < n; ++i) {
      if (i) s_ += ',';
      s_ += std::to_string(static_cast<ll>(v[i]));
    }
    s_ += ']';
    fresh_ = false;
    return *this;
  }
  JsonLine& raw(const std::string& v) {
    s_ += v;
    fresh_ = false;
    return *this;
  }
  JsonLine& open() {
    sep();
    s_ += '{';
    fresh_ = true;
    return *this;
  }
  JsonLine& close() {
    s_ += '}';
    fresh_ = false;
    return *this;
  }
  const std::string& text() const { return s_; }

 private:
  void sep() {
    if (!fresh_ && !s_.empty() && s_.back() != '{' && s_.back() != '[') s_ += ',';
  }
  std::string s_;
  bool fresh_ = true;
};

inline std::string tmap_json(const TMap& t) {
  JsonLine j;
  j.open();
  j.key("mode").str(t.mode ? "im2col" : "tiled");
  j.key("dtype").str(dtype_name(t.dtype));
  j.key("rank").num(t.rank);
  j.key("global_dims").arr(t.dims, t.rank);
  j.key("global_strides").arr(t.strides, t.rank > 1 ? t.rank - 1 : 0);
  if (t.mode == 0) {
    j.key("box_dims").arr(t.box, t.rank);
  } else {
    int n = t.rank >= 2 ? t.rank - 2 : 0;
    if (n > 3) n = 3;
    j.key("pixel_box_lower_corner").arr(t.lower, n);
    j.key("pixel_box_upper_corner").arr(t.upper, n);
    j.key("channels_per_pixel").num(t.cpp);
    j.key("pixels_per_column").num(t.ppc);
  }
  j.key("element_strides").arr(t.estr, t.rank);
  j.key("interleave").str(interleave_name(t.inter));
  j.key("swizzle").str(swizzle_name(t.swz));
  j.key("l2_promotion").str(l2_name(t.l2));
  j.key("oob_fill").str(t.oob ? "nan" : "zero");
  j.close();
  return j.text();
}

inline std::string to_hex(const uint8_t* p, size_t n) {
  static const char* d = "0123456789abcdef";
  std::string s(2 * n, '0');
  for (size_t i = 0; i < n; ++i) {
    s[2 * i] = d[p[i] >> 4];
    s[2 * i + 1] = d[p[i] & 15];
  }
  return s;
}

// Deterministic generator (splitmix64) so that two runs produce identical cases.
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  int range(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<uint64_t>(hi - lo + 1)); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[next() % v.size()]; }
};

}  // namespace ref
