#!/usr/bin/env python3
"""What the repository cites under results/, and whether results/ keeps its budget.

    scripts/results_citations.py              # check: every citation exists, results/ <= budget
    scripts/results_citations.py --uncited    # list tracked results files nothing cites

results/ holds what the docs cite (issue 58): each experiment's summary,
figures and provenance. A citation is a path in a tracked text file that
names something below results/: a Markdown link or `code span` in a .md file
(relative to that file's folder, or to the repository root), or a
"results/..." path in code, scripts and tests. Shell brace lists
({a,b}, {0..9}) and * within one path segment are expanded as the shell
would. Raw logs and per-run dumps that nothing cites are dropped from the
tree; git history keeps them (docs/results.md says how to read one back).

The check fails, naming each, when a citation names nothing, and when the
tracked files below results/ add up to more than --budget bytes.
"""
import argparse
import os
import re
import subprocess
import sys

BUDGET = 10_000_000  # bytes of tracked files below results/ (issue 58)
TEXT = (".md", ".sh", ".py", ".cpp", ".hpp", ".cu", ".cuh", ".txt", ".cmake", ".json", ".yml")
# A path-like token: letters, digits, and the characters paths and shell patterns use.
TOKEN = re.compile(r"[A-Za-z0-9_./{},*\-]+")
MD_LINK = re.compile(r"\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`([^`\n]+)`")
# A file name a results README cites: it ends in one of the results' extensions.
RESULT_FILE = re.compile(r"\.(json|json\.xz|json\.gz|png|log|txt|csv|md|xz|tar\.xz)$")


def tracked(root, *paths):
    """The files git tracks below paths; every file there outside a git work tree
    (a source archive)."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", *paths],
                             capture_output=True, text=True, check=True).stdout
        if out:
            return [p for p in out.split("\0") if p]
    except (OSError, subprocess.CalledProcessError):
        pass
    found = []
    for top in paths or ["."]:
        for d, subdirs, files in os.walk(os.path.join(root, top)):
            subdirs[:] = [s for s in subdirs if not s.startswith(".") and s != "build"]
            found += [os.path.relpath(os.path.join(d, f), root) for f in files]
    return sorted(found)


def expand(token):
    """Shell brace expansion: a{b,c}d -> abd acd; a{0..2} -> a0 a1 a2."""
    m = re.search(r"\{([^{}]*)\}", token)
    if not m:
        return [token]
    body = m.group(1)
    r = re.fullmatch(r"(\d+)\.\.(\d+)", body)
    alts = [str(i) for i in range(int(r.group(1)), int(r.group(2)) + 1)] if r else body.split(",")
    if not r and len(alts) < 2:
        return [token.replace("{", "").replace("}", "")]
    return [x for a in alts for x in expand(token[:m.start()] + a + token[m.end():])]


class Tree:
    def __init__(self, root):
        self.root = root
        self.files = set(tracked(root, "results"))
        self.dirs = {os.path.dirname(f) for f in self.files}
        for d in list(self.dirs):
            while d:
                d = os.path.dirname(d)
                self.dirs.add(d)

    def resolve(self, path):
        """The tracked files path names (a file, a folder, or a pattern); [] when none."""
        path = os.path.normpath(path)
        if "*" in path:
            rx = re.compile(re.escape(path).replace(r"\*", "[^/]*") + "$")
            return sorted(f for f in self.files if rx.match(f))
        if path in self.files:
            return [path]
        if path in self.dirs:
            # A folder is cited as a whole: what stands for it is its README
            # (or its one summary), not every file that was ever in it.
            readme = path + "/README.md"
            return [readme] if readme in self.files else [path + "/"]
        return []


def span_paths(span):
    """The path-like words of a Markdown link target or code span."""
    for word in span.split():
        word = word.strip("\"'(),;:<>[]").split("#")[0]
        if "=" in word and not RESULT_FILE.search(word):
            continue  # a case name (rho=3/rc=1), not a file such as sweep-nlist=ballot.json
        if word and not set(word) & set("<>") and not word.startswith(("-", "$", "~")) and "://" not in word:
            yield word


def md_citations(src, line, tree, top):
    base = os.path.dirname(src)
    in_results = src.startswith("results/")
    spans = [(s, True) for s in MD_LINK.findall(line)] + [(s, not in_results) for s in CODE_SPAN.findall(line)]
    for span, strict in spans:
        for word in span_paths(span):
            for p in expand(word.rstrip(".")):
                if "results/" in p:
                    rel = os.path.normpath(p if p.startswith("results/") else os.path.join(base, p))
                    if not rel.startswith("results/"):
                        rel = p[p.index("results/"):]
                    yield os.path.normpath(rel), strict
                elif in_results and p.split("/")[0] not in top and (RESULT_FILE.search(p) or "/" in p):
                    rel = os.path.normpath(os.path.join(base, p))
                    if not tree.resolve(rel) and "/" not in p:
                        # A bare name in a README may name a file anywhere below its folder.
                        below = [f for f in tree.files if f.startswith(base + "/")
                                 and os.path.basename(f) == p]
                        rel = below[0] if len(below) == 1 else rel
                    yield rel, strict


# "results/..." in code: at the start of a word, or after the source
# directory ($S/, "$S"/, ../, {src}/, ${PROJECT_SOURCE_DIR}/); a path that goes
# on with a shell variable ($i) is a pattern, not a citation.
CODE_PATH = re.compile(r"(?:(?<![\w./$}-])|(?<=\$S/)|(?<=\$S\"/)|(?<=\.\./)|(?<=\{src\}/)|(?<=_DIR\}/))"
                       r"(results/[A-Za-z0-9_./{},*\-]+)")


def code_citations(line):
    for m in CODE_PATH.finditer(line):
        if line[m.end():m.end() + 1] == "$":
            continue
        for p in expand(m.group(1).rstrip(".,")):
            yield os.path.normpath(p), True


def citations(root, tree):
    """(citing file, line number, cited path relative to the root, strict) for
    every citation. Strict citations must name something: Markdown links,
    results/ paths in code and in the docs outside results/. A bare name in a
    code span of a results README (often a file of an earlier run, read back
    from history) keeps the file it names but is not checked."""
    top = set(os.listdir(root)) - {"results"}
    for src in tracked(root):
        if not src.endswith(TEXT) and "CMakeLists" not in src:
            continue
        if src.startswith("results/") and not src.endswith(".md"):
            continue  # results cite nothing: their own paths are provenance
        try:
            with open(os.path.join(root, src), encoding="utf-8") as f:
                lines = f.read().splitlines()
        except (UnicodeDecodeError, OSError):
            continue
        for n, line in enumerate(lines, 1):
            found = md_citations(src, line, tree, top) if src.endswith(".md") else code_citations(line)
            for p, strict in sorted(set(found)):
                if p.startswith("results/"):
                    yield src, n, p, strict


def main():
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", default=here, help="the repository (a git work tree)")
    ap.add_argument("--budget", type=int, default=BUDGET, help="bytes results/ may hold (default %(default)s)")
    ap.add_argument("--uncited", action="store_true", help="list the tracked results files nothing cites")
    args = ap.parse_args()
    tree = Tree(args.root)
    cited, missing = set(), []
    for src, n, path, strict in citations(args.root, tree):
        hits = tree.resolve(path)
        if hits:
            cited.update(h for h in hits if not h.endswith("/"))
        elif strict:
            missing.append(f"{src}:{n}: cites {path}, which is not in results/")
    if args.uncited:
        for f in sorted(tree.files - cited):
            print(f)
        return 0
    size = sum(os.path.getsize(os.path.join(args.root, f)) for f in tree.files)
    for m in missing:
        print(m, file=sys.stderr)
    status = 1 if missing else 0
    if size > args.budget:
        print(f"results/ holds {size} bytes in {len(tree.files)} files, over its budget of {args.budget}",
              file=sys.stderr)
        status = 1
    print(f"results/: {len(tree.files)} files, {size / 1e6:.2f} MB (budget {args.budget / 1e6:.2f} MB); "
          f"{len(cited)} cited; {len(missing)} citations of missing files")
    return status


if __name__ == "__main__":
    sys.exit(main())
