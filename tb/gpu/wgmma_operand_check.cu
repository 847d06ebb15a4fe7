// What wgmma computes from the shared-memory descriptors `tmasim cuda` emits (gmma_desc of
// model/cuda/prelude.cuh, K advanced as cuda_emit.cpp advances it), checked on the H100 against a
// host reference: D = A B for A 64x64 and B 64x128 (float16 small integers, so f32 sums are exact).
// Each operand is K-major or MN-major, written by TMA boxes with the 128B or 64B swizzle as a
// scenario's loads write it (an MN-major operand as span-wide chunks `leading` bytes apart), and
// wgmma m64n128k16 walk K as far as both operands hold it. Prints one JSON line per case: {"case", "ok", "mismatches", ...}.
//   nvcc -arch=sm_90a -std=c++17 -O2 -o wgmma_operand_check tb/gpu/wgmma_operand_check.cu
static const char* kScenarioName = "wgmma_operand_check";
constexpr long long kTimeoutCycles = 2000000000LL;
#include "../../model/cuda/ptx_common.cuh"
#include "../../model/cuda/prelude.cuh"

#include <cuda_fp16.h>

using namespace tmasim_cuda;

constexpr int M = 64, N = 128, K = 64, K16 = 16;

template <int TransA, int TransB>
__device__ __forceinline__ void wgmma_m64n128k16_f16_ss(float* d, uint64_t da, uint64_t db) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, 1, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63}, %64, %65, p, 1, 1, %66, %67;\n}\n"
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]), "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]), "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]), "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]), "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]), "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]), "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
               : "l"(da), "l"(db), "n"(TransA), "n"(TransB));
}

struct Layout {
  bool mn_major;
  int swizzle_bytes;     // 64 or 128
  uint32_t leading;      // MN-major: bytes from one span-wide chunk to the next
};
__host__ __device__ constexpr int layout_type(int swizzle_bytes) { return swizzle_bytes == 128 ? 1 : swizzle_bytes == 64 ? 2 : 3; }
__host__ __device__ constexpr int chunk_elements(const Layout& l) { return l.swizzle_bytes / 2; }

// The descriptor of wgmma j (K from 16 j) as cuda_emit.cpp writes it.
__device__ uint64_t operand_desc(uint32_t base, const Layout& l, int j) {
  const uint32_t span = l.swizzle_bytes;
  if (l.mn_major) return gmma_desc(base + j * K16 * span, layout_type(span), 8 * span, l.leading);
  return gmma_desc(base + j * K16 * 2, layout_type(span), 8 * span);
}

template <int TA, int TB>
__global__ void __launch_bounds__(128, 1) check_kernel(const __grid_constant__ CUtensorMap tm_a,
                                                       const __grid_constant__ CUtensorMap tm_b, Layout la, Layout lb,
                                                       uint32_t a_bytes, uint32_t b_bytes, int ksteps, float* out, int* timed_out) {
  extern __shared__ __align__(1024) unsigned char smem_raw[];
  unsigned char* smem = reinterpret_cast<unsigned char*>((reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~uintptr_t(1023));
  __shared__ __align__(8) uint64_t bar;
  const uint32_t mb = smem_u32(&bar), a = smem_u32(smem), b = a + 32768;
  if (threadIdx.x == 0) {
    mbar_init(mb, 1);
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mbar_arrive_expect_tx(mb, a_bytes + b_bytes);
    // A: one box (K-major: 64 K x 64 rows; MN-major: chunks of the span's M, 64 K rows each).
    const int a_chunks = la.mn_major ? M / chunk_elements(la) : 1;
    for (int c = 0; c < a_chunks; ++c) {
      const int xy[2] = {la.mn_major ? c * chunk_elements(la) : 0, 0};
      tma_load<2>(a + c * la.leading, &tm_a, mb, xy);
    }
    const int b_chunks = lb.mn_major ? N / chunk_elements(lb) : 1;
    for (int c = 0; c < b_chunks; ++c) {
      const int xy[2] = {lb.mn_major ? c * chunk_elements(lb) : 0, 0};
      tma_load<2>(b + c * lb.leading, &tm_b, mb, xy);
    }
  }
  if (!mbar_wait(mb, 0)) {
    atomicAdd(timed_out, 1);
    return;
  }
  float acc[N / 2];
  for (float& x : acc) x = 0.f;
  wgmma_fence();
  for (int j = 0; j < ksteps; ++j) wgmma_m64n128k16_f16_ss<TA, TB>(acc, operand_desc(a, la, j), operand_desc(b, lb, j));
  wgmma_commit();
  wgmma_wait<0>();
  // The f32 accumulator fragment of m64nNk16 (PTX ISA, "Matrix Fragments for wgmma.mma_async.m64nNk16").
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  for (int i = 0; i < N / 2; ++i) {
    const int row = warp * 16 + lane / 4 + 8 * ((i / 2) % 2);
    const int col = (i / 4) * 8 + (lane % 4) * 2 + (i % 2);
    out[row * N + col] = acc[i];
  }
}

static EncodeTiledFn encode_tiled() { return reinterpret_cast<EncodeTiledFn>(driver_entry("cuTensorMapEncodeTiled")); }

// A 2D f16 map of a row-major [rows][cols] array, boxes of box_cols x box_rows.
static CUtensorMap make_map(void* p, int rows, int cols, int box_cols, int box_rows, int swizzle_bytes) {
  CUtensorMap m;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(cols) * 2};
  const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)}, el[2] = {1, 1};
  const CUtensorMapSwizzle sw = swizzle_bytes == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B;
  const CUresult r = encode_tiled()(&m, CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, p, dims, strides, box, el,
                                    CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                    CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) fail_json("launch_error", "cuTensorMapEncodeTiled failed");
  return m;
}

struct Case {
  const char* name;
  Layout a, b;
};

int main() {
  // A[m][k], B[k][n]: small integers, exact in f16 and in f32 sums.
  std::vector<float> A(M * K), B(K * N), ref(M * N, 0.f);
  for (int m = 0; m < M; ++m)
    for (int k = 0; k < K; ++k) A[m * K + k] = float((m * 7 + k * 3) % 5 - 2);
  for (int k = 0; k < K; ++k)
    for (int n = 0; n < N; ++n) B[k * N + n] = float((k * 5 + n * 11) % 7 - 3);
  for (int m = 0; m < M; ++m)
    for (int n = 0; n < N; ++n)
      for (int k = 0; k < K; ++k) ref[m * N + n] += A[m * K + k] * B[k * N + n];
  const Case cases[] = {
      {"a_k128_b_k128", {false, 128, 0}, {false, 128, 0}},
      {"a_k128_b_mn128_lead8192", {false, 128, 0}, {true, 128, 8192}},
      {"a_k128_b_mn128_lead16384", {false, 128, 0}, {true, 128, 16384}},
      {"a_k128_b_mn64_lead4096", {false, 128, 0}, {true, 64, 4096}},
      {"a_k128_b_mn64_lead8192", {false, 128, 0}, {true, 64, 8192}},
      {"a_mn128_b_k128", {true, 128, 0}, {false, 128, 0}},
      {"a_mn64_lead4096_b_mn128_lead8192", {true, 64, 4096}, {true, 128, 8192}},
      {"a_k64_b_k64", {false, 64, 0}, {false, 64, 0}},
  };
  float* d_out = nullptr;
  int* d_timed_out = nullptr;
  __half *d_a = nullptr, *d_b = nullptr;
  CK(cudaMalloc(&d_out, sizeof(float) * M * N));
  CK(cudaMalloc(&d_timed_out, sizeof(int)));
  CK(cudaMalloc(&d_a, sizeof(__half) * M * K));
  CK(cudaMalloc(&d_b, sizeof(__half) * K * N));
  const int smem = 32768 + 65536 + 1024;
  for (const Case& c : cases) {
    // The operands as they lie in global memory: K-major A [m][k], MN-major A [k][m]; K-major B [n][k], MN-major B [k][n].
    std::vector<__half> ga(M * K), gb(K * N);
    for (int m = 0; m < M; ++m)
      for (int k = 0; k < K; ++k) ga[c.a.mn_major ? k * M + m : m * K + k] = __float2half(A[m * K + k]);
    for (int k = 0; k < K; ++k)
      for (int n = 0; n < N; ++n) gb[c.b.mn_major ? k * N + n : n * K + k] = __float2half(B[k * N + n]);
    CK(cudaMemcpy(d_a, ga.data(), sizeof(__half) * ga.size(), cudaMemcpyHostToDevice));
    CK(cudaMemcpy(d_b, gb.data(), sizeof(__half) * gb.size(), cudaMemcpyHostToDevice));
    const int ca = chunk_elements(c.a), cb = chunk_elements(c.b);
    // K-major: boxes of the span's K (one per span; the cases keep K within 64 = one 128B span or
    // two 64B spans, so a 64B K-major operand takes K in two boxes: not exercised, K-major 64B uses 32-element K).
    const CUtensorMap tm_a = c.a.mn_major ? make_map(d_a, K, M, ca, K, c.a.swizzle_bytes)
                                          : make_map(d_a, M, K, ca, M, c.a.swizzle_bytes);
    const CUtensorMap tm_b = c.b.mn_major ? make_map(d_b, K, N, cb, K, c.b.swizzle_bytes)
                                          : make_map(d_b, N, K, cb, N, c.b.swizzle_bytes);
    // A K-major operand holds one span of K (32 elements with the 64B swizzle): as a scenario's step,
    // the wgmma walk K inside it (K/16 of them MN-major, where K runs along the rows).
    const int k_used = std::min(c.a.mn_major ? K : ca, c.b.mn_major ? K : cb);
    const uint32_t a_bytes = c.a.mn_major ? M * K * 2 : M * ca * 2, b_bytes = c.b.mn_major ? K * N * 2 : N * cb * 2;
    CK(cudaMemset(d_out, 0xff, sizeof(float) * M * N));
    CK(cudaMemset(d_timed_out, 0, sizeof(int)));
    auto launch = [&](auto kernel) {
      CK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
      kernel<<<1, 128, smem>>>(tm_a, tm_b, c.a, c.b, a_bytes, b_bytes, k_used / K16, d_out, d_timed_out);
    };
    if (c.a.mn_major && c.b.mn_major) launch(check_kernel<1, 1>);
    else if (c.a.mn_major) launch(check_kernel<1, 0>);
    else if (c.b.mn_major) launch(check_kernel<0, 1>);
    else launch(check_kernel<0, 0>);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<float> got(M * N);
    int timed_out = 0;
    CK(cudaMemcpy(got.data(), d_out, sizeof(float) * got.size(), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&timed_out, d_timed_out, sizeof(int), cudaMemcpyDeviceToHost));
    int mismatches = 0;
    double max_err = 0;
    for (int m = 0; m < M; ++m)
      for (int n = 0; n < N; ++n) {
        float r = 0.f;
        for (int k = 0; k < k_used; ++k) r += A[m * K + k] * B[k * N + n];
        const double e = std::abs(double(got[m * N + n]) - r);
        max_err = std::max(max_err, e);
        mismatches += e > 0.0;
      }
    std::printf("{\"case\": \"%s\", \"ok\": %s, \"mismatches\": %d, \"max_abs_error\": %g, \"timed_out\": %d}\n", c.name,
                mismatches == 0 && timed_out == 0 ? "true" : "false", mismatches, max_err, timed_out);
  }
  return 0;
}
