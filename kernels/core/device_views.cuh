// Device-side views shared by the CUDA DPD kernels: the precision policies of
// the `precision` variant axis, the particle arrays, the cell grid and the
// neighbor-list layout. Plain structs passed to kernels by value.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>

#include "meso/core/box.hpp"
#include "meso/physics/quaternion.hpp"
#include "meso/physics/vec3.hpp"
#include "core/step_control.cuh"

namespace meso::cuda {

// A 32-byte aligned 4-vector of doubles (CUDA 13 deprecates double4; see
// ARCHITECTURE.md, "Toolchain notes"). Loaded as two 16-byte vector loads.
struct alignas(32) Double4 {
  double x, y, z, w;
};

// Precision policies (the `precision` axis; ARCHITECTURE.md, "Backends and
// variants"). S4 is the storage
// of positions, velocities and forces (w of a position holds the type); A is
// the arithmetic of the pair evaluator.
//   double: fp64 storage and arithmetic.
//   mixed:  fp32 storage and loads (positions relative to the box centre,
//           which is the origin), fp64 pair arithmetic, accumulation,
//           reductions and integration (HOOMD-blue's mixed mode).
//   single: fp32 storage and fp32 pair arithmetic and accumulation.
struct PrecDouble {
  using S4 = Double4;
  using A = double;
  static constexpr const char* name = "double";
};
struct PrecMixed {
  using S4 = float4;
  using A = double;
  static constexpr const char* name = "mixed";
};
struct PrecSingle {
  using S4 = float4;
  using A = float;
  static constexpr const char* name = "single";
};

__device__ __forceinline__ Double4 ldg4(const Double4* p) {
  const double2 a = __ldg(reinterpret_cast<const double2*>(p));
  const double2 b = __ldg(reinterpret_cast<const double2*>(p) + 1);
  return {a.x, a.y, b.x, b.y};
}
__device__ __forceinline__ float4 ldg4(const float4* p) { return __ldg(p); }

template <class S4>
__host__ __device__ __forceinline__ Vec3d xyz(const S4& v) {
  return {static_cast<double>(v.x), static_cast<double>(v.y), static_cast<double>(v.z)};
}
template <class S4>
__host__ __device__ __forceinline__ S4 make4(const Vec3d& v, double w) {
  using T = decltype(S4{}.x);
  return S4{static_cast<T>(v.x), static_cast<T>(v.y), static_cast<T>(v.z), static_cast<T>(w)};
}
template <class S4>
__host__ __device__ __forceinline__ uint32_t type_of(const S4& pos) {
  return static_cast<uint32_t>(pos.w);
}

// Minimum image in arithmetic type A (float for fp32 kernels), from the same
// rint rule as Box::min_image so that both sides of a pair are antisymmetric.
template <class A>
struct MinImage {
  A lx, ly, lz, ilx, ily, ilz;
  __host__ __device__ explicit MinImage(const Box& b) {
    const Vec3d L = b.lengths();
    lx = A(L.x), ly = A(L.y), lz = A(L.z);
    ilx = A(1.0 / L.x), ily = A(1.0 / L.y), ilz = A(1.0 / L.z);
  }
  __device__ static A rnd(A x) {
    if constexpr (sizeof(A) == 4) return rintf(x);
    else return rint(x);
  }
  __device__ void apply(A& x, A& y, A& z) const {
    x -= lx * rnd(x * ilx);
    y -= ly * rnd(y * ily);
    z -= lz * rnd(z * ilz);
  }
};

// Arithmetic of the neighbor-list builders: that of the stored positions.
// fp32 storage builds in fp32 (twice the rate of fp64 on H100/H200); the list
// radius is then widened by 2^-20 relative so that rounding can only add
// pairs, never drop one (see neighbor_list.cuh).
template <class S4>
using BuildReal = decltype(S4{}.x);

// Per-particle arrays of one precision. Local particles only (single rank).
template <class S4>
struct ParticleView {
  S4* pos;       // x, y, z, type
  S4* vel;       // vx, vy, vz, 0
  S4* force;     // fx, fy, fz, 0
  S4* vel_pred;  // Groot-Warren predicted velocity (nullptr for velocity Verlet)
  uint32_t* tag;
  Image* image;
  uint32_t* signature;  // TEA signatures (nullptr for philox)
  S4* last_pos;         // positions at the last neighbor-list build
  uint32_t n;           // local particles (the rest are ghosts)
  uint32_t n_all;       // local particles and ghosts: what a list entry can name
};

// The orientational arrays of rotational particles, in the storage
// precision, beside ParticleView (null pointers for isotropic systems): the
// body-to-space quaternion (x, y, z = its vector part, w = its scalar part),
// the body-frame angular momentum, the principal moments of inertia and the
// space-frame torque the forces write (w unused).
template <class S4>
struct RotationalView {
  S4* orient = nullptr;
  S4* angmom = nullptr;
  S4* inertia = nullptr;
  S4* torque = nullptr;
};

template <class S4>
__host__ __device__ __forceinline__ Quatd quat_of(const S4& q) {
  return {static_cast<double>(q.w), {static_cast<double>(q.x), static_cast<double>(q.y), static_cast<double>(q.z)}};
}
template <class S4>
__host__ __device__ __forceinline__ S4 make_quat4(const Quatd& q) {
  return make4<S4>(q.v, q.s);
}

// Regular grid of cells of at least r_list on a side, row-major ids
// (z * ny + y) * nx + x, identical to the reference CellList so that cell
// membership agrees bit for bit. On several ranks the grid is the range of
// the global periodic grid that the rank's domain and ghost layers touch
// (meso::md_cell_range): along such an axis n < g, and a particle's cell is
// its global cell counted from `first`; positions stay global (wrapped),
// and the lists take pairs by minimum image.
struct CellGrid {
  int nx, ny, nz;                 // cells of this grid (of the rank's range)
  double lo_x, lo_y, lo_z;        // the global box's lower corner
  double inv_wx, inv_wy, inv_wz;  // global cells per unit length
  int gx, gy, gz;                 // cells of the global grid (n == g: the whole axis)
  int first_x, first_y, first_z;  // the range's first global cell (0 on a whole axis)

  __host__ __device__ uint32_t ncells() const { return uint32_t(nx) * uint32_t(ny) * uint32_t(nz); }
  // Whether some axis holds a range only: its stencil wraps within the
  // range, so image shifts taken from cell wraps would be wrong there.
  __host__ __device__ bool ranged() const { return nx < gx || ny < gy || nz < gz; }
  // Bin of x along one axis in cells of 1/sub of a cell: global, clamped to
  // [0, g sub), then counted from first (a position just outside the range,
  // by rounding, goes to the nearer end).
  __host__ __device__ static int bin(double x, double lo, double inv_w, int g, int first, int n, int sub = 1) {
    const double f = floor((x - lo) * inv_w * sub);
    const int top = g * sub - 1;
    const int b = f < 0.0 ? 0 : (f >= double(top) ? top : int(f));
    if (n == g) return b;
    int l = b - first * sub;
    if (l < 0) l += g * sub;
    const int end = n * sub;
    return l < end ? l : (l - end < g * sub - l ? end - 1 : 0);
  }
  __host__ __device__ int bin_x(double x, int sub = 1) const { return bin(x, lo_x, inv_wx, gx, first_x, nx, sub); }
  __host__ __device__ int bin_y(double y, int sub = 1) const { return bin(y, lo_y, inv_wy, gy, first_y, ny, sub); }
  __host__ __device__ int bin_z(double z, int sub = 1) const { return bin(z, lo_z, inv_wz, gz, first_z, nz, sub); }
  __host__ __device__ uint32_t cell_of(const Vec3d& r) const {
    const int cx = bin_x(r.x), cy = bin_y(r.y), cz = bin_z(r.z);
    return uint32_t((cz * ny + cy) * nx + cx);
  }
  // Offsets of the neighbouring cells along one axis: {-1, 0, 1}, or fewer
  // when the axis has fewer than 3 cells so no cell appears twice.
  __host__ __device__ static void offsets(int n, int& lo, int& hi) {
    lo = n >= 3 ? -1 : 0;
    hi = n >= 2 ? 1 : 0;
  }
  // The k-th stencil cell of cell c (k < stencil_size()), in z-y-x order.
  __host__ __device__ int stencil_size() const {
    int a, b, s = 1;
    offsets(nx, a, b); s *= b - a + 1;
    offsets(ny, a, b); s *= b - a + 1;
    offsets(nz, a, b); s *= b - a + 1;
    return s;
  }
  __host__ __device__ uint32_t stencil_cell(uint32_t c, int k) const {
    int lx, hx, ly, hy, lz, hz;
    offsets(nx, lx, hx);
    offsets(ny, ly, hy);
    offsets(nz, lz, hz);
    const int wx = hx - lx + 1, wy = hy - ly + 1;
    const int dx = lx + k % wx, dy = ly + (k / wx) % wy, dz = lz + k / (wx * wy);
    const int cx = int(c % uint32_t(nx)), cy = int((c / uint32_t(nx)) % uint32_t(ny)),
              cz = int(c / uint32_t(nx * ny));
    const int x = (cx + dx + nx) % nx, y = (cy + dy + ny) % ny, z = (cz + dz + nz) % nz;
    return uint32_t((z * ny + y) * nx + x);
  }
};

// Cell membership, one layout for both cell-list variants: the members of
// cell c are members[begin(c) .. begin(c) + count[c]), in ascending particle
// index. atomic: begin(c) = c * cap (row-major cell matrix); sorted: begin
// from the boundaries of the radix-sorted cell keys.
struct CellView {
  const uint32_t* members;
  const uint32_t* start;  // nullptr: begin(c) = c * cap
  const uint32_t* count;
  uint32_t cap;
  __device__ uint32_t begin(uint32_t c) const { return start ? start[c] : c * cap; }
  __device__ uint32_t size(uint32_t c) const { return count[c]; }
};

// Full neighbor list: neighbor k of particle i is idx[at(i, k)]. Two layouts:
// - column-major (slot_stride = n rounded up to 32, particle_stride = 1), for
//   one thread per particle: consecutive threads read consecutive words;
// - row-major (slot_stride = 1, particle_stride = cap), for tpp > 1 lanes per
//   particle (HOOMD-blue's nlist layout): the lanes of one particle read and
//   the builder's lanes write consecutive words of its row.
//
// On several ranks `edge` flags the rows that may name a ghost (particles
// within r_c + skin of a face the rank shares, at the last build): a force
// launch may take the other rows (rows = 1) while the ghost update is in
// flight, then these (rows = 2). rows = 0 takes every row.
struct NlistView {
  uint32_t* idx;
  uint32_t* count;
  uint32_t slot_stride;
  uint32_t particle_stride;
  uint32_t cap;
  const uint8_t* edge = nullptr;
  uint32_t rows = 0;
  __host__ __device__ bool takes(uint32_t i) const { return rows == 0 || (edge[i] != 0) == (rows == 2); }
  __host__ __device__ size_t at(uint32_t i, uint32_t k) const {
    return size_t(k) * slot_stride + size_t(i) * particle_stride;
  }
};

}  // namespace meso::cuda
