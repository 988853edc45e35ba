#!/usr/bin/env python3
"""Compare `pubmed cite` with pandoc's citeproc on real PubMed records.

Not part of `cargo test` (it needs pandoc and the mirrored test data of other
projects). For each style, both sides format the same CSL-JSON item (the one
`fetch -f csl-json` writes) with the same .csl file from the
citation-style-language/styles repository (bench/citeproc/styles/, see
PROVENANCE.md there); references are compared after whitespace and
quote-style normalisation and the leading number (`1.`, `[1]`) removed.

Usage:
  bench/citeproc/compare.py [--pandoc PATH] [--out DIR]

Records: every `efetch_*.xml` in tests/fixtures/, and the files listed in
bench/citeproc/records.tsv (repository, commit, path), read from the `fetch`
tool's mirrors under /work/.mirror/OWNER+NAME/repo. Prints per style
`equal / records` and writes the differences to DIR/diff-STYLE.txt and
every record (item and our references) to DIR/rows.jsonl.
"""
import argparse, glob, html, json, os, re, subprocess, sys, tempfile
from html.parser import HTMLParser

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
HERE = os.path.join(ROOT, "bench", "citeproc")
STYLES = {
    "apa": "apa.csl",
    "vancouver": "nlm-citation-sequence.csl",
    "ama": "american-medical-association.csl",
    "chicago-author-date": "chicago-author-date.csl",
    "harvard": "harvard-cite-them-right.csl",
    "ieee": "ieee.csl",
    "nature": "nature.csl",
}


def records_from_manifest(tmp):
    files = sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "efetch_pubmed_*.xml")))
    manifest = os.path.join(HERE, "records.tsv")
    for n, line in enumerate(open(manifest, encoding="utf-8")):
        if line.startswith("#") or not line.strip():
            continue
        repo, commit, path, kind = line.rstrip("\n").split("\t")[:4]
        git = f"/work/.mirror/{repo.replace('/', '+')}/repo"
        body = subprocess.run(["git", "-C", git, "show", f"{commit}:{path}"],
                              capture_output=True, check=True).stdout
        bodies = [body]
        if kind == "vcr":
            import yaml
            bodies = []
            for it in yaml.safe_load(body)["interactions"]:
                b = it["response"]["body"]["string"]
                b = b.encode() if isinstance(b, str) else b
                if b"<PubmedArticleSet" in b:
                    bodies.append(b)
        for k, b in enumerate(bodies):
            out = os.path.join(tmp, f"m{n:04d}_{k}.xml")
            open(out, "wb").write(b)
            files.append(out)
    return files


class Entries(HTMLParser):
    """`<div id="ref-ID" class="csl-entry">…</div>` → {ID: text}."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out, self.cur, self.depth = {}, None, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "div" and "csl-entry" in (a.get("class") or ""):
            self.cur, self.depth = a["id"][4:], 1
            self.out[self.cur] = ""
        elif tag == "div" and self.cur:
            self.depth += 1

    def handle_endtag(self, tag):
        if tag == "div" and self.cur:
            self.depth -= 1
            if self.depth == 0:
                self.cur = None

    def handle_data(self, data):
        if self.cur:
            self.out[self.cur] += data


def norm(s):
    s = s.replace("\u00a0", " ").replace("\u202f", " ")
    s = re.sub(r"[\u201c\u201d\u00ab\u00bb]", '"', s)
    s = re.sub(r"[\u2018\u2019]", "'", s)
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"^(\[\d+\]|\d+\.)\s*", "", s)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pandoc", default=None)
    ap.add_argument("--out", default=os.path.join(ROOT, "target", "citeproc"))
    ap.add_argument("--golden", default=None,
                    help="write pandoc's normalised references of the tests/fixtures records here (JSON)")
    a = ap.parse_args()
    pandoc = a.pandoc
    if not pandoc:
        import pypandoc
        pandoc = pypandoc.get_pandoc_path()
    os.makedirs(a.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        files = records_from_manifest(tmp)
        csl = [os.path.join(HERE, "styles", f) for f in STYLES.values()]
        run = subprocess.run(
            ["cargo", "run", "-q", "--example", "citeproc_refs", "--", ",".join(csl)] + files,
            cwd=ROOT, capture_output=True, text=True)
        if run.returncode:
            sys.exit(run.stderr)
        rows, seen = [], set()
        for line in run.stdout.splitlines():
            r = json.loads(line)
            if r["pmid"] in seen:  # the same record in two captures
                continue
            seen.add(r["pmid"])
            rows.append(r)
        items = [r["item"] for r in rows]
        with open(os.path.join(a.out, "rows.jsonl"), "w", encoding="utf-8") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        bib = os.path.join(tmp, "items.json")
        json.dump(items, open(bib, "w"), ensure_ascii=False)
        doc = os.path.join(tmp, "doc.md")
        open(doc, "w").write('---\nnocite: "@*"\n---\n')
        print(f"records: {len(rows)} (pandoc: {subprocess.run([pandoc, '--version'], capture_output=True, text=True).stdout.splitlines()[0]})")
        total_eq = 0
        golden = {}
        for short, file in STYLES.items():
            path = os.path.join(HERE, "styles", file)
            html_out = subprocess.run(
                [pandoc, doc, "--citeproc", "--csl", path, "--bibliography", bib,
                 "-t", "html", "--wrap=none"], capture_output=True, text=True, check=True).stdout
            p = Entries()
            p.feed(html_out)
            golden[short] = {r["pmid"]: norm(p.out.get(r["item"]["id"], ""))
                             for r in rows if "/tests/fixtures/" in r["file"]}
            eq, diffs = 0, []
            for r in rows:
                ours = norm(r["refs"][path])
                theirs = norm(p.out.get(r["item"]["id"], ""))
                if ours == theirs:
                    eq += 1
                else:
                    diffs.append(f"PMID {r['pmid']}\n  pandoc: {theirs}\n  pubmed: {ours}\n")
            total_eq += eq
            open(os.path.join(a.out, f"diff-{short}.txt"), "w").write("\n".join(diffs))
            print(f"{short:22} {eq:4} / {len(rows)}  {100 * eq / max(len(rows), 1):5.1f} %")
        if a.golden:
            with open(a.golden, "w", encoding="utf-8") as f:
                json.dump(golden, f, ensure_ascii=False, indent=1, sort_keys=True)
                f.write("\n")


if __name__ == "__main__":
    main()
