// A minimal 3-vector usable on host and device. It is a plain aggregate so that
// arrays of it can be copied to the GPU byte for byte.
#pragma once

#include "meso_hd.hpp"

namespace meso {

template <class T>
struct Vec3 {
  T x, y, z;
};

template <class T>
MESO_HD Vec3<T> operator+(Vec3<T> a, Vec3<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T>
MESO_HD Vec3<T> operator-(Vec3<T> a, Vec3<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T>
MESO_HD Vec3<T> operator-(Vec3<T> a) { return {-a.x, -a.y, -a.z}; }
template <class T>
MESO_HD Vec3<T> operator*(T s, Vec3<T> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T>
MESO_HD Vec3<T>& operator+=(Vec3<T>& a, Vec3<T> b) { a.x += b.x; a.y += b.y; a.z += b.z; return a; }
template <class T>
MESO_HD Vec3<T>& operator-=(Vec3<T>& a, Vec3<T> b) { a.x -= b.x; a.y -= b.y; a.z -= b.z; return a; }
template <class T>
MESO_HD T dot(Vec3<T> a, Vec3<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Converts between storage precisions (e.g. float storage, double arithmetic).
template <class To, class From>
MESO_HD Vec3<To> vec_cast(Vec3<From> a) {
  return {static_cast<To>(a.x), static_cast<To>(a.y), static_cast<To>(a.z)};
}

using Vec3d = Vec3<double>;
using Vec3f = Vec3<float>;

}  // namespace meso
