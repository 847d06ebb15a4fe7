// What the H100 probes of tb/gpu (gpc, smem, partition, half-capacity) share: a CUDA call that fails
// ends the probe with one JSON error line, the SM a thread runs on, and the device line a probe
// that needs the whole chip opens its output with.
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

#define CK(x)                                                                          \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::printf("{\"error\":\"%s at line %d\"}\n", cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

__device__ inline unsigned smid() {
  unsigned s;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
  return s;
}

// Ends the probe unless device 0 has `sms` SMs; prints {"device": ..., "l2_bytes": ...}.
inline void require_sms_and_print_device(int sms) {
  int found = 0;
  CK(cudaDeviceGetAttribute(&found, cudaDevAttrMultiProcessorCount, 0));
  if (found != sms) {
    std::printf("{\"error\":\"expected %d SMs, found %d\"}\n", sms, found);
    std::exit(1);
  }
  cudaDeviceProp prop{};
  CK(cudaGetDeviceProperties(&prop, 0));
  std::printf("{\"device\":\"%s\",\"l2_bytes\":%d}\n", prop.name, prop.l2CacheSize);
}
