// `mesobench scale`: weak and strong scaling sweeps over MPI ranks
// (ARCHITECTURE.md, "Domain decomposition and scaling"; docs/scaling.md).
//
//   mesobench scale --mode weak|strong --workload W --ranks 1,2,4,8
//                   (--per-rank N | --total N) [--emit slurm DIR]
//     runs one point per rank count through `mpirun` (each point is
//     `mesobench scale-point` on R ranks), writes DIR/point-rR.json and
//     DIR/summary.json (kind "scaling": efficiency and the time split);
//     with --emit slurm it writes one batch script per point and
//     submit-all.sh instead of running anything.
//   mesobench scale --summarize DIR
//     joins the point files of a sweep (after the Slurm jobs ran).
//   mesobench scale-point --workload W --n N ...  (under mpirun or srun)
//     one point: the case on every rank, warm-up, timed repeats; rank 0
//     writes its JSON.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace meso::scaling {
class MpiSession;
}

namespace meso::bench {

struct ScaleOptions {
  std::string mode = "weak";       // weak | strong
  std::string workload = "dpd-fluid";
  std::vector<int> ranks{1, 2};
  uint64_t per_rank = 0;           // weak
  uint64_t total = 0;              // strong
  uint64_t steps = 200;            // timed steps per repeat
  uint64_t warmup = 50;            // untimed steps first
  int repeats = 3;
  std::string backend = "cpu";
  std::string variant;
  std::vector<std::string> params;
  std::string grid;                // AxBxC, empty: chosen
  std::string transport;           // ipc | nccl | host (GPU ranks); empty: the workload's (default_transport)
  std::string out = "scaling-out";
  std::string mpirun = "mpirun";   // launcher of the local sweep
  std::string mpirun_args;         // extra launcher arguments, e.g. --oversubscribe
  // --emit slurm DIR
  std::string emit;
  std::string emit_dir;
  int tasks_per_node = 0;          // 0: all ranks on one node up to 4 (GPUs per node), cpu: 1 node
  int gpus_per_task = -1;          // -1: 1 with cuda, 0 with cpu
  int cpus_per_task = 0;           // 0: not set
  std::string time_limit = "00:30:00";
  std::string partition, account;
  std::string launcher = "srun";   // inside the batch script: srun or mpirun
  bool mpirun_given = false;       // --mpirun or --mpirun-args given: the scripts' launcher too
  bool force = false;              // --force: replace the scripts of an earlier --emit slurm
  std::string summarize;           // --summarize DIR
};

struct ScalePointOptions {
  std::string workload = "dpd-fluid";
  uint64_t n = 0;
  uint64_t steps = 200;
  uint64_t warmup = 50;
  int repeats = 3;
  std::string backend = "cpu";
  std::string variant;
  std::vector<std::string> params;
  std::string grid;
  std::string transport;  // empty: the workload's (default_transport)
  std::string mode;      // recorded only
  uint64_t per_rank = 0; // recorded only
  std::string json;
};

int cmd_scale(const ScaleOptions& o);
int cmd_scale_point(const ScalePointOptions& o, const scaling::MpiSession* mpi);

}  // namespace meso::bench
