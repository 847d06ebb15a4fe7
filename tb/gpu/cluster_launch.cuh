// A cudaLaunchKernelEx configuration for clusters of `cluster` CTAs along x (what tma_ref and the
// gpc and launch probes launch with). Neither copied nor moved: the configuration points at its
// own attribute.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>

struct ClusterLaunch {
  cudaLaunchAttribute attr[1] = {};
  cudaLaunchConfig_t cfg = {};

  ClusterLaunch(int grid, int threads, size_t smem_bytes, int cluster) {
    cfg.gridDim = dim3(grid);
    cfg.blockDim = dim3(threads);
    cfg.dynamicSmemBytes = smem_bytes;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
  }
  ClusterLaunch(const ClusterLaunch&) = delete;
  ClusterLaunch& operator=(const ClusterLaunch&) = delete;
};
