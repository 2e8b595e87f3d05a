// Border selection, compaction, packing and unpacking for domain
// decomposition (domain_storage.cuh). Every kernel is one thread per
// particle or record; records are doubles in the layouts of
// meso/ops/domain_storage.hpp, written in full precision so that a round
// trip through a record is exact for every storage precision.
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include "domain/domain_storage.cuh"
#include "core/launch.cuh"
#include "meso/cuda/check.hpp"
#include "meso/ops/domain_storage.hpp"
#include "meso/physics/tea.hpp"

namespace meso::cuda {
namespace {

constexpr uint32_t kBlock = 256;

__device__ __forceinline__ double coord(const Vec3d& r, int axis) { return axis == 0 ? r.x : axis == 1 ? r.y : r.z; }

// The coordinate relative to lo, folded into [0, length) (DomainSlab::offset).
__device__ __forceinline__ double offset(const SlabArgs& s, double x) {
  double u = x - s.lo;
  if (u < 0.0) u += s.length;
  if (u >= s.length) u -= s.length;
  return u;
}

template <class S4>
__global__ void leavers_kernel(const S4* __restrict__ pos, uint32_t n, SlabArgs s, uint8_t* __restrict__ code) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const double u = offset(s, coord(xyz(pos[i]), s.axis)), width = s.hi - s.lo;
  // Outside: towards lo when the way back (length - u) is the shorter.
  code[i] = u < width ? 0 : (s.length - u) < (u - width) ? 1 : 2;
}

template <class S4>
__global__ void ghosts_kernel(const S4* __restrict__ pos, uint32_t n_all, SlabArgs s, bool one,
                              uint8_t* __restrict__ code) {
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_all) return;
  const double u = offset(s, coord(xyz(pos[i]), s.axis)), width = s.hi - s.lo;
  const bool near_lo = u < s.width, near_hi = u >= width - s.width && u < width;
  code[i] = one ? uint8_t(near_lo || near_hi) : uint8_t(near_lo) | uint8_t(near_hi << 1);
}

struct Matches {
  const uint8_t* code;
  CodeMatch m;
  __device__ bool operator()(uint32_t i) const { return ((code[i] & m.mask) == m.want) != m.negate; }
};

// The velocity of record slot 3..5: what the forces read.
template <class S4>
__device__ __forceinline__ Vec3d forces_velocity(const ParticleView<S4>& p, uint32_t i, bool from_pred) {
  return xyz(from_pred ? p.vel_pred[i] : p.vel[i]);
}

template <class S4>
__global__ void pack_migrants_kernel(ParticleView<S4> p, const uint32_t* __restrict__ list, uint32_t m,
                                     double* __restrict__ out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const uint32_t i = list[k];
  const S4 r = p.pos[i];
  const Vec3d x = xyz(r), v = xyz(p.vel[i]);
  const Vec3d w = p.vel_pred ? xyz(p.vel_pred[i]) : v;
  const Image im = p.image[i];
  double* o = out + size_t(k) * DomainStorageOp::kMigrateRecord;
  o[0] = x.x, o[1] = x.y, o[2] = x.z, o[3] = v.x, o[4] = v.y, o[5] = v.z, o[6] = w.x, o[7] = w.y, o[8] = w.z;
  o[9] = im.x, o[10] = im.y, o[11] = im.z, o[12] = type_of(r), o[13] = p.tag[i];
}

template <class S4>
__global__ void pack_ghosts_kernel(ParticleView<S4> p, const uint32_t* __restrict__ list, uint32_t m, uint32_t size,
                                   bool from_pred, double* __restrict__ out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const uint32_t i = list[k];
  const S4 r = p.pos[i];
  const Vec3d x = xyz(r), v = forces_velocity(p, i, from_pred);
  double* o = out + size_t(k) * size;
  o[0] = x.x, o[1] = x.y, o[2] = x.z, o[3] = v.x, o[4] = v.y, o[5] = v.z;
  if (size == DomainStorageOp::kGhostRecord) o[6] = type_of(r), o[7] = p.tag[i];
}

template <class S4>
__device__ __forceinline__ void move_one(S4* a, uint32_t from, uint32_t to) {
  if (a) a[to] = a[from];
}

template <class S4>
__global__ void move_kernel(ParticleView<S4> p, const uint32_t* __restrict__ from, const uint32_t* __restrict__ to,
                            const uint32_t* __restrict__ count) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= *count) return;
  const uint32_t f = from[k], t = to[k];
  p.pos[t] = p.pos[f];
  p.vel[t] = p.vel[f];
  p.force[t] = p.force[f];
  p.last_pos[t] = p.last_pos[f];
  move_one(p.vel_pred, f, t);
  p.tag[t] = p.tag[f];
  p.image[t] = p.image[f];
  if (p.signature) p.signature[t] = p.signature[f];
}

// The signature of slot i from its stored velocity (the rounding the first
// half-step's write_signature sees).
template <class S4>
__device__ __forceinline__ void sign(ParticleView<S4> p, uint32_t i, const SignatureArgs& sg) {
  if (!sg.tea) return;
  const Vec3d v = xyz(sg.from_pred ? p.vel_pred[i] : p.vel[i]);
  p.signature[i] = physics::tea_signature_whitened(p.tag[i], float(v.x), float(v.y), float(v.z), sg.whitening);
}

template <class S4>
__global__ void unpack_migrants_kernel(ParticleView<S4> p, const double* __restrict__ in, uint32_t m, uint32_t at,
                                       SignatureArgs sg) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const double* r = in + size_t(k) * DomainStorageOp::kMigrateRecord;
  const uint32_t i = at + k;
  p.pos[i] = make4<S4>(Vec3d{r[0], r[1], r[2]}, r[12]);
  p.vel[i] = make4<S4>(Vec3d{r[3], r[4], r[5]}, 0.0);
  if (p.vel_pred) p.vel_pred[i] = make4<S4>(Vec3d{r[6], r[7], r[8]}, 0.0);
  p.image[i] = {int32_t(r[9]), int32_t(r[10]), int32_t(r[11])};
  p.tag[i] = uint32_t(r[13]);
  p.force[i] = make4<S4>(Vec3d{0.0, 0.0, 0.0}, 0.0);  // computed before the second half reads it
  sign(p, i, sg);
}

template <class S4>
__global__ void unpack_ghosts_kernel(ParticleView<S4> p, const double* __restrict__ in, uint32_t m, uint32_t size,
                                     uint32_t at, SignatureArgs sg) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const double* r = in + size_t(k) * size;
  const uint32_t i = at + k;
  const bool fresh = size == DomainStorageOp::kGhostRecord;
  const double type = fresh ? r[6] : double(type_of(p.pos[i]));
  p.pos[i] = make4<S4>(Vec3d{r[0], r[1], r[2]}, type);
  const S4 v = make4<S4>(Vec3d{r[3], r[4], r[5]}, 0.0);
  p.vel[i] = v;
  if (p.vel_pred) p.vel_pred[i] = v;
  if (fresh) {
    p.tag[i] = uint32_t(r[7]);
    p.image[i] = {0, 0, 0};
    p.force[i] = make4<S4>(Vec3d{0.0, 0.0, 0.0}, 0.0);
  }
  sign(p, i, sg);
}

__global__ void pack_updates_f32_kernel(ParticleView<float4> p, const uint32_t* __restrict__ list, uint32_t m,
                                        bool from_pred, float* __restrict__ out) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const uint32_t i = list[k];
  const float4 r = p.pos[i], v = from_pred ? p.vel_pred[i] : p.vel[i];
  float* o = out + size_t(k) * 6;
  o[0] = r.x, o[1] = r.y, o[2] = r.z, o[3] = v.x, o[4] = v.y, o[5] = v.z;
}

__global__ void unpack_updates_f32_kernel(ParticleView<float4> p, const float* __restrict__ in, uint32_t m, uint32_t at,
                                          SignatureArgs sg) {
  const uint32_t k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  const float* r = in + size_t(k) * 6;
  const uint32_t i = at + k;
  p.pos[i] = make_float4(r[0], r[1], r[2], p.pos[i].w);  // w: the type, kept
  const float4 v = make_float4(r[3], r[4], r[5], 0.0f);
  p.vel[i] = v;
  if (p.vel_pred) p.vel_pred[i] = v;
  sign(p, i, sg);
}

}  // namespace

void pack_updates_f32(ParticleView<float4> p, const uint32_t* list, uint32_t m, bool from_pred, float* out,
                      cudaStream_t st) {
  launch_per_item<kBlock>(pack_updates_f32_kernel, m, st, p, list, m, from_pred, out);
}

void unpack_updates_f32(ParticleView<float4> p, const float* in, uint32_t m, uint32_t at, SignatureArgs sg,
                        cudaStream_t st) {
  launch_per_item<kBlock>(unpack_updates_f32_kernel, m, st, p, in, m, at, sg);
}

template <class S4>
void classify_leavers(const S4* pos, uint32_t n, const SlabArgs& s, uint8_t* code, cudaStream_t st) {
  launch_per_item<kBlock>(leavers_kernel<S4>, n, st, pos, n, s, code);
}

template <class S4>
void classify_ghosts(const S4* pos, uint32_t n_all, const SlabArgs& s, bool one_neighbour, uint8_t* code,
                     cudaStream_t st) {
  launch_per_item<kBlock>(ghosts_kernel<S4>, n_all, st, pos, n_all, s, one_neighbour, code);
}

std::size_t select_temp_bytes(uint32_t n) {
  std::size_t bytes = 0;
  MESO_CUDA_CHECK(cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<uint32_t>(0),
                                        static_cast<uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                        int64_t(n), Matches{nullptr, {}}));
  return bytes;
}

void select_indices(const uint8_t* code, uint32_t begin, uint32_t end, CodeMatch m, uint32_t* out,
                    uint32_t* count, void* temp, std::size_t temp_bytes, cudaStream_t st) {
  if (end <= begin) {
    MESO_CUDA_CHECK(cudaMemsetAsync(count, 0, sizeof(uint32_t), st));
    return;
  }
  MESO_CUDA_CHECK(cub::DeviceSelect::If(temp, temp_bytes, thrust::counting_iterator<uint32_t>(begin), out, count,
                                        int64_t(end - begin), Matches{code, m}, st));
}

template <class S4>
void pack_migrants(ParticleView<S4> p, const uint32_t* list, uint32_t m, double* out, cudaStream_t st) {
  launch_per_item<kBlock>(pack_migrants_kernel<S4>, m, st, p, list, m, out);
}

template <class S4>
void pack_ghosts(ParticleView<S4> p, const uint32_t* list, uint32_t m, uint32_t size, bool from_pred, double* out,
                 cudaStream_t st) {
  launch_per_item<kBlock>(pack_ghosts_kernel<S4>, m, st, p, list, m, size, from_pred, out);
}

template <class S4>
void move_slots(ParticleView<S4> p, const uint32_t* from, const uint32_t* to, const uint32_t* count, uint32_t bound,
                cudaStream_t st) {
  launch_per_item<kBlock>(move_kernel<S4>, bound, st, p, from, to, count);
}

template <class S4>
void unpack_migrants(ParticleView<S4> p, const double* in, uint32_t m, uint32_t at, SignatureArgs sg,
                     cudaStream_t st) {
  launch_per_item<kBlock>(unpack_migrants_kernel<S4>, m, st, p, in, m, at, sg);
}

template <class S4>
void unpack_ghosts(ParticleView<S4> p, const double* in, uint32_t m, uint32_t size, uint32_t at, SignatureArgs sg,
                   cudaStream_t st) {
  launch_per_item<kBlock>(unpack_ghosts_kernel<S4>, m, st, p, in, m, size, at, sg);
}

#define MESO_INSTANTIATE(S4)                                                                                        \
  template void classify_leavers<S4>(const S4*, uint32_t, const SlabArgs&, uint8_t*, cudaStream_t);                 \
  template void classify_ghosts<S4>(const S4*, uint32_t, const SlabArgs&, bool, uint8_t*, cudaStream_t);            \
  template void pack_migrants<S4>(ParticleView<S4>, const uint32_t*, uint32_t, double*, cudaStream_t);              \
  template void pack_ghosts<S4>(ParticleView<S4>, const uint32_t*, uint32_t, uint32_t, bool, double*, cudaStream_t); \
  template void move_slots<S4>(ParticleView<S4>, const uint32_t*, const uint32_t*, const uint32_t*, uint32_t,      \
                               cudaStream_t);                                                                      \
  template void unpack_migrants<S4>(ParticleView<S4>, const double*, uint32_t, uint32_t, SignatureArgs,             \
                                    cudaStream_t);                                                                  \
  template void unpack_ghosts<S4>(ParticleView<S4>, const double*, uint32_t, uint32_t, uint32_t, SignatureArgs,     \
                                  cudaStream_t);
MESO_INSTANTIATE(Double4)
MESO_INSTANTIATE(float4)
#undef MESO_INSTANTIATE

}  // namespace meso::cuda
