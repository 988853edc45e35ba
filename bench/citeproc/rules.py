#!/usr/bin/env python3
"""pandoc's citeproc references for the reference rules of `src/ops/cite.rs`.

Not part of `cargo test` (it needs pandoc). Each case of
bench/citeproc/rules-cases.json names a style, a real capture of
tests/fixtures/ and text substitutions on it (`[old, new]`, each `old` once
in the file) that give a record showing one rule. The script writes, per
case, the CSL-JSON item `fetch -f csl-json` writes for the changed record
(through `examples/citeproc_refs.rs`) and the reference pandoc's citeproc
prints for it with the style file of bench/citeproc/styles/:

    pandoc doc.md --citeproc --csl bench/citeproc/styles/STYLE.csl \
        --bibliography items.json -t html --wrap=none     # nocite: "@*"

normalised as compare.py does, to tests/fixtures/citeproc/rules-pandoc-3.9.json,
which `tests/cite.rs` (`cite::rule_*`) reads.

Usage: bench/citeproc/rules.py [--pandoc PATH]
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from compare import ROOT, STYLES, Entries, norm  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pandoc", default=None)
    a = ap.parse_args()
    pandoc = a.pandoc
    if not pandoc:
        import pypandoc
        pandoc = pypandoc.get_pandoc_path()
    version = subprocess.run([pandoc, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    cases = json.load(open(os.path.join(HERE, "rules-cases.json"), encoding="utf-8"))
    out = {"pandoc": version, "cases": {}}
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, case in cases.items():
            body = open(os.path.join(ROOT, "tests", "fixtures", case["fixture"]), encoding="utf-8").read()
            for old, new in case["subs"]:
                if body.count(old) != 1:
                    sys.exit(f"{name}: {old!r} is not once in {case['fixture']}")
                body = body.replace(old, new)
            files[name] = os.path.join(tmp, f"{name}.xml")
            open(files[name], "w", encoding="utf-8").write(body)
        csl = ",".join(os.path.join(HERE, "styles", f) for f in STYLES.values())
        run = subprocess.run(["cargo", "run", "-q", "--example", "citeproc_refs", "--", csl] + list(files.values()),
                             cwd=ROOT, capture_output=True, text=True)
        if run.returncode:
            sys.exit(run.stderr)
        rows = [json.loads(l) for l in run.stdout.splitlines()]
        doc = os.path.join(tmp, "doc.md")
        open(doc, "w").write('---\nnocite: "@*"\n---\n')
        for name, case in cases.items():
            row = next(r for r in rows if r["file"] == files[name] and r["pmid"] == case["pmid"])
            row["item"].pop("abstract", None)  # long, and no style prints it
            bib = os.path.join(tmp, "items.json")
            json.dump([row["item"]], open(bib, "w"), ensure_ascii=False)
            style = os.path.join(HERE, "styles", STYLES[case["style"]])
            html_out = subprocess.run([pandoc, doc, "--citeproc", "--csl", style, "--bibliography", bib,
                                       "-t", "html", "--wrap=none"], capture_output=True, text=True, check=True).stdout
            p = Entries()
            p.feed(html_out)
            theirs = norm(p.out[row["item"]["id"]])
            ours = norm(row["refs"][style])
            print(f"{'=' if ours == theirs else 'X'} {name} ({case['style']})\n  pandoc: {theirs}")
            if ours != theirs:
                print(f"  pubmed: {ours}")
            out["cases"][name] = dict(case, item=row["item"], pandoc=theirs)
    path = os.path.join(ROOT, "tests", "fixtures", "citeproc", "rules-pandoc-3.9.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
