// MESO_HD marks a function as callable from host and device code. Every
// physics formula in engine/include/meso/physics/ is written once with it, so the CPU
// reference backend and the CUDA kernels evaluate literally the same source.
#pragma once

#if defined(__CUDACC__)
#define MESO_HD __host__ __device__ __forceinline__
#else
#define MESO_HD inline
#endif
