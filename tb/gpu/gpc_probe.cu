// Where the H100 places clusters (issue 29: GPC-bound clusters). For each cluster size (1, 2, 4,
// 8, 16) and each CTA footprint (one CTA an SM by shared memory, or several), a grid of clusters
// whose CTAs record %smid, %clusterid, %cluster_ctarank and %globaltimer at their start and end,
// each spinning long enough that every cluster resident at once overlaps. From the records:
//   - the GPCs: SMs that ever share a cluster are in one GPC (a cluster never spans GPCs), so the
//     connected components over the cluster-16 and cluster-8 runs give each GPC's SMs;
//   - how many clusters run at once (the first wave) against cudaOccupancyMaxActiveClusters;
//   - the order the scheduler fills SMs in.
// Writes one JSON object a run to stdout. Every wait is bounded (the spin is by %globaltimer).
//   nvcc -O2 -std=c++17 -gencode=arch=compute_90a,code=sm_90a -o gpc_probe gpc_probe.cu
//   ./gpc_probe > gpc_probe.jsonl
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cluster_launch.cuh"
#include "probe_util.cuh"

struct Record {
  unsigned smid, cluster, rank, pad;
  unsigned long long start_ns, end_ns;
};

__device__ unsigned long long globaltimer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

__global__ void probe(Record* out, unsigned long long spin_ns) {
  extern __shared__ unsigned char smem[];
  const unsigned long long t0 = globaltimer();
  unsigned smid, cluster, rank;
  asm volatile("mov.u32 %0, %%smid;" : "=r"(smid));
  asm volatile("mov.u32 %0, %%clusterid.x;" : "=r"(cluster));
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  smem[threadIdx.x] = static_cast<unsigned char>(smid);  // the shared memory is the CTA's footprint
  unsigned long long t = t0;
  while (t - t0 < spin_ns) t = globaltimer();
  if (threadIdx.x == 0) out[blockIdx.x] = Record{smid, cluster, rank, smem[0], t0, t};
}

int main() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  CK(cudaFuncSetAttribute(probe, cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
  CK(cudaFuncSetAttribute(probe, cudaFuncAttributeMaxDynamicSharedMemorySize, 200 * 1024));
  const int sms = prop.multiProcessorCount;
  std::printf("{\"device\":\"%s\",\"sms\":%d,\"l2_bytes\":%d}\n", prop.name, sms, prop.l2CacheSize);
  Record* d = nullptr;
  const int max_ctas = 8 * sms;
  CK(cudaMalloc(&d, sizeof(Record) * max_ctas));
  // smem 160 KiB: one CTA an SM; 48 KiB: four.
  for (int smem : {160 * 1024, 48 * 1024})
    for (int cluster : {1, 2, 4, 8, 16}) {
      const int per_sm = smem > 100 * 1024 ? 1 : 4;
      const int ctas = (2 * sms * per_sm + cluster - 1) / cluster * cluster;  // about two waves
      const ClusterLaunch l(ctas, 64, static_cast<size_t>(smem), cluster);
      const cudaLaunchConfig_t& cfg = l.cfg;
      int active = -1;
      const cudaError_t occ = cudaOccupancyMaxActiveClusters(&active, probe, &cfg);
      if (occ != cudaSuccess) active = -1;
      CK(cudaMemset(d, 0xff, sizeof(Record) * max_ctas));
      for (int rep = 0; rep < 2; ++rep) {  // the first launch warms up; the second is recorded
        const cudaError_t launch = cudaLaunchKernelEx(&cfg, probe, d, 200000ull);  // 200 us a CTA
        if (launch != cudaSuccess) {
          std::printf("{\"smem\":%d,\"cluster\":%d,\"launch_error\":\"%s\"}\n", smem, cluster, cudaGetErrorString(launch));
          cudaGetLastError();
          break;
        }
        CK(cudaDeviceSynchronize());
        if (rep == 0) continue;
        std::vector<Record> h(static_cast<size_t>(ctas));
        CK(cudaMemcpy(h.data(), d, sizeof(Record) * ctas, cudaMemcpyDeviceToHost));
        unsigned long long t0 = ~0ull;
        for (const Record& r : h) t0 = r.start_ns < t0 ? r.start_ns : t0;
        std::string s = "{\"smem\":" + std::to_string(smem) + ",\"cluster\":" + std::to_string(cluster) +
                        ",\"ctas\":" + std::to_string(ctas) + ",\"max_active_clusters\":" + std::to_string(active) +
                        ",\"records\":[";
        for (size_t i = 0; i < h.size(); ++i)
          s += (i ? "," : "") + std::string("[") + std::to_string(h[i].smid) + "," + std::to_string(h[i].cluster) + "," +
               std::to_string(h[i].rank) + "," + std::to_string(h[i].start_ns - t0) + "," +
               std::to_string(h[i].end_ns - t0) + "]";
        std::printf("%s]}\n", s.c_str());
      }
    }
  CK(cudaFree(d));
  return 0;
}
