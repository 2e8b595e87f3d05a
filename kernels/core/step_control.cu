// The one-thread kernel that opens a step (step_control.cuh).
#include "meso/cuda/check.hpp"
#include "core/step_control.cuh"

namespace meso::cuda {
namespace {

__global__ void control_kernel(StepControl* ctl, ControlArgs a, cudaGraphConditionalHandle hr,
                               bool graph, cudaGraphConditionalHandle hp) {
  open_step(ctl, a, hr, graph, hp);
}

}  // namespace

void step_control(StepControl* ctl, const ControlArgs& a, cudaGraphConditionalHandle hr,
                  bool graph, cudaStream_t s, cudaGraphConditionalHandle hp) {
  control_kernel<<<1, 1, 0, s>>>(ctl, a, hr, graph, hp);
  MESO_CUDA_CHECK(cudaGetLastError());
}

}  // namespace meso::cuda
