"""One line of provenance for a plot of `mesobench validate --json` results.

A merged result (`validate --merge`) was written on whatever machine joined the
shards, so its own provenance names that machine; the line names where the
shards ran instead. With several files (or shards) the line joins them: the
distinct commits and machines and the first..last date.
"""


def _machine(p):
    return f'{p["cpu_model"]} x{p["cpu_threads"]}  GPU {p.get("gpu_model") or "none"}'


def provenance_line(docs):
    """docs: one parsed result or a list of them."""
    docs = docs if isinstance(docs, list) else [docs]
    runs, merged = [], 0
    for doc in docs:
        shards = [s["provenance"] for s in doc.get("merged_from") or []]
        runs += shards or [doc["provenance"]]
        if shards:
            merged += len(shards)
    commits = ",".join(sorted({p["git_commit"] for p in runs}))
    machines = "; ".join(sorted({_machine(p) for p in runs}))
    dates = sorted(p["date_utc"] for p in runs)
    when = dates[0] if dates[0] == dates[-1] else f"{dates[0]}..{dates[-1]}"
    run = "  ".join(sorted({f'backend {d.get("backend", "?")}  {d.get("form", "?")} form' for d in docs}))
    params = docs[0].get("params") or {}
    extra = ("  overrides " + ",".join(f"{k}={v:g}" for k, v in params.items())) if params else ""
    joined = f"  (merged from {merged} shards)" if merged else ""
    return f"mesobench {commits}  {machines}  {when}  {run}{extra}{joined}"
