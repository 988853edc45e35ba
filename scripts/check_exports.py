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
"""

import sys


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
    ok = True
    for p in paths:
        ok &= check_ris(p) if p.endswith(".ris") else check_bibtex(p)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
