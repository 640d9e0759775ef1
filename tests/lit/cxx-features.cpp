// C++ in target regions: std::vector storage mapped through .data(), a
// lambda defined and called inside a target region, a lambda captured by
// value from the host, a templated kernel function instantiated for several
// types, a class whose member function offloads on its own members, and
// operator overloading in device code.
// RUN: %clangxx-hetero -std=c++17 %s -o %t
// RUN: env HETERO_INFO=1 %compare-fallback %t 2>%t.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=INFO --implicit-check-not=error: < %t.err
// RUN: env HETERO_SIMULATE=2 HETERO_MEMBER=sim:0 HETERO_INFO=1 %compare-fallback %t 2>%t.sim.err | %FileCheck %s
// RUN: %FileCheck %s --check-prefix=SIM --implicit-check-not=error: --implicit-check-not=" on cpu" < %t.sim.err
// RUN: env HETERO_SIMULATE=2 %compare-fallback %t | %FileCheck %s
// CHECK: vector via data(): sum=1499500 ok
// CHECK: vectors in a data region: ok
// CHECK: lambda inside target: ok
// CHECK: lambda captured from the host: ok
// CHECK: template int: 3998000 ok
// CHECK: template double: 3998000 ok
// CHECK: template long: 3998000 ok
// CHECK: member function offload: 4 5 6 ok
// CHECK: operator overloading: 30 -6 ok
// CHECK: done failures=0
// INFO: hetero: launch {{.*}} {{(on (cpu|cuda:[0-9.]+) \(whole kernel:|split: )}}
// SIM: hetero: launch {{.*}} on sim:0 (whole kernel: pinned by HETERO_MEMBER)
#include <cstdio>
#include <vector>

static int failures;
static void check(const char *what, bool ok) {
  std::printf("%s: %s\n", what, ok ? "ok" : "FAIL");
  failures += !ok;
}

template <typename T> T scaled_sum(std::vector<T> &v, T factor) {
  T *p = v.data();
  size_t n = v.size();
  T sum = 0;
#pragma omp target teams distribute parallel for map(tofrom : p[0 : n])        \
    reduction(+ : sum)
  for (size_t i = 0; i < n; ++i) {
    p[i] = p[i] * factor;
    sum += p[i];
  }
  return sum;
}

struct Vec3 {
  long x, y, z;
};
#pragma omp declare target
static inline Vec3 operator+(const Vec3 &a, const Vec3 &b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
static inline long dot(const Vec3 &a, const Vec3 &b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
#pragma omp end declare target

class Field {
public:
  explicit Field(int n) : n_(n), values_(new int[n]) {
    for (int i = 0; i < n_; ++i)
      values_[i] = i;
  }
  ~Field() { delete[] values_; }
  Field(const Field &) = delete;
  Field &operator=(const Field &) = delete;
  void shift(int by) {
    int *v = values_;
    int n = n_;
#pragma omp target teams distribute parallel for map(tofrom : v[0 : n])        \
    firstprivate(by)
    for (int i = 0; i < n; ++i)
      v[i] += by;
  }
  int at(int i) const { return values_[i]; }

private:
  int n_;
  int *values_;
};

int main() {
  // std::vector storage through .data()
  std::vector<int> v(1000);
  for (int i = 0; i < 1000; ++i)
    v[i] = i;
  int *vp = v.data();
  long vsum = 0;
#pragma omp target teams distribute parallel for map(tofrom : vp[0 : 1000])    \
    reduction(+ : vsum)
  for (int i = 0; i < 1000; ++i) {
    vp[i] = 3 * vp[i] + 1;
    vsum += vp[i];
  }
  {
    bool ok = vsum == 1499500;
    for (int i = 0; i < 1000; ++i)
      ok = ok && v[i] == 3 * i + 1;
    std::printf("vector via data(): sum=%ld %s\n", vsum, ok ? "ok" : "FAIL");
    failures += !ok;
  }

  // Two vectors in a data region, several kernels.
  std::vector<double> a(2048, 1.0), b(2048);
  double *pa = a.data(), *pb = b.data();
  const size_t na = a.size();
#pragma omp target data map(to : pa[0 : na]) map(from : pb[0 : na])
  {
#pragma omp target teams distribute parallel for
    for (size_t i = 0; i < na; ++i)
      pb[i] = pa[i] + static_cast<double>(i);
#pragma omp target teams distribute parallel for
    for (size_t i = 0; i < na; ++i)
      pb[i] *= 0.5;
  }
  {
    bool ok = true;
    for (size_t i = 0; i < na; ++i)
      ok = ok && b[i] == (1.0 + i) * 0.5;
    check("vectors in a data region", ok);
  }

  // A lambda defined and used inside the target region.
  std::vector<int> out(500);
  int *po = out.data();
#pragma omp target teams distribute parallel for map(from : po[0 : 500])
  for (int i = 0; i < 500; ++i) {
    auto square_plus = [](int x, int y) { return x * x + y; };
    po[i] = square_plus(i, 7);
  }
  {
    bool ok = true;
    for (int i = 0; i < 500; ++i)
      ok = ok && out[i] == i * i + 7;
    check("lambda inside target", ok);
  }

  // A lambda created on the host, captured by value, called on the device.
  int base = 11, mul = 5;
  auto affine = [=](int x) { return mul * x + base; };
#pragma omp target teams distribute parallel for map(from : po[0 : 500])       \
    firstprivate(affine)
  for (int i = 0; i < 500; ++i)
    po[i] = affine(i);
  {
    bool ok = true;
    for (int i = 0; i < 500; ++i)
      ok = ok && out[i] == 5 * i + 11;
    check("lambda captured from the host", ok);
  }

  // A templated kernel, three instantiations.
  std::vector<int> ti(2000);
  std::vector<double> td(2000);
  std::vector<long> tl(2000);
  for (int i = 0; i < 2000; ++i) {
    ti[i] = i;
    td[i] = i;
    tl[i] = i;
  }
  int si = scaled_sum(ti, 2);
  double sd = scaled_sum(td, 2.0);
  long sl = scaled_sum(tl, 2L);
  bool oki = si == 3998000 && ti[1999] == 3998;
  bool okd = sd == 3998000.0 && td[1999] == 3998.0;
  bool okl = sl == 3998000 && tl[1999] == 3998;
  std::printf("template int: %d %s\n", si, oki ? "ok" : "FAIL");
  std::printf("template double: %.0f %s\n", sd, okd ? "ok" : "FAIL");
  std::printf("template long: %ld %s\n", sl, okl ? "ok" : "FAIL");
  failures += !oki + !okd + !okl;

  // A member function offloading on the object's own storage.
  Field f(16);
  f.shift(3);
  f.shift(1);
  std::printf("member function offload: %d %d %d %s\n", f.at(0), f.at(1),
              f.at(2), f.at(0) == 4 && f.at(15) == 19 ? "ok" : "FAIL");
  failures += !(f.at(0) == 4 && f.at(15) == 19);

  // Operator overloading and struct values in device code.
  Vec3 p{1, 2, 3}, q{4, 5, 6};
  long d1 = 0, d2 = 0;
#pragma omp target map(from : d1, d2)
  {
    Vec3 r = p + q;                 // (5, 7, 9)
    d1 = dot(r, Vec3{1, 1, 1}) + 9; // 30
    d2 = dot(p, Vec3{-1, -1, -1});  // -6
  }
  std::printf("operator overloading: %ld %ld %s\n", d1, d2,
              d1 == 30 && d2 == -6 ? "ok" : "FAIL");
  failures += !(d1 == 30 && d2 == -6);
  std::printf("done failures=%d\n", failures);
  return failures != 0;
}
