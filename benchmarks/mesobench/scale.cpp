#include "scale.hpp"

#include <unistd.h>

#include <algorithm>
#include <vector>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>
#include <thread>

#include <nlohmann/json.hpp>

#include "backends.hpp"
#include "meso/core/error.hpp"
#include "meso/run/provenance.hpp"
#include "meso/run/simulation.hpp"
#include "output_paths.hpp"
#include "report.hpp"
#include "scale_launch.hpp"
#include "slurm_script.hpp"
#include "variant_defaults.hpp"
#include "workload.hpp"
#ifdef MESO_HAVE_MPI
#include "meso/scaling/mpi_communicator.hpp"
#include "meso/scaling/rank_grid.hpp"
#endif

namespace fs = std::filesystem;

namespace meso::bench {
namespace {

using Clock = std::chrono::steady_clock;
using nlohmann::json;

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

// The workload's first registered case with --param overrides and N.
BenchCase scaling_case(const std::string& workload, const std::vector<std::string>& params, uint64_t n) {
  refuse_repeated_params(params);
  const Workload& w = find_workload(workload);
  if (const std::string why = w.decomposition_refusal(); !why.empty()) {
    std::string can;
    for (const Workload* other : workloads())
      if (other->decomposition_refusal().empty()) can += (can.empty() ? "" : ", ") + other->name();
    throw_input_error("workload '", workload, "' is not decomposed over ranks yet (", why, "); scale runs ", can);
  }
  for (const BenchCase& c0 : all_cases()) {
    if (c0.workload != &w) continue;
    BenchCase c = c0;
    for (const auto& kv : params) apply_param(c, kv);
    if (n) w.set_particle_count(c, n);
    c.validate();
    return c;
  }
  throw_input_error("--workload '", workload, "' has no registered case");
}

// The box a case decomposes and its ghost width (SimulationSetup::ghost_width).
struct DecomposedBox {
  Box box;
  double width = 0.0;
  double density = 0.0;  // particles per unit volume (the rank grid's cost model)
  bool slit_walls = false;  // one rank along z (docs/walls.md)
};
DecomposedBox decomposed_box(const SimulationSetup& s) {
  const Vec3d L = s.box().lengths();
  return {s.box(), s.ghost_width(), double(s.size()) / (L.x * L.y * L.z), s.slit_walls()};
}

int cpu_cores() { return std::max(1, static_cast<int>(std::thread::hardware_concurrency())); }

// A point of a sweep as summarize and print_summary read it, or an input
// error naming the file and the field (a hand-edited or foreign file must
// not end in a JSON type error).
void check_point(const json& p, const std::string& file) {
  const auto bad = [&](const char* field, const char* want) {
    throw_input_error(file, ": a point's \"", field, "\" must be ", want,
                      p.is_object() && p.contains(field) ? ", not " + p[field].dump() : std::string(" (missing)"));
  };
  if (!p.is_object()) throw_input_error(file, ": a point must be a JSON object, not ", p.dump());
  for (const char* k : {"ranks", "N"})
    if (!p.contains(k) || !p[k].is_number_unsigned() || p[k].get<uint64_t>() == 0) bad(k, "a positive integer");
  for (const char* k : {"tps_median", "tps_min", "tps_max"})
    if (!p.contains(k) || !p[k].is_number() || !(p[k].get<double>() > 0.0) || !std::isfinite(p[k].get<double>()))
      bad(k, "a positive finite number");
  if (!p.contains("grid") || !p["grid"].is_string()) bad("grid", "a string");
  if (p.contains("variant") && !p["variant"].is_string()) bad("variant", "a string");
  if (!p.contains("split") || !p["split"].is_object()) bad("split", "an object");
  for (const char* k : {"compute", "pack", "copy", "mpi_wait"})
    if (!p["split"].contains(k) || !p["split"][k].is_number())
      throw_input_error(file, ": a point's \"split\" needs a number \"", k, "\"");
}

json summarize(const std::string& dir) {
  std::vector<json> points;
  json first;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (name.rfind("point-r", 0) != 0 || e.path().extension() != ".json") continue;
    std::ifstream f(e.path());
    json d = json::parse(f, nullptr, false);
    if (d.is_discarded() || d.value("kind", "") != "scaling" || !d.contains("points"))
      throw_input_error(e.path().string(), " is not a scaling point file");
    for (const std::string k : {"mode", "workload", "backend", "variant"})
      if (!d.contains(k) || !d[k].is_string())
        throw_input_error(e.path().string(), ": \"", k, "\" must be a string",
                          d.contains(k) ? ", not " + d[k].dump() : std::string(" (missing)"));
    if (d["mode"] != "weak" && d["mode"] != "strong")
      throw_input_error(e.path().string(), ": \"mode\" must be weak or strong, not ", d["mode"].dump());
    if (!d["points"].is_array()) throw_input_error(e.path().string(), ": \"points\" must be an array");
    for (const auto& p : d["points"]) check_point(p, e.path().string());
    if (first.is_null()) first = d;
    for (const std::string k : {"mode", "workload", "backend", "variant"})
      if (d[k] != first[k])
        throw_input_error(e.path().string(), " has ", k, " ", d[k].dump(), " but another point has ",
                          first[k].dump(), ": one sweep per directory");
    for (auto& p : d["points"]) points.push_back(p);
  }
  if (points.empty()) throw_input_error("no point-r*.json files in ", dir, " (did the points run?)");
  std::sort(points.begin(), points.end(), [](const json& a, const json& b) { return a["ranks"] < b["ranks"]; });
  const json& base = points.front();
  const double r0 = base["ranks"].get<double>(), t0 = base["tps_median"].get<double>();
  const bool weak = first["mode"] == "weak";
  const double n0 = base["N"].get<double>();
  for (auto& p : points) {
    const double r = p["ranks"].get<double>(), t = p["tps_median"].get<double>(), n = p["N"].get<double>();
    // Relative to the smallest rank count of the sweep (usually 1). Weak:
    // particle-steps per second per rank (the same as TPS when N grows
    // exactly with the ranks; srd-fluid's cubic boxes of whole cells make
    // N only nearly proportional).
    p["efficiency"] = weak ? (t * n / r) / (t0 * n0 / r0) : (t * r0) / (t0 * r);
  }
  json doc = first;
  doc["points"] = points;
  doc["provenance"]["date_utc"] = collect_provenance().date_utc;
  doc["summary_of"] = json::array();
  for (const auto& p : points) doc["summary_of"].push_back("point-r" + std::to_string(p["ranks"].get<int>()) + ".json");
  return doc;
}

void print_summary(const json& doc) {
  std::cout << doc["mode"].get<std::string>() << " scaling of " << doc["workload"].get<std::string>() << " on "
            << doc["backend"].get<std::string>() << " (" << doc["variant"].get<std::string>() << ")\n"
            << "compute, pack, copy, mpi: ms per step, mean over ranks\n"
            << std::setw(6) << "ranks" << std::setw(8) << "grid" << std::setw(12) << "N" << std::setw(11) << "TPS"
            << std::setw(9) << "spread" << std::setw(8) << "eff" << std::setw(10) << "compute" << std::setw(8)
            << "pack" << std::setw(8) << "copy" << std::setw(9) << "mpi" << "\n";
  for (const auto& p : doc["points"]) {
    const auto& s = p["split"];
    const double lo = p["tps_min"].get<double>(), hi = p["tps_max"].get<double>(), m = p["tps_median"].get<double>();
    std::cout << std::setw(6) << p["ranks"].get<int>() << std::setw(8) << p["grid"].get<std::string>()
              << std::setw(12) << p["N"].get<uint64_t>() << std::fixed << std::setprecision(1) << std::setw(11) << m
              << std::setw(8) << std::setprecision(1) << 100.0 * (hi - lo) / m << "%" << std::setw(8)
              << std::setprecision(3) << p.value("efficiency", 1.0) << std::setw(10) << 1e3 * s["compute"].get<double>()
              << std::setw(8) << 1e3 * s["pack"].get<double>() << std::setw(8) << 1e3 * s["copy"].get<double>()
              << std::setw(9) << 1e3 * s["mpi_wait"].get<double>() << "\n";
    std::cout.unsetf(std::ios::fixed);
  }
  // Points that ran another variant than the sweep's (full rows on several
  // ranks where the default runs half rows on one): the axes that differ.
  const auto axes = [](const std::string& v) {
    std::vector<std::string> out;
    for (std::size_t a = 0; a <= v.size();) {
      const std::size_t b = std::min(v.find(',', a), v.size());
      out.push_back(v.substr(a, b - a));
      a = b + 1;
    }
    return out;
  };
  const std::vector<std::string> sweep = axes(doc["variant"].get<std::string>());
  for (const auto& p : doc["points"]) {
    if (!p.contains("variant") || p["variant"] == doc["variant"]) continue;
    std::string diff;
    for (const std::string& a : axes(p["variant"].get<std::string>()))
      if (std::find(sweep.begin(), sweep.end(), a) == sweep.end()) diff += (diff.empty() ? "" : ",") + a;
    std::cout << "  " << p["ranks"].get<int>() << " ranks ran " << diff << " (the sweep's default on one rank only)\n";
  }
}

}  // namespace

int cmd_scale(const ScaleOptions& o) {
  if (!o.summarize.empty()) {
    const std::string out = (fs::path(o.summarize) / "summary.json").string();
    check_output_file("--summarize", out);
    const json doc = summarize(o.summarize);
    write_json_atomically(out, doc);
    print_summary(doc);
    std::cout << "wrote " << out << '\n';
    return 0;
  }
  if (o.mode != "weak" && o.mode != "strong") throw_input_error("--mode must be weak or strong, not '", o.mode, "'");
  if (o.mode == "weak" && (o.per_rank == 0 || o.total != 0))
    throw_input_error("--mode weak needs --per-rank N (particles per rank) and no --total");
  if (o.mode == "strong" && (o.total == 0 || o.per_rank != 0))
    throw_input_error("--mode strong needs --total N (the whole system) and no --per-rank");
  if (o.ranks.empty()) throw_input_error("--ranks needs at least one rank count");
  for (int r : o.ranks)
    if (r < 1) throw_input_error("--ranks: ", r, " is not a rank count (>= 1)");
  if (o.backend != "cpu" && o.backend != "cuda")
    throw_input_error("--backend must be cpu or cuda for a sweep, not '", o.backend, "'");
  if (!o.emit.empty() && o.emit != "slurm") throw_input_error("--emit supports slurm, not '", o.emit, "'");
  // The workload, the backend (present in this build and usable here, for a
  // local sweep) and the variant over the workload's default.
  find_workload(o.workload);
  check_backend_and_variant(o, o.emit.empty());
  // The case, each point's system and its rank grid are checked here, before
  // any launch: a point that cannot run is refused with its sizes.
  for (int r : o.ranks) {
    const BenchCase c = scaling_case(o.workload, o.params, point_n(o, r));
    const DecomposedBox d = decomposed_box(c.make_setup_by_rank());
#ifdef MESO_HAVE_MPI
    if (o.grid.empty()) scaling::choose_rank_grid(r, d.box, d.width, d.density, d.slit_walls);
    else scaling::check_rank_grid(scaling::parse_rank_grid(o.grid), r, d.box, d.width, d.slit_walls);
#else
    (void)d;
#endif
  }
  if (o.emit == "slurm") {
    write_slurm(o);
    return 0;
  }
#ifndef MESO_HAVE_MPI
  throw_input_error("this mesobench was built without MPI (install libopenmpi-dev and reconfigure): scale cannot run");
#else
  const Launcher launcher = check_launcher(o);
  std::vector<std::string> files{"summary.json"};
  for (int r : o.ranks) files.push_back(point_file("", r));
  OutputDir out_dir("--out", o.out, files);
  if (out_dir.existed()) refuse_other_points("--out", o.out, o.ranks);
  out_dir.create();
  const bool root = geteuid() == 0;
  for (int r : o.ranks) {
    std::vector<std::string> argv = launcher.command;
    argv.insert(argv.end(), {"-np", std::to_string(r)});
    if (root) argv.push_back("--allow-run-as-root");
    if (r > cpu_cores()) argv.push_back("--oversubscribe");
    argv.insert(argv.end(), launcher.args.begin(), launcher.args.end());
    for (auto& a : point_args(o, r, point_file(o.out, r))) argv.push_back(std::move(a));
    std::cout << shell_lines("point " + std::to_string(r) + " rank" + (r > 1 ? "s: " : ": "), argv, 100)
              << std::endl;
    if (const int status = run_and_wait(argv); status != 0)
      return point_failed(r, argv[0], status, out_dir, o.out);
  }
  const json doc = summarize(o.out);
  const std::string out = (fs::path(o.out) / "summary.json").string();
  write_json_atomically(out, doc);
  print_summary(doc);
  std::cout << "wrote " << out << '\n';
  return 0;
#endif
}

#ifdef MESO_HAVE_MPI
namespace {
// The transport a point runs when --transport is not given: each
// workload's fastest that passes every test (results/scaling), where this
// build has NCCL and every rank of the node has a GPU of its own: NCCL for
// the MPCD solvent (its collision moves cell layers GPU to GPU without the
// host) and for lj-liquid (its rebuild vote by schedule: 4-5% over ipc on
// 2 H200s, twice); CUDA IPC for dpd-fluid (within the spread of nccl, and
// ahead of it on four H100s with a vote every step). Collective.
std::string default_transport(const std::string& workload, const std::string& backend, int ranks,
                              const scaling::MpiSession* mpi) {
  const bool nccl_first = workload == "srd-fluid" || workload == "lj-liquid";
  if (backend != "cuda" || ranks < 2 || !nccl_first || !nccl_transport_built()) return "ipc";
  int own = mpi && mpi->local_rank() < gpu_count() ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &own, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  return own ? "nccl" : "ipc";
}
}  // namespace
#endif

int cmd_scale_point(const ScalePointOptions& o, const scaling::MpiSession* mpi) {
#ifndef MESO_HAVE_MPI
  (void)o;
  (void)mpi;
  throw_input_error("this mesobench was built without MPI: scale-point cannot run");
#else
  const int rank = mpi && mpi->active() ? mpi->rank() : 0;
  const int ranks = mpi && mpi->active() ? mpi->size() : 1;
  if (!o.json.empty() && rank == 0) check_output_file("--json", o.json);
  if (o.n == 0) throw_input_error("scale-point needs --n N (the whole system's particles)");
  const BenchCase c = scaling_case(o.workload, o.params, o.n);
  BackendRegistry registry;
  register_backends(registry);
  if (o.backend == "cuda") select_device_for_rank(mpi && mpi->active() ? mpi->local_rank() : 0);
  ResolvedVariant rv = resolve_variant(c.workload_name(), o.backend, o.variant);
  // Where the workload's default chose half rows (dpd-fluid in mixed),
  // several ranks run full rows (nlist=ballot) unless --variant names the
  // list: half rows run there, but a face's rows keep every pair with a
  // ghost (each rank evaluates it for its own particle), and on two H200s
  // they were no faster (1349 against 1376 TPS, spreads overlapping) and
  // held as many bytes (346 against 344 a particle; results/scaling). The
  // sweep is the default's: its one-rank base runs the fastest one-GPU
  // variant, and each point records the variant it ran.
  const Variant asked = rv.variant;
  if (ranks > 1 && rv.variant.nlist == NlistKind::half && rv.given.find("nlist=") == std::string::npos)
    rv.variant.nlist = NlistKind::ballot;
  // The setup: each rank builds only its own particles where the workload
  // can (inside the set-up time), otherwise the whole system, before it.
  SimulationSetup whole = c.make_setup_by_rank();
  const uint64_t n_total = whole.size();
  const DecomposedBox dbox = decomposed_box(whole);
  const scaling::RankGrid grid =
      o.grid.empty() ? scaling::choose_rank_grid(ranks, dbox.box, dbox.width, dbox.density, dbox.slit_walls)
                     : scaling::parse_rank_grid(o.grid);
  const scaling::Transport transport = scaling::parse_transport(
      o.transport.empty() ? default_transport(o.workload, o.backend, ranks, mpi) : o.transport);
  const auto t_setup = Clock::now();
  Simulation sim(registry.create(o.backend, rv.variant), std::move(whole),
                 ranks > 1 ? scaling::MpiCommunicator::factory(MPI_COMM_WORLD, grid, transport)
                           : CommunicatorFactory{});
  const Communicator* comm = &sim.communicator();
  Backend* b = &sim.backend();
  auto advance = [&](uint64_t k) { sim.run(k); };
  const double setup = std::chrono::duration<double>(Clock::now() - t_setup).count();
  auto barrier = [&] {
    b->synchronize();
    if (ranks > 1) MPI_Barrier(MPI_COMM_WORLD);
  };
  // The communicator's split, with the copies of the MPCD collision's
  // shared cells (the solvent on CUDA ranks) among the copies.
  auto times = [&] { return sim.comm_times(); };
  advance(o.warmup);
  barrier();
  const CommTimes c0 = times();
  std::vector<double> tps;
  double total = 0.0;
  for (int k = 0; k < o.repeats; ++k) {
    barrier();
    const auto t0 = Clock::now();
    advance(o.steps);
    b->synchronize();
    const double mine = std::chrono::duration<double>(Clock::now() - t0).count();
    // The slowest rank sets the time of the step.
    const double slowest = ranks > 1 ? comm->max(mine) : mine;
    tps.push_back(static_cast<double>(o.steps) / slowest);
    total += slowest;
  }
  const CommTimes c1 = times();
  const double steps = static_cast<double>(o.steps) * o.repeats;
  const double pack = (c1.pack - c0.pack) / steps, copy = (c1.copy - c0.copy) / steps;
  const double wait = (c1.mpi_wait - c0.mpi_wait) / steps;
  const double per_step = total / steps;
  // Means over ranks (compute is what is left of the slowest rank's step).
  const double pack_m = comm->sum(pack) / ranks, copy_m = comm->sum(copy) / ranks, wait_m = comm->sum(wait) / ranks;
  const double wait_max = comm->max(wait);
  const double n_local = static_cast<double>(sim.local_size());
  const double n_min = -comm->max(-n_local), n_max = comm->max(n_local);
  // Device memory per rank and per local particle (the largest over ranks):
  // what a weak sweep should keep flat.
  const double dev_bytes = static_cast<double>(device_bytes_of(*b));
  const double dev_max = comm->max(dev_bytes), dev_per_particle = comm->max(n_local > 0 ? dev_bytes / n_local : 0.0);
  // Rank 0's bytes per local particle by holder: where a rank's memory goes.
  json parts = json::object();
  for (const auto& [name, bytes] : device_bytes_by_part_of(*b))
    parts[name] = n_local > 0 ? static_cast<double>(bytes) / n_local : 0.0;
  // Thermo reductions are collective.
  const ThermoSample thermo = sim.thermo();
  const double temperature = thermo.temperature, pressure = thermo.pressure;
  check_not_diverged(c, "the " + std::to_string(ranks) + "-rank run of " + o.workload, temperature, pressure,
                     o.warmup + o.steps * static_cast<uint64_t>(o.repeats));
  if (rank != 0) return 0;

  const std::string variant = asked.to_string(b->applicable_axes());
  json p;
  p["ranks"] = ranks;
  p["grid"] = scaling::to_string(grid);
  p["transport"] = ranks > 1 && o.backend == "cuda" ? scaling::to_string(transport) : "host";
  p["N"] = n_total;
  if (o.per_rank) p["per_rank"] = o.per_rank;
  p["steps_per_repeat"] = o.steps;
  p["warmup_steps"] = o.warmup;
  p["tps"] = tps;
  p["tps_median"] = median(tps);
  p["tps_min"] = *std::min_element(tps.begin(), tps.end());
  p["tps_max"] = *std::max_element(tps.begin(), tps.end());
  p["mps_median"] = median(tps) * static_cast<double>(n_total) * 1e-6;
  p["seconds_per_step"] = per_step;
  p["split"] = {{"compute", std::max(0.0, per_step - pack_m - copy_m - wait_m)},
                {"pack", pack_m},
                {"copy", copy_m},
                {"mpi_wait", wait_m},
                {"mpi_wait_max", wait_max}};
  p["local_particles_min"] = n_min;
  p["local_particles_max"] = n_max;
  p["migrations"] = c1.migrations - c0.migrations;
  // How the ghosts travelled: exchanges at list rebuilds and updates on
  // the other steps, and those that went GPU to GPU (peer reads).
  p["ghost_exchanges"] = c1.ghost_exchanges - c0.ghost_exchanges;
  p["ghost_exchanges_peer"] = c1.peer_exchanges - c0.peer_exchanges;
  p["ghost_updates"] = c1.ghost_updates - c0.ghost_updates;
  p["ghost_updates_peer"] = c1.peer_updates - c0.peer_updates;
  p["rebuild_votes"] = c1.votes - c0.votes;  // all-reduces of the rebuild decision (VoteSchedule)
  p["setup_seconds"] = setup;
  if (dev_max > 0) {
    p["device_bytes_max"] = dev_max;
    p["device_bytes_per_particle"] = dev_per_particle;
  p["device_bytes_per_particle_by_part"] = parts;
  }
  p["variant"] = rv.variant.to_string(b->applicable_axes());  // the sweep's but for the fallback above
  p["final_temperature"] = temperature;
  if (sim.has_md()) p["final_pressure"] = pressure;  // the solvent's is not computed
  json doc = result_document("scaling", collect_provenance());
  doc["mode"] = o.mode.empty() ? "weak" : o.mode;
  doc["workload"] = o.workload;
  doc["backend"] = b->name();
  doc["variant"] = variant;
  doc["name"] = c.name(b->name(), variant);
  doc["points"] = json::array({p});
  if (!o.json.empty()) {
    write_json_atomically(o.json, doc);
    std::cout << "wrote " << o.json << '\n';
  }
  std::cout << ranks << " rank(s), grid " << scaling::to_string(grid) << ", N = " << n_total
            << ": " << median(tps) << " TPS (median of " << o.repeats << "), " << 1e3 * per_step << " ms/step, mpi "
            << 1e3 * wait_m << " ms, pack " << 1e3 * pack_m << " ms, copy " << 1e3 * copy_m << " ms\n";
  return 0;
#endif
}

}  // namespace meso::bench
