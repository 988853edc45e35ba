#!/usr/bin/env python3
"""Second opinion on `pubmed fetch -f ris|bibtex` exports (a dev tool, not CI).

Reads the files with independent Python parsers -- rispy for RIS,
bibtexparser (2.x) for BibTeX -- and prints one line per entry, so the
fields a reference manager would see can be eyeballed; exits 1 when a file
does not parse or an entry lacks its title.

    python3 -m venv /tmp/v && /tmp/v/bin/pip install rispy 'bibtexparser>=2.0.0b1'
    pubmed fetch --input pmids.txt -f ris > refs.ris
    pubmed fetch --input pmids.txt -f bibtex > refs.bib
    /tmp/v/bin/python scripts/check_exports.py refs.ris refs.bib

`--hostile [PUBMED]` checks the BibTeX of hostile titles and names (braces,
balanced and not, `@`, `%`, `#`, `\`, `$`, `~`, `"`, ` and `, non-ASCII):
the real capture of PMID 16080930 (tests/fixtures/) with its title, journal
and authors replaced, served by a loopback EFetch to `PUBMED fetch -f
bibtex` (default target/debug/pubmed), once with LaTeX escapes and once
with `--bib-unicode`. Each output is read by bibtexparser, by biber (`biber
--tool`) and by BibTeX 0.99d (a small .bst that prints each entry's key,
whether it has a title, and its number of authors), when installed; it
prints entries parsed per reader / entries written and exits 1 unless every
reader parses every entry, under its own key, with its title and as many
authors as the record has, reports no error, and holds the same title and
journal text as bibtexparser (docs/cite.md "BibTeX").

    apt-get install biber texlive-binaries; pip install bibtexparser==2.1.0
    python3 scripts/check_exports.py --hostile
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from html import escape
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlparse

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))

# (title, journal, [(last, fore), ...]); the first title is the one BibTeX
# once read a new entry (`@article{evil`) out of.
HOSTILE = [
    ("Unbalanced } brace @article{evil, title={x", "J {Test", [("Smith}", "Ann")]),
    ("Open { brace % not a comment # hash \\ backslash", "Journal % of # tests",
     [("van der {Berg", "Jan"), ("O'Brien", "Liam")]),
    ("}}}{{{ @comment{ \\}", "}{", [("Rossi", "Anna {Maria")]),
    ("50% of #tags & $5 ~ ^ _ \\textbf{bold} \\\\ end", "Acta $x$",
     [("Smith and Jones", "Bob"), ("Lee", "Kim and Park")]),
    ('@preamble{"\\x"} @string{a = "b"} "quoted" " lone quote', 'J @ "Q"', [('Zo"e', "Al")]),
    ("Trailing backslash \\", "Backslash \\", [("Back\\", "Sl\\")]),
    ("{Balanced} braces and {{nested}} ones, = equals", "{Nature}", [("{Group}", "X")]),
    ("Łódź, ß, ε4 and “curly” quotes: a survey", "Revista española", [("Muñoz-Łukasz", "José-ángel")]),
]
BASE_PMID = "16080930"
CAPTURE = "efetch_pubmed_season_month_range_utf8.xml"


def hostile_articles():
    """The capture's prolog and {pmid: PubmedArticle}, one per HOSTILE row."""
    body = open(os.path.join(ROOT, "tests", "fixtures", CAPTURE), encoding="utf-8").read()
    prolog = body[:body.index("<PubmedArticleSet>")]
    base = next(a for a in re.findall(r"<PubmedArticle>.*?</PubmedArticle>", body, re.S)
                if f'<PMID Version="1">{BASE_PMID}</PMID>' in a)
    out = {}
    for i, (title, journal, authors) in enumerate(HOSTILE):
        pmid = str(90000001 + i)
        a = base.replace(BASE_PMID, pmid)
        a = re.sub(r"<ArticleTitle>.*?</ArticleTitle>",
                   lambda _: f"<ArticleTitle>{escape(title, False)}</ArticleTitle>", a, flags=re.S)
        a = re.sub(r"<Title>.*?</Title>", lambda _: f"<Title>{escape(journal, False)}</Title>", a, flags=re.S)
        names = "".join(f'<Author ValidYN="Y"><LastName>{escape(last, False)}</LastName>'
                        f"<ForeName>{escape(fore, False)}</ForeName></Author>" for last, fore in authors)
        a = re.sub(r"<AuthorList.*?</AuthorList>",
                   lambda _: f'<AuthorList CompleteYN="Y">{names}</AuthorList>', a, flags=re.S)
        out[pmid] = a
    return prolog, out


def serve(prolog, articles):
    """A loopback EFetch answering the articles asked for, in order."""
    class H(BaseHTTPRequestHandler):
        def do_GET(self):
            self.answer(urlparse(self.path).query)

        def do_POST(self):  # EFetch takes its IDs in a form body
            n = int(self.headers.get("Content-Length") or 0)
            self.answer(self.rfile.read(n).decode())

        def answer(self, query):
            if not urlparse(self.path).path.endswith("efetch.fcgi"):
                self.send_error(404)
                return
            ids = parse_qs(query).get("id", [""])[0].split(",")
            body = (prolog + "<PubmedArticleSet>\n" + "".join(articles.get(i, "") + "\n" for i in ids)
                    + "</PubmedArticleSet>\n").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/xml; charset=UTF-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), H)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd


def names(value):
    """How many names BibTeX reads in a name list: `and` at brace level 0."""
    depth, n, i = 0, 1, 0
    while i < len(value):
        c = value[i]
        if c == "\\":
            i += 2
            continue
        depth += c == "{"
        depth -= c == "}"
        if depth == 0 and i > 0 and re.match(r"\s+and\s", value[i:], re.I):
            n += 1
        i += 1
    return n


def read_bibtexparser(path, keys):
    import bibtexparser
    from bibtexparser.middlewares import SeparateCoAuthors

    lib = bibtexparser.parse_file(path, append_middleware=[SeparateCoAuthors()])
    got = {e.key for e in lib.entries
           if "title" in e.fields_dict and "author" in e.fields_dict
           and len(e.fields_dict["author"].value) == keys.get(e.key)}
    errors = [b.raw[:60] for b in lib.failed_blocks]
    fields = {e.key: (e.fields_dict["title"].value, e.fields_dict["journal"].value)
              for e in lib.entries if "title" in e.fields_dict and "journal" in e.fields_dict}
    return got, len(lib.entries), errors, fields


def read_biber(path, keys, tmp):
    out = os.path.join(tmp, "biber-out.bib")
    run = subprocess.run(["biber", "--tool", "--output-file", out, path],
                         capture_output=True, text=True, cwd=tmp)
    text = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    entries, got, fields = 0, set(), {}
    for b in re.split(r"^(?=@)", text, flags=re.M):
        m = re.match(r"@\w+\{([^,]+),", b)
        if not m:
            continue
        entries += 1
        a = re.search(r"^\s*AUTHOR\s*=\s*\{(.*)\},?\s*$", b, re.M | re.I)
        if (a and re.search(r"^\s*TITLE\s*=", b, re.M | re.I)
                and names(a.group(1)) == keys.get(m.group(1))):
            got.add(m.group(1))
        t = re.search(r"^\s*TITLE\s*=\s*\{\{(.*)\}\},?\s*$", b, re.M)
        j = re.search(r"^\s*JOURNALTITLE\s*=\s*\{(.*)\},?\s*$", b, re.M)
        if t and j:
            fields[m.group(1)] = ("{" + t.group(1) + "}", j.group(1))
    errors = [line for line in (run.stdout + run.stderr).splitlines() if re.search(r"ERROR|WARN", line)]
    return got, entries, errors, fields


BST = """ENTRY { author title } {} {}
FUNCTION {default.type} { "ENTRY " cite$ * " " * title empty$ { "NOTITLE" } { "TITLED" } if$ * " " *
  author empty$ { "0" } { author num.names$ int.to.str$ } if$ * write$ newline$ }
FUNCTION {article} { default.type }
FUNCTION {book} { default.type }
FUNCTION {incollection} { default.type }
FUNCTION {misc} { default.type }
READ
ITERATE {call.type$}
"""


def read_bibtex(path, keys, tmp):
    shutil.copy(path, os.path.join(tmp, "refs.bib"))
    open(os.path.join(tmp, "one.bst"), "w").write(BST)
    open(os.path.join(tmp, "doc.aux"), "w").write("\\citation{*}\n\\bibdata{refs}\n\\bibstyle{one}\n")
    # Without texlive-base's texmf.cnf, kpathsea looks only where told.
    env = dict(os.environ, BIBINPUTS=tmp, BSTINPUTS=tmp)
    subprocess.run(["bibtex", "-terse", "doc"], capture_output=True, text=True, cwd=tmp, env=env)
    bbl = open(os.path.join(tmp, "doc.bbl"), encoding="utf-8", errors="replace").read()
    blg = open(os.path.join(tmp, "doc.blg"), encoding="utf-8", errors="replace").read()
    entries = re.findall(r"^ENTRY (\S+) (\w+) (\d+)$", bbl, re.M)
    errors = [line for line in blg.splitlines()
              if re.search(r"error message|I was expecting|^Warning--", line, re.I)]
    got = {k for k, t, n in entries if t == "TITLED" and keys.get(k) == int(n)}
    return got, len(entries), errors, None


def hostile(pubmed):
    prolog, articles = hostile_articles()
    httpd = serve(prolog, articles)
    env = dict(os.environ, PUBMED_EUTILS_URL=f"http://127.0.0.1:{httpd.server_address[1]}/entrez/eutils/",
               XDG_CACHE_HOME=tempfile.mkdtemp(), XDG_RUNTIME_DIR=tempfile.mkdtemp())
    # key -> the number of authors written
    keys = {f"pmid{p}": len(HOSTILE[i][2]) for i, p in enumerate(articles)}
    ascii = {f"pmid{p}" for i, p in enumerate(articles) if (HOSTILE[i][0] + HOSTILE[i][1]).isascii()}
    ok = True
    for label, extra in [("latex", []), ("unicode", ["--bib-unicode"])]:
        run = subprocess.run([pubmed, "fetch", "-f", "bibtex", "-q", "--no-progress", *extra, *articles],
                             capture_output=True, text=True, env=env)
        if run.returncode:
            sys.exit(f"pubmed fetch exited {run.returncode}: {run.stderr}")
        written = len(re.findall(r"^@", run.stdout, re.M))
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "hostile.bib")
            open(path, "w", encoding="utf-8").write(run.stdout)
            readers = [("bibtexparser", lambda: read_bibtexparser(path, keys))]
            if shutil.which("biber"):
                readers.append(("biber", lambda: read_biber(path, keys, tmp)))
            if shutil.which("bibtex") and label == "latex":  # BibTeX 0.99d reads bytes, not UTF-8
                readers.append(("bibtex", lambda: read_bibtex(path, keys, tmp)))
            first = None
            for name, read in readers:
                got, total, errors, fields = read()
                if fields is not None:
                    # Title and journal as each reader holds them, unexpanded.
                    first = first or (name, fields)
                    # biber writes LaTeX accents back as UTF-8: compare the
                    # ASCII rows of the LaTeX run, every row of the UTF-8 one.
                    comp = [k for k in keys if label == "unicode" or k in ascii]
                    same = sum(fields.get(k) == first[1].get(k) is not None for k in comp)
                    print(f"{label:8} {name:13} title and journal equal to {first[0]}'s: {same} / {len(comp)}")
                    ok &= same == len(comp)
                good = len(got) == len(keys) == written == total and not errors
                ok &= good
                print(f"{label:8} {name:13} {len(got)} / {written} entries (read {total}, "
                      f"{len(errors)} errors){'' if good else '  FAIL'}")
                wrong = sorted(set(keys) - got)
                if wrong:
                    print(f"    wrong title or author count: {', '.join(wrong)}")
                for e in errors[:5]:
                    print(f"    {e}")
    httpd.shutdown()
    return ok


def check_ris(path):
    import rispy

    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    if "\n" in text.replace("\r\n", ""):
        print(f"{path}: a line ends without CR LF", file=sys.stderr)
        return False
    # Error lines ("# pubmed: ...") between records are skipped by rispy,
    # as by reference managers.
    records = rispy.loads(text)
    ok = True
    for r in records:
        title = r.get("title") or r.get("primary_title")
        authors = r.get("authors") or r.get("first_authors") or []
        print(f"RIS {r.get('type_of_reference')} AN={r.get('accession_number')} "
              f"authors={len(authors)} title={title!r:.60} "
              f"journal={r.get('secondary_title')!r} date={r.get('date')!r} "
              f"pages={r.get('start_page')}-{r.get('end_page')} notes={r.get('notes')}")
        ok &= bool(title)
    return ok


def check_bibtex(path):
    import bibtexparser

    lib = bibtexparser.parse_file(path)
    if lib.failed_blocks:
        for b in lib.failed_blocks:
            print(f"{path}: cannot parse: {b.raw[:80]!r}", file=sys.stderr)
        return False
    ok = True
    for e in lib.entries:
        fields = {f.key: f.value for f in e.fields}
        print(f"BibTeX @{e.entry_type}{{{e.key}}} year={fields.get('year')} "
              f"month={fields.get('month')} title={fields.get('title')!r:.60} "
              f"note={fields.get('note')!r}")
        ok &= "title" in fields
    return ok


def main(paths):
    if paths and paths[0] == "--hostile":
        pubmed = paths[1] if len(paths) > 1 else os.path.join(ROOT, "target", "debug", "pubmed")
        return 0 if hostile(pubmed) else 1
    ok = True
    for p in paths:
        ok &= check_ris(p) if p.endswith(".ris") else check_bibtex(p)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
