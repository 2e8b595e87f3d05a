// Reference solvent storage for domain decomposition: plain loops over
// CpuMpcd's arrays. Stayers keep their order (a stable compaction); arrivals
// are appended in message order.
#include "meso/reference/mpcd_domain.hpp"

#include "meso/core/error.hpp"
#include "meso/ops/mpcd.hpp"
#include "meso/reference/cpu_context.hpp"

namespace meso::reference {
namespace {

template <class Real>
class CpuMpcdDomain final : public MpcdDomainOp {
 public:
  explicit CpuMpcdDomain(CpuContext<Real>& c) : s_(c.mpcd) {}

  void take_leavers(const DomainSlab& sl, Records& to_lo, Records& to_hi) override {
    s_.require_loaded("mpcd/domain");
    const double width = sl.hi - sl.lo;
    std::size_t keep = 0;
    for (std::size_t i = 0; i < s_.size(); ++i) {
      const Vec3d r = vec_cast<double>(s_.pos[i]);
      const double u = sl.offset(sl.axis == 0 ? r.x : sl.axis == 1 ? r.y : r.z);
      if (u < width) {
        if (keep != i) {
          s_.pos[keep] = s_.pos[i];
          s_.vel[keep] = s_.vel[i];
          s_.type[keep] = s_.type[i];
          s_.tag[keep] = s_.tag[i];
          s_.image[keep] = s_.image[i];
        }
        ++keep;
        continue;
      }
      // Outside: towards lo when the way back (length - u) is the shorter.
      Records& out = (sl.length - u) < (u - width) ? to_lo : to_hi;
      const Vec3d v = vec_cast<double>(s_.vel[i]);
      const Image im = s_.image[i];
      const double rec[kRecord] = {r.x,         r.y,         r.z,         v.x,
                                   v.y,         v.z,         double(im.x), double(im.y),
                                   double(im.z), double(s_.type[i]), double(s_.tag[i])};
      out.insert(out.end(), rec, rec + kRecord);
    }
    resize(keep);
  }

  void add_locals(const Records& rec) override {
    if (rec.size() % kRecord != 0)
      throw_input_error("a solvent migration message of ", rec.size(), " values is not a whole number of ", kRecord,
                        "-value records");
    const std::size_t n0 = s_.size(), m = rec.size() / kRecord;
    resize(n0 + m);
    for (std::size_t k = 0; k < m; ++k) {
      const double* r = rec.data() + k * kRecord;
      const std::size_t i = n0 + k;
      s_.pos[i] = vec_cast<Real>(Vec3d{r[0], r[1], r[2]});
      s_.vel[i] = vec_cast<Real>(Vec3d{r[3], r[4], r[5]});
      s_.image[i] = {int32_t(r[6]), int32_t(r[7]), int32_t(r[8])};
      s_.type[i] = uint32_t(r[9]);
      s_.tag[i] = uint32_t(r[10]);
    }
  }

 private:
  CpuMpcd<Real>& s_;

  void resize(std::size_t n) {
    s_.pos.resize(n);
    s_.vel.resize(n);
    s_.type.resize(n);
    s_.tag.resize(n);
    s_.image.resize(n);
  }
};

}  // namespace

template <class Real>
std::unique_ptr<Operation> make_mpcd_domain(CpuContext<Real>& c) {
  return std::make_unique<CpuMpcdDomain<Real>>(c);
}

template std::unique_ptr<Operation> make_mpcd_domain<double>(CpuContext<double>&);
template std::unique_ptr<Operation> make_mpcd_domain<float>(CpuContext<float>&);

}  // namespace meso::reference
