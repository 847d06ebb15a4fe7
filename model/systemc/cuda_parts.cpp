// The scenario-independent host part of an emitted program, and its wgmma device functions
// (cuda_parts.hpp).
#include "cuda_parts.hpp"

#include "cuda_text.hpp"

namespace tmasim::sc {

namespace {

const char* ptx_type(MmaType t) {
  switch (t) {
    case MmaType::f16: return "f16";
    case MmaType::bf16: return "bf16";
    case MmaType::tf32: return "tf32";
    case MmaType::e4m3: return "e4m3";
    case MmaType::e5m2: return "e5m2";
  }
  return "";
}

std::string swizzle_enum(Swizzle s) {
  switch (s) {
    case Swizzle::none: return "CU_TENSOR_MAP_SWIZZLE_NONE";
    case Swizzle::b32: return "CU_TENSOR_MAP_SWIZZLE_32B";
    case Swizzle::b64: return "CU_TENSOR_MAP_SWIZZLE_64B";
    case Swizzle::b128: return "CU_TENSOR_MAP_SWIZZLE_128B";
    case Swizzle::b128_atom32: return "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B";
    case Swizzle::b128_atom32_flip8: return "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B";
    case Swizzle::b128_atom64: return "CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B";
  }
  return "";
}

}  // namespace

void emit_encode(std::ostream& os, const TensorMap& m, size_t k, const std::string& name) {
  const std::string t = "tm" + std::to_string(k);
  os << "  {\n"
      << "    const cuuint64_t dims[] = {" << list(m.global_dims) << "};\n"
      << "    const cuuint64_t strides[] = {" << list(m.global_strides) << "};\n"
      << "    const cuuint32_t es[] = {" << list(m.element_strides) << "};\n";
  const std::string tail = std::string("es, CU_TENSOR_MAP_INTERLEAVE_") +
                           (m.interleave == Interleave::none ? "NONE" : m.interleave == Interleave::b16 ? "16B" : "32B") +
                           ", " + swizzle_enum(m.swizzle) + ", CU_TENSOR_MAP_L2_PROMOTION_" +
                           (m.l2_promotion == L2Promotion::none ? "NONE" : m.l2_promotion == L2Promotion::b64 ? "L2_64B" :
                            m.l2_promotion == L2Promotion::b128 ? "L2_128B" : "L2_256B") +
                           ", CU_TENSOR_MAP_FLOAT_OOB_FILL_" + (m.oob_fill == OobFill::zero ? "NONE" : "NAN_REQUEST_ZERO_FMA");
  const std::string addr = "g + " + std::to_string(m.global_address);
  if (m.mode == TensorMode::tiled) {
    os << "    const cuuint32_t box[] = {" << list(m.box_dims) << "};\n"
        << "    r = encode_tiled(&" << t << ", " << driver_dtype(m.dtype) << ", " << m.rank << ", " << addr
        << ", dims, strides, box, " << tail << ");\n";
  } else {
    os << "    const int lo[] = {" << list(m.lower_corner) << "}, hi[] = {" << list(m.upper_corner) << "};\n"
        << "    r = encode_im2col(&" << t << ", " << driver_dtype(m.dtype) << ", " << m.rank << ", " << addr
        << ", dims, strides, lo, hi, " << m.channels_per_pixel << ", " << m.pixels_per_column << ", " << tail << ");\n";
  }
  os << "    if (r != CUDA_SUCCESS) fail_json(\"encode_error\", \"tensor '" << name
      << "': \" + std::to_string((int)r));\n  }\n";
}

std::string wgmma_function(const StepSpec& s) {
  return "wgmma_m64n" + std::to_string(s.mma_n) + "k" + std::to_string(s.mma_k) + "_" + ptx_type(s.mma_type) +
         (s.a_in_registers ? "_rs" : "_ss") + (s.a_mn_major && !s.a_in_registers ? "_at" : "") +
         (s.b_mn_major ? "_bt" : "");
}
// One wgmma.mma_async of the step's shape and type, D += A B with f32 accumulators:
// A by descriptor or in four registers, B by descriptor; an MN-major operand in shared memory is
// PTX's transposed one (imm-trans-a / imm-trans-b 1, 16-bit types only).
void emit_wgmma_function(std::ostream& os, const StepSpec& s) {
  const int n = s.mma_n / 2;
  const bool f16 = s.mma_type == MmaType::f16 || s.mma_type == MmaType::bf16;
  const std::string t = ptx_type(s.mma_type);
  os << "__device__ __forceinline__ void " << wgmma_function(s) << "(float* d, "
      << (s.a_in_registers ? "const uint32_t* a" : "uint64_t da") << ", uint64_t db) {\n"
      << "  asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, 1, 0;\\n\"\n"
      << "               \"wgmma.mma_async.sync.aligned.m64n" << s.mma_n << "k" << s.mma_k << ".f32." << t << "." << t << " {";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << "%" << i;
  os << "}, ";
  int next = n;
  if (s.a_in_registers) {
    os << "{%" << next << ", %" << next + 1 << ", %" << next + 2 << ", %" << next + 3 << "}, ";
    next += 4;
  } else {
    os << "%" << next++ << ", ";
  }
  const char* trans_a = s.a_mn_major ? "1" : "0";
  const char* trans_b = s.b_mn_major ? "1" : "0";
  os << "%" << next << ", p, 1, 1";
  if (f16 && !s.a_in_registers) os << ", " << trans_a;
  if (f16) os << ", " << trans_b;
  os << ";\\n}\\n\"\n               : ";
  for (int i = 0; i < n; ++i) os << (i ? ", " : "") << "\"+f\"(d[" << i << "])";
  os << "\n               : ";
  if (s.a_in_registers) os << "\"r\"(a[0]), \"r\"(a[1]), \"r\"(a[2]), \"r\"(a[3]), ";
  else os << "\"l\"(da), ";
  os << "\"l\"(db));\n}\n";
}

// The timed runs: per L2 state, an untimed warm-up and `reps` launches, the records gathered.
void emit_host_runs(std::ostream& os, size_t maps) {
  os << "  CtaRecord* d_ctas = nullptr;\n  WarpRecord* d_warps = nullptr;\n"
      << "  CK(cudaMalloc(&d_ctas, sizeof(CtaRecord) * kCtas));\n"
      << "  CK(cudaMalloc(&d_warps, sizeof(WarpRecord) * kCtas * kWarps));\n"
      << "  long long* d_stamps = nullptr;\n"
      << "  const size_t n_stamps = size_t(kCtas) * kWarps * kMaxStamps;\n"
      << "  CK(cudaMalloc(&d_stamps, sizeof(long long) * n_stamps));\n"
      << "  std::vector<long long> h_stamps(n_stamps);\n"
      << "  const int dyn = kSmemBytes + 1024;\n"
      << "  CK(cudaFuncSetAttribute(scenario_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, dyn));\n"
      << "  cudaLaunchConfig_t cfg = {};\n  cfg.gridDim = dim3(kCtas);\n  cfg.blockDim = dim3(kThreads);\n"
      << "  cfg.dynamicSmemBytes = dyn;\n"
      << "  cudaLaunchAttribute attr[1];\n  attr[0].id = cudaLaunchAttributeClusterDimension;\n"
      << "  attr[0].val.clusterDim.x = kClusterSize;\n  attr[0].val.clusterDim.y = 1;\n  attr[0].val.clusterDim.z = 1;\n"
      << "  cfg.attrs = attr;\n  cfg.numAttrs = kClusterSize > 1 ? 1 : 0;\n"
      << "  cudaEvent_t e0, e1;\n  CK(cudaEventCreate(&e0));\n  CK(cudaEventCreate(&e1));\n"
      << "  std::vector<CtaRecord> h_ctas(kCtas);\n  std::vector<WarpRecord> h_warps(size_t(kCtas) * kWarps);\n"
      << "  std::string json = std::string(\"{\\\"scenario\\\":\\\"\") + kScenarioName + \"\\\",\\\"device\\\":\\\"\" + prop.name +\n"
      << "      \"\\\",\\\"driver\\\":\" + std::to_string(driver) + \",\\\"sms\\\":\" + std::to_string(prop.multiProcessorCount) +\n"
      << "      \",\\\"ctas\\\":\" + std::to_string(kCtas) + \",\\\"warps_per_cta\\\":\" + std::to_string(kWarps) +\n"
      << "      \",\\\"reps\\\":\" + std::to_string(reps);\n"
      << "  std::vector<unsigned> smids(kCtas);\n"
      << "  // 0: cold L2 (a memset larger than L2 before each run leaves it full of dirty lines), 1: warm,\n"
      << "  // 2: cold and clean (the same memset, then a read of more than L2 writes those lines back)\n"
      << "  for (int mode = 0; mode < 3; ++mode) {\n"
      << "    std::vector<double> kernel_us, span_cycles, clock_mhz;\n"
      << "    std::vector<std::vector<double>> cta_cycles(kCtas), warp_cycles(size_t(kCtas) * kWarps), stamp_cycles(n_stamps);\n"
      << "    for (int rep = -1; rep < reps; ++rep) {  // rep -1: an untimed warm-up\n"
      << "      if (mode != 1) CK(cudaMemsetAsync(flush, rep & 0xff, flush_bytes));\n"
      << "      if (mode == 2) {\n"
      << "        tmasim_cuda::read_global<<<1024, 256>>>(reinterpret_cast<const uint4*>(flush),\n"
      << "                                                (size_t(prop.l2CacheSize) + (32u << 20)) / 16, sink);\n"
      << "        CK(cudaGetLastError());\n"
      << "      }\n"
      << "      CK(cudaMemsetAsync(d_ctas, 0, sizeof(CtaRecord) * kCtas));\n"
      << "      CK(cudaMemsetAsync(d_warps, 0, sizeof(WarpRecord) * kCtas * kWarps));\n"
      << "      CK(cudaMemsetAsync(d_stamps, 0, sizeof(long long) * n_stamps));\n"
      << "      CK(cudaEventRecord(e0));\n"
      << "      CK(cudaLaunchKernelEx(&cfg, scenario_kernel, ";
  for (size_t k = 0; k < maps; ++k) os << "tm" << k << ", ";
  os << "d_ctas, d_warps, d_stamps));\n"
      << "      CK(cudaGetLastError());\n"
      << "      CK(cudaEventRecord(e1));\n"
      << "      CK(cudaEventSynchronize(e1));\n"
      << "      CK(cudaDeviceSynchronize());\n"
      << "      float ms = 0;\n      CK(cudaEventElapsedTime(&ms, e0, e1));\n"
      << "      CK(cudaMemcpy(h_ctas.data(), d_ctas, sizeof(CtaRecord) * kCtas, cudaMemcpyDeviceToHost));\n"
      << "      CK(cudaMemcpy(h_warps.data(), d_warps, sizeof(WarpRecord) * kCtas * kWarps, cudaMemcpyDeviceToHost));\n"
      << "      for (int c = 0; c < kCtas; ++c)\n"
      << "        if (h_ctas[c].hang_warp >= 0)\n"
      << "          fail_json(\"hang\", \"CTA \" + std::to_string(c) + \" warp \" + std::to_string(h_ctas[c].hang_warp) +\n"
      << "                              \" timed out at step \" + std::to_string(h_ctas[c].hang_step));\n"
      << "      if (rep < 0) continue;\n"
      << "      CK(cudaMemcpy(h_stamps.data(), d_stamps, sizeof(long long) * n_stamps, cudaMemcpyDeviceToHost));\n"
      << "      for (size_t i = 0; i < n_stamps; ++i) if (h_stamps[i]) stamp_cycles[i].push_back(double(h_stamps[i]));\n"
      << "      kernel_us.push_back(ms * 1000.0);\n"
      << "      unsigned long long g0t = ~0ull, g1t = 0;\n"
      << "      double cyc = 0, ns = 0;\n"
      << "      for (int c = 0; c < kCtas; ++c) {\n"
      << "        const CtaRecord& x = h_ctas[c];\n"
      << "        cta_cycles[c].push_back(double(x.end - x.start));\n"
      << "        g0t = std::min(g0t, x.gstart);\n        g1t = std::max(g1t, x.gend);\n"
      << "        cyc += double(x.end - x.start);\n        ns += double(x.gend - x.gstart);\n"
      << "        smids[c] = x.smid;\n"
      << "        for (int w = 0; w < kWarps; ++w) {\n"
      << "          const WarpRecord& y = h_warps[size_t(c) * kWarps + w];\n"
      << "          warp_cycles[size_t(c) * kWarps + w].push_back(double(y.end - y.start));\n"
      << "        }\n"
      << "      }\n"
      << "      const double mhz = ns > 0 ? cyc / ns * 1000.0 : 0;\n"
      << "      clock_mhz.push_back(mhz);\n"
      << "      span_cycles.push_back(double(g1t - g0t) * mhz / 1000.0);\n"
      << "    }\n";
}

// The JSON of the result file: per L2 state the medians and the SMs its last launch ran the CTAs on,
// then those of the last launch of all (the cold_clean state's).
void emit_host_results(std::ostream& os) {
  os << "    auto st = [](const char* k, const Stat& s) {\n"
      << "      char b[256];\n"
      << "      std::snprintf(b, sizeof b, \"\\\"%s\\\":{\\\"median\\\":%.6g,\\\"min\\\":%.6g,\\\"max\\\":%.6g}\", k, s.median, s.min, s.max);\n"
      << "      return std::string(b);\n"
      << "    };\n"
      << "    json += std::string(\",\\\"\") + (mode == 0 ? \"cold\" : mode == 1 ? \"warm\" : \"cold_clean\") + \"\\\":{\" + st(\"kernel_us\", stat_of(kernel_us)) + \",\" +\n"
      << "            st(\"span_cycles\", stat_of(span_cycles)) + \",\" + st(\"clock_mhz\", stat_of(clock_mhz)) + \",\\\"cta_cycles\\\":[\";\n"
      << "    for (int c = 0; c < kCtas; ++c) json += (c ? \",\" : \"\") + std::to_string((long long)median_of(cta_cycles[c]));\n"
      << "    json += \"],\\\"warp_cycles\\\":[\";\n"
      << "    for (int c = 0; c < kCtas; ++c) {\n"
      << "      json += c ? \",[\" : \"[\";\n"
      << "      for (int w = 0; w < kWarps; ++w) json += (w ? \",\" : \"\") + std::to_string((long long)median_of(warp_cycles[size_t(c) * kWarps + w]));\n"
      << "      json += \"]\";\n"
      << "    }\n"
      << "    json += \"],\\\"smid\\\":[\";  // this state's last launch (warm launches keep one placement)\n"
      << "    for (int c = 0; c < kCtas; ++c) json += (c ? \",\" : \"\") + std::to_string(smids[c]);\n"
      << "    json += \"]\";\n"
      << "    if (kStamps) {  // per CTA, per warp: the cycles of its stamp steps since the CTA's start\n"
      << "      json += \",\\\"stamps\\\":[\";\n"
      << "      for (int c = 0; c < kCtas; ++c) {\n"
      << "        json += c ? \",[\" : \"[\";\n"
      << "        for (int w = 0; w < kWarps; ++w) {\n"
      << "          json += w ? \",[\" : \"[\";\n"
      << "          for (int k = 0; k < kMaxStamps; ++k) {\n"
      << "            const auto& v = stamp_cycles[(size_t(c) * kWarps + w) * kMaxStamps + k];\n"
      << "            if (v.empty()) break;\n"
      << "            json += (k ? \",\" : \"\") + std::to_string((long long)median_of(v));\n"
      << "          }\n"
      << "          json += \"]\";\n"
      << "        }\n"
      << "        json += \"]\";\n"
      << "      }\n"
      << "      json += \"]\";\n"
      << "    }\n"
      << "    json += \"}\";\n"
      << "  }\n"
      << "  json += \",\\\"smid\\\":[\";\n"
      << "  for (int c = 0; c < kCtas; ++c) json += (c ? \",\" : \"\") + std::to_string(smids[c]);\n"
      << "  json += \"]}\\n\";\n"
      << "  FILE* f = g_out_path ? std::fopen(g_out_path, \"w\") : stdout;\n"
      << "  if (!f) { std::perror(g_out_path); return 2; }\n"
      << "  std::fputs(json.c_str(), f);\n"
      << "  if (f != stdout) std::fclose(f);\n"
      << "  return 0;\n"
      << "}\n";
}

}  // namespace tmasim::sc
