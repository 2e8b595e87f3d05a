#include "validate.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>

#include <nlohmann/json.hpp>

#include "case_filter.hpp"
#include "decimal_number.hpp"
#include "meso/core/error.hpp"
#include "meso/io/frame_sink.hpp"
#include "meso/run/progress.hpp"
#include "meso/run/provenance.hpp"
#include "meso/validation/validation_case.hpp"
#include "output_paths.hpp"
#include "report.hpp"
#include "validation_variant.hpp"
#include "workload.hpp"

namespace meso::bench {

namespace {

// A selected case and the variant it runs (validation_variant): on a GPU
// each case runs its own workload's default, so one call may run several.
struct CaseRun {
  const validation::Case* c = nullptr;
  Variant variant;
};

// The run settings a validate result records: form, backend (as written),
// seed, knobs, the axes --variant named (null in files older than the field)
// and the negative control run (none before issue 57). The variant each case
// ran is its entry's (variant_ran).
void settings_from(const nlohmann::json& doc, validation::Context& ctx, nlohmann::json& given) {
  ctx.form = doc.at("form") == "long" ? validation::Form::long_form : validation::Form::short_form;
  ctx.backend = doc.at("backend").get<std::string>();
  ctx.seed = doc.at("seed").get<uint64_t>();
  ctx.params = doc.at("params").get<std::map<std::string, double>>();
  ctx.control = doc.value("control", std::string());
  given = doc.value("variant_given", nlohmann::json());
}

// The variant the case of `entry` in `doc` ran: its entry's, or in files
// older than that field the document's (every case of those ran it).
Variant variant_ran(const nlohmann::json& doc, const nlohmann::json& entry) {
  return Variant::parse(entry.contains("variant") ? entry.at("variant").get<std::string>()
                                                  : doc.at("variant").get<std::string>());
}

// The context `run`'s case runs in: its variant, and under a negative
// control the knobs that make its wrong physics.
validation::Context context_for(const validation::Context& ctx, const CaseRun& run) {
  validation::Context out = ctx;
  out.variant = run.variant;
  if (!ctx.control.empty())
    out.params = validation::control_params(validation::find_control(*run.c, ctx.control), ctx.form, ctx.params);
  return out;
}

// The variants the cases run, each once, in the cases' order.
std::vector<Variant> distinct_variants(const std::vector<CaseRun>& runs) {
  std::vector<Variant> out;
  for (const auto& r : runs)
    if (std::none_of(out.begin(), out.end(), [&](const Variant& v) { return v == r.variant; }))
      out.push_back(r.variant);
  return out;
}

// Whether every case ran one variant (always on the CPU, and in a call of
// one case).
bool one_variant(const std::vector<CaseRun>& runs) { return distinct_variants(runs).size() <= 1; }

// What a result records of the run: the axes --variant named (where known);
// the variant and the precision that ran where every case ran one (each
// case records its own as well); under a control, the control.
void record_run(nlohmann::json& doc, const validation::Context& ctx, const std::vector<CaseRun>& runs,
                const nlohmann::json& given) {
  if (!given.is_null()) doc["variant_given"] = given;
  if (one_variant(runs)) {
    doc["variant"] = runs.front().variant.to_string();
    doc["precision"] = to_string(runs.front().variant.precision);
  }
  if (!ctx.control.empty()) doc["control"] = ctx.control;
}

const validation::Case* find_case(const std::string& name) {
  for (const auto& c : validation::all_cases())
    if (c.name == name) return &c;
  return nullptr;
}

// "I/N" with 0 <= I < N.
std::pair<int, int> parse_shard(const std::string& s) {
  int i = -1, n = 0;
  char slash = 0;
  std::size_t used = 0;
  if (std::sscanf(s.c_str(), "%d%c%d%zn", &i, &slash, &n, &used) != 3 || slash != '/' || used != s.size() ||
      n < 1 || i < 0 || i >= n)
    throw_input_error("--shard '", s, "' is invalid: it must be I/N with 0 <= I < N (e.g. 2/10)");
  return {i, n};
}

// Under a control the verdict that matters is whether the gate rejected the
// wrong physics (REJECTED, as it must) or accepted it (ACCEPTED: the gate
// cannot tell).
const char* verdict(const validation::Result& r, const validation::Context& ctx) {
  if (ctx.control.empty()) return r.passed ? "PASS" : "FAIL";
  return r.passed ? "ACCEPTED" : "REJECTED";
}

// `line` then `text` (a variant, or a list of cases), broken after its
// commas into lines of at most 100 columns, the later ones indented.
void print_wrapped(std::string line, const std::string& text) {
  constexpr std::size_t kWidth = 100;
  for (std::size_t at = 0; at < text.size();) {
    std::size_t end = text.find(',', at);
    end = end == std::string::npos ? text.size() : end + 1;
    if (line.size() + (end - at) > kWidth) {
      std::puts(line.c_str());
      line = "    ";
      if (text[at] == ' ') ++at;
    }
    line += text.substr(at, end - at);
    at = end;
  }
  std::puts(line.c_str());
}

// What ran, above the table: the precision and the whole variant, once
// where every case ran one, else per variant with the cases that ran it;
// then the control.
void print_run(const validation::Context& ctx, const std::vector<CaseRun>& runs) {
  const std::vector<Variant> variants = distinct_variants(runs);
  for (const Variant& v : variants) {
    print_wrapped(std::string("precision ") + to_string(v.precision) + ", variant ", v.to_string());
    if (variants.size() == 1) break;
    std::string names;
    for (const auto& o : runs)
      if (o.variant == v) names += (names.empty() ? "" : ", ") + o.c->name;
    print_wrapped("    for ", names);
  }
  if (!ctx.control.empty()) std::printf("negative control %s: its gates must fail\n", ctx.control.c_str());
}

void print_results(const std::vector<validation::Result>& results, const validation::Context& ctx,
                   const std::vector<CaseRun>& runs) {
  const validation::Form form = ctx.form;
  print_run(ctx, runs);
  std::printf("%-24s %-6s %14s %12s %12s %12s  %s\n", "case", "form", "measured", "+/-", "reference",
              "tolerance", "result");
  for (const auto& r : results) {
    if (r.partial) {
      std::printf("%-24s %-6s %14s %12s %12s %12s  %s\n", r.name.c_str(), to_string(form), "-", "-", "-", "-",
                  r.incomplete ? "INCOMPLETE" : "SHARD");
      continue;
    }
    std::printf("%-24s %-6s %14.6g %12.3g %12.6g %12.3g  %s\n", r.name.c_str(), to_string(form), r.measured,
                r.uncertainty, r.reference, r.tolerance, verdict(r, ctx));
  }
}

// A case's entry: what it measured, and what ran (its workload, variant and
// precision).
nlohmann::json case_json(const validation::Result& r, const validation::Context& ctx, const CaseRun& run) {
  nlohmann::json j = {{"name", r.name},
                      {"workload", run.c->workload},
                      {"variant", run.variant.to_string()},
                      {"precision", to_string(run.variant.precision)},
                      {"quantity", r.quantity},
                      {"data", r.data}};
  if (r.partial) {
    j["partial"] = true;
    if (r.incomplete) j["incomplete"] = true;
    return j;
  }
  j.update({{"measured", r.measured},
            {"uncertainty", r.uncertainty},
            {"reference", r.reference},
            {"reference_uncertainty", r.reference_uncertainty},
            {"tolerance", r.tolerance},
            {"rule", r.rule},
            {"passed", r.passed}});
  if (!ctx.control.empty()) {
    const validation::Control& k = validation::find_control(*run.c, ctx.control);
    j["control"] = {{"name", k.name}, {"what", k.what}, {"params", context_for(ctx, run).params},
                    {"rejected", !r.passed}};
  }
  return j;
}

// Under a negative control the run succeeds when every gate failed.
int exit_code(const std::vector<validation::Result>& results, const validation::Context& ctx) {
  for (const auto& r : results)
    if (r.incomplete) return kExitIncomplete;
  for (const auto& r : results)
    if (!r.partial && r.passed != ctx.control.empty()) return 1;
  return 0;
}

nlohmann::json read_json(const std::string& path, const char* option) {
  std::ifstream in(path);
  if (!in) throw_input_error(option, ": cannot read '", path, "'");
  try {
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw_input_error(option, ": '", path, "' is not valid JSON: ", e.what());
  }
}

int validate_impl(const ValidateOptions& o, const BackendRegistry& reg) {
  if (!o.json.empty()) check_output_file("--json", o.json);
  validation::Context ctx;
  ctx.registry = &reg;
  std::vector<const validation::Case*> selected;
  std::vector<CaseRun> runs;  // the selected cases and their variants
  nlohmann::json given;       // the axes --variant named, canonical
  nlohmann::json resumed;     // the incomplete run being continued
  if (!o.resume.empty()) {
    if (!o.filter.empty() || o.long_form || !o.params.empty() || !o.shard.empty() || !o.variant.empty() ||
        o.backend != "auto" || o.seed != 1 || !o.control.empty())
      throw_input_error("--resume takes the run's settings (case, form, backend, variant, seed, knobs, shard, "
                        "control) ",
                        "from '", o.resume, "'; drop the other options but --json and --time-limit");
    resumed = read_json(o.resume, "--resume");
    if (!resumed.value("incomplete", false))
      throw_input_error("--resume: '", o.resume, "' is not a run stopped at its time limit; nothing to continue");
    settings_from(resumed, ctx, given);
    ctx.backend = reg.resolve(ctx.backend);
    if (resumed.contains("shard")) {
      ctx.shard_index = resumed.at("shard").at("index").get<int>();
      ctx.shard_count = resumed.at("shard").at("count").get<int>();
    }
    for (const auto& c : resumed.at("cases")) {
      const validation::Case* found = find_case(c.at("name").get<std::string>());
      if (!found || !found->resumable)
        throw_input_error("--resume: case '", c.at("name").get<std::string>(), "' is unknown or cannot be resumed");
      selected.push_back(found);
      runs.push_back({found, variant_ran(resumed, c)});  // what it ran before the limit
    }
  } else {
    ctx.form = o.long_form ? validation::Form::long_form : validation::Form::short_form;
    given = Variant::parse(o.variant).to_string(Variant::named_axes(o.variant));  // refuses a bad one first
    ctx.backend = reg.resolve(o.backend);
    ctx.seed = o.seed;
    if (!o.shard.empty()) std::tie(ctx.shard_index, ctx.shard_count) = parse_shard(o.shard);
    const CaseFilter re = compile_filter(o.filter);
    for (const auto& c : validation::all_cases())
      if (re.matches(c.name)) selected.push_back(&c);
    if (selected.empty())
      throw_input_error("--filter '", shown_value(o.filter),
                        "' matches no validation case; `mesobench list` shows them");
    ctx.control = o.control;
    if (!ctx.control.empty())
      for (const auto* c : selected) validation::find_control(*c, ctx.control);  // each selected case has it
    // On a GPU each case runs its workload's default with --variant's axes
    // over it, as `mesobench run` does; the CPU reference runs
    // Variant::parse(--variant) (validation_variant.hpp says why).
    for (const auto* c : selected) runs.push_back({c, validation_variant(*c, ctx.backend, o.variant).variant});
  }
  // Validates the backend and each variant up front, once each.
  for (const Variant& v : distinct_variants(runs)) reg.create(ctx.backend, v);
  if (ctx.shard_count > 1)
    for (const auto* c : selected)
      if (!c->analyse)
        throw_input_error("--shard ", o.shard, ": validation case ", c->name,
                          " cannot be sharded (it keeps no per-repeat records); narrow --filter");
  if (o.time_limit >= 0.0) {
    for (const auto* c : selected)
      if (!c->resumable)
        throw_input_error("--time-limit ", o.time_limit, ": validation case ", c->name,
                          " cannot stop and resume (its repeats fit one job); narrow --filter");
    ctx.stop_at = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                      std::chrono::duration<double>(o.time_limit));
  }
  // --param k=v overrides a knob of the selected cases (e.g. runs=2 to
  // smoke-test a long form); a knob none of them has is an input error.
  refuse_repeated_params(o.params);
  for (const auto& kv : o.params) {
    const auto eq = kv.find('=');
    const std::string key = kv.substr(0, eq);
    bool known = false;
    std::string offered;
    for (const auto* c : selected)
      for (const auto& k : c->knobs) {
        const std::string name = k.substr(0, k.find(':'));
        offered += (offered.empty() ? "" : ", ") + name;
        known = known || name == key;
      }
    if (eq == std::string::npos || !known)
      throw_input_error("--param '", kv, "' is invalid: the selected validation cases take key=value with key in {",
                        offered, "}");
    const std::optional<double> v = parse_decimal(kv.substr(eq + 1));
    if (!v || !(*v > 0.0))
      throw_input_error("--param '", kv, "' is invalid: the value must be a decimal number > 0");
    ctx.params[key] = *v;
  }
  for (const auto& r : runs) context_for(ctx, r);  // a --param the control sets itself
  print_provenance_header(collect_provenance(), ctx.backend);
  std::vector<validation::Result> results;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto* c = runs[i].c;
    std::cerr << "  " << (resumed.is_null() ? "running " : "resuming ") << c->name << " ("
              << to_string(ctx.form) << " form, " << ctx.backend << ", " << to_string(runs[i].variant.precision);
    if (ctx.shard_count > 1) std::cerr << ", shard " << ctx.shard_index << "/" << ctx.shard_count;
    if (!ctx.control.empty()) std::cerr << ", control " << ctx.control;
    std::cerr << ")\n";
    ctx.resume = resumed.is_null() ? nullptr : &resumed["cases"][i]["data"];
    if (io::FrameSink* sink = io::frame_sink()) {  // validate --trajectory
      sink->set_units(c->units);
      sink->set_variant(runs[i].variant.to_string());
    }
    progress::begin(c->name, 0);  // a case that knows its total steps announces it itself
    results.push_back(c->run(context_for(ctx, runs[i])));
    progress::end();
  }
  print_results(results, ctx, runs);
  if (exit_code(results, ctx) == kExitIncomplete)
    std::cout << "stopped at the time limit: continue with `mesobench validate --resume "
              << (o.json.empty() ? std::string("FILE") : o.json) << " --json FILE`\n";
  if (!o.json.empty()) {
    nlohmann::json doc = result_document("validation", collect_provenance());
    doc.update({{"backend", ctx.backend},
                {"form", to_string(ctx.form)},
                {"seed", ctx.seed},
                {"params", ctx.params},
                {"cases", nlohmann::json::array()}});
    record_run(doc, ctx, runs, given);
    if (ctx.shard_count > 1) doc["shard"] = {{"index", ctx.shard_index}, {"count", ctx.shard_count}};
    for (std::size_t i = 0; i < results.size(); ++i) {
      doc["cases"].push_back(case_json(results[i], ctx, runs[i]));
      if (results[i].incomplete) doc["incomplete"] = true;
    }
    if (!resumed.is_null()) {
      // Provenance of every call that contributed, oldest first.
      nlohmann::json earlier = resumed.value("resumed_from", nlohmann::json::array());
      earlier.push_back(resumed.at("provenance"));
      doc["resumed_from"] = earlier;
    }
    write_json_atomically(o.json, doc);
    std::cout << "wrote " << o.json << '\n';
  }
  return exit_code(results, ctx);
}

int merge_impl(const ValidateOptions& o) {
  if (!o.control.empty())
    throw_input_error("--control ", o.control, " with --merge: the shards record the control they ran");
  if (!o.json.empty()) check_output_file("--json", o.json);
  // Every shard of one run: the same form, backend, seed and knobs, the same
  // variant for each case (below), shard indices 0..N-1 once each.
  std::vector<nlohmann::json> docs;
  for (const auto& path : o.merge) docs.push_back(read_json(path, "--merge"));
  const nlohmann::json& first = docs.front();
  std::map<int, std::size_t> by_index;
  int count = -1;
  for (std::size_t k = 0; k < docs.size(); ++k) {
    const nlohmann::json& d = docs[k];
    for (const char* key : {"form", "backend", "seed", "params"}) {
      if (!d.contains(key))
        throw_input_error("--merge: '", o.merge[k], "' has no \"", key, "\": not a `mesobench validate` result");
      if (d[key] != first[key])
        throw_input_error("--merge: '", o.merge[k], "' has ", key, " = ", d[key].dump(), " but '", o.merge[0],
                          "' has ", first[key].dump(), ": shards of different runs");
    }
    if (d.value("control", std::string()) != first.value("control", std::string()))
      throw_input_error("--merge: '", o.merge[k], "' ran control '", d.value("control", std::string()), "' but '",
                        o.merge[0], "' ran '", first.value("control", std::string()), "': shards of different runs");
    if (d.value("incomplete", false))
      throw_input_error("--merge: '", o.merge[k], "' stopped at its time limit; finish it with --resume first");
    if (!d.contains("shard"))
      throw_input_error("--merge: '", o.merge[k], "' is not a shard (run with --shard I/N)");
    const int index = d.at("shard").at("index").get<int>(), n = d.at("shard").at("count").get<int>();
    if (n < 1 || index < 0 || index >= n)
      throw_input_error("--merge: '", o.merge[k], "' claims to be shard ", index, "/", n);
    if (count >= 0 && n != count)
      throw_input_error("--merge: '", o.merge[k], "' is shard ", index, "/", n, " but others are of ", count);
    count = n;
    if (!by_index.emplace(index, k).second)
      throw_input_error("--merge: shard ", index, "/", n, " is given twice ('", o.merge[by_index[index]], "', '",
                        o.merge[k], "')");
  }
  std::string missing;
  for (int i = 0; i < count; ++i)
    if (!by_index.count(i)) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
  if (!missing.empty())
    throw_input_error("--merge: shards {", missing, "} of ", count, " are missing");

  validation::Context ctx;
  nlohmann::json given;
  settings_from(first, ctx, given);
  std::vector<validation::Result> results;
  std::vector<CaseRun> runs;
  const nlohmann::json& shard0 = docs[by_index.at(0)];
  for (const auto& c0 : shard0.at("cases")) {
    const std::string name = c0.at("name").get<std::string>();
    const validation::Case* c = find_case(name);
    if (!c || !c->analyse) throw_input_error("--merge: case '", name, "' is unknown or cannot be merged");
    runs.push_back({c, variant_ran(shard0, c0)});
    nlohmann::json data = c0.at("data");
    data["per_run"] = nlohmann::json::array();
    for (const auto& [index, k] : by_index) {
      const nlohmann::json* found = nullptr;
      for (const auto& ck : docs[k].at("cases"))
        if (ck.at("name") == name) found = &ck;
      if (!found) throw_input_error("--merge: '", o.merge[k], "' has no case ", name);
      if (const Variant v = variant_ran(docs[k], *found); !(v == runs.back().variant)) {
        std::string here, there;  // the axes that differ
        for (const auto& a : Variant::axes())
          if (v.get(a) != runs.back().variant.get(a)) {
            here += (here.empty() ? "" : ",") + a + "=" + v.get(a);
            there += (there.empty() ? "" : ",") + a + "=" + runs.back().variant.get(a);
          }
        throw_input_error("--merge: '", o.merge[k], "' ran ", name, " in variant ", here, " but '",
                          o.merge[by_index.at(0)], "' in ", there, ": shards of different runs");
      }
      for (const auto& r : found->at("data").at("per_run")) data["per_run"].push_back(r);
    }
    std::cerr << "  merging " << name << ": " << data["per_run"].size() << " repeats from " << count
              << " shards\n";
    results.push_back(c->analyse(context_for(ctx, runs.back()), data));
  }
  print_results(results, ctx, runs);
  if (!o.json.empty()) {
    nlohmann::json shards = nlohmann::json::array();
    for (const auto& [index, k] : by_index)
      shards.push_back({{"file", o.merge[k]}, {"index", index}, {"provenance", docs[k].at("provenance")}});
    nlohmann::json doc = result_document("validation", collect_provenance());
    doc.update({{"backend", ctx.backend},
                {"form", to_string(ctx.form)},
                {"seed", ctx.seed},
                {"params", first.at("params")},
                {"merged_from", shards},
                {"cases", nlohmann::json::array()}});
    record_run(doc, ctx, runs, given);
    for (std::size_t i = 0; i < results.size(); ++i) doc["cases"].push_back(case_json(results[i], ctx, runs[i]));
    write_json_atomically(o.json, doc);
    std::cout << "wrote " << o.json << '\n';
  }
  return exit_code(results, ctx);
}

// A shard or resume file that parses as JSON but lacks a field, or has one of
// the wrong type, is bad input, named as such.
template <class F>
int reading_files(const char* what, F&& f) {
  try {
    return f();
  } catch (const nlohmann::json::exception& e) {
    throw_input_error(what, ": a file is not a `mesobench validate` result: ", e.what());
  }
}

}  // namespace

int cmd_validate(const ValidateOptions& o, const BackendRegistry& reg) {
  if (o.resume.empty()) return validate_impl(o, reg);
  return reading_files("--resume", [&] { return validate_impl(o, reg); });
}

int cmd_merge(const ValidateOptions& o) {
  return reading_files("--merge", [&] { return merge_impl(o); });
}

}  // namespace meso::bench
