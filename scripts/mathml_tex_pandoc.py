#!/usr/bin/env python3
"""Reference TeX for MathML, from pandoc (texmath), for tests/mathml_tex.rs.

Writes tests/fixtures/mathml_tex_pandoc.json: one entry per MathML formula
in the fixtures below (in document order) and per synthetic snippet, each
{"source", "index", "mathml", "tex"}, where "tex" is pandoc's TeX with its
\\( \\) / \\[ \\] delimiters removed and whitespace runs folded to one space.

Reproduce (pandoc 3.9, the binary in PyPI's pypandoc_binary 1.17):
    pip install pypandoc_binary==1.17
    python3 scripts/mathml_tex_pandoc.py
Each formula is put alone in a JATS paragraph,
<p><inline-formula><mml:math>…</mml:math></inline-formula></p>,
and the document converted with `pandoc -f jats -t latex --wrap=none`;
paragraphs come back separated by blank lines, in order.
"""
import json
import os
import re
import subprocess

import pypandoc

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(ROOT, "tests", "fixtures")
FIXTURES = [
    "efetch_pubmed_orcid_collectivename_mathml_2019.xml",
    "europepmc_mathml_tables_pmc13133655.xml",
    "europepmc_review_pmc13249512.xml",
]
M = 'xmlns:mml="http://www.w3.org/1998/Math/MathML"'
# One snippet per presentation element the converter knows (docs/fulltext.md
# "Formulas"); written by hand, answered by pandoc.
SYNTHETIC = [
    "<mml:mi>x</mml:mi>",
    "<mml:mi>sin</mml:mi>",
    "<mml:mi mathvariant=\"bold\">K</mml:mi>",
    "<mml:mi mathvariant=\"italic\">MRI</mml:mi>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mo>+</mml:mo><mml:mi>MRI</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mrow><mml:mi>b</mml:mi><mml:mi>c</mml:mi></mml:mrow></mml:mrow>",
    "<mml:mrow><mml:mi>α</mml:mi><mml:mo>≤</mml:mo><mml:mi>Δ</mml:mi><mml:mo>±</mml:mo><mml:mn>3.5</mml:mn></mml:mrow>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mo>×</mml:mo><mml:mi>b</mml:mi><mml:mo>−</mml:mo><mml:mi>c</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mo>−</mml:mo><mml:mn>1</mml:mn></mml:mrow>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mo>/</mml:mo><mml:mi>b</mml:mi><mml:mo>,</mml:mo><mml:mi>c</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mi>p</mml:mi><mml:mo>&lt;</mml:mo><mml:mn>0.05</mml:mn></mml:mrow>",
    "<mml:mtext>a_b {c} $5 100%</mml:mtext>",
    "<mml:mrow><mml:mi>x</mml:mi><mml:mtext>for all</mml:mtext><mml:mi>y</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mtext> </mml:mtext><mml:mi>b</mml:mi></mml:mrow>",
    "<mml:mfrac><mml:mi>a</mml:mi><mml:mn>2</mml:mn></mml:mfrac>",
    "<mml:msqrt><mml:mi>x</mml:mi><mml:mo>+</mml:mo><mml:mn>1</mml:mn></mml:msqrt>",
    "<mml:mroot><mml:mi>x</mml:mi><mml:mn>3</mml:mn></mml:mroot>",
    "<mml:msup><mml:mi>x</mml:mi><mml:mn>2</mml:mn></mml:msup>",
    "<mml:msup><mml:mi>x</mml:mi><mml:mo>′</mml:mo></mml:msup>",
    "<mml:msub><mml:mrow><mml:mi>C</mml:mi><mml:mi>D</mml:mi></mml:mrow><mml:mrow><mml:mi>g</mml:mi><mml:mo>+</mml:mo><mml:mn>1</mml:mn></mml:mrow></mml:msub>",
    "<mml:msubsup><mml:mi>x</mml:mi><mml:mi>i</mml:mi><mml:mn>2</mml:mn></mml:msubsup>",
    "<mml:munder><mml:mo>∑</mml:mo><mml:mi>i</mml:mi></mml:munder>",
    "<mml:munderover><mml:mo>∑</mml:mo><mml:mrow><mml:mi>i</mml:mi><mml:mo>=</mml:mo><mml:mn>1</mml:mn></mml:mrow><mml:mi>n</mml:mi></mml:munderover>",
    "<mml:mover><mml:mi>x</mml:mi><mml:mo>¯</mml:mo></mml:mover>",
    "<mml:mover><mml:mi>x</mml:mi><mml:mo>^</mml:mo></mml:mover>",
    "<mml:mfenced><mml:mi>a</mml:mi><mml:mi>b</mml:mi></mml:mfenced>",
    "<mml:mrow><mml:mo>(</mml:mo><mml:mi>a</mml:mi><mml:mo>)</mml:mo></mml:mrow>",
    "<mml:mtable><mml:mtr><mml:mtd><mml:mi>a</mml:mi></mml:mtd><mml:mtd><mml:mi>b</mml:mi></mml:mtd></mml:mtr><mml:mtr><mml:mtd><mml:mi>c</mml:mi></mml:mtd><mml:mtd><mml:mi>d</mml:mi></mml:mtd></mml:mtr></mml:mtable>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mspace width=\"0.5em\"/><mml:mi>b</mml:mi></mml:mrow>",
    "<mml:mstyle displaystyle=\"true\"><mml:mi>a</mml:mi></mml:mstyle>",
    "<mml:mrow><mml:mn>5</mml:mn><mml:mo>°</mml:mo><mml:mi>C</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mi>μ</mml:mi><mml:mo>≥</mml:mo><mml:mi>∞</mml:mi><mml:mo>≈</mml:mo><mml:mi>π</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mo>→</mml:mo><mml:mi>b</mml:mi></mml:mrow>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mtext>\u00a0</mml:mtext><mml:mi>b</mml:mi></mml:mrow>",
    "<mml:semantics><mml:mi>a</mml:mi><mml:annotation encoding=\"TeX\">\\alpha</mml:annotation></mml:semantics>",
    "<mml:mrow><mml:mi>a</mml:mi><mml:mo>·</mml:mo><mml:mi>b</mml:mi><mml:mo>=</mml:mo><mml:mi>∂</mml:mi><mml:mi>x</mml:mi></mml:mrow>",
    "<mml:mtable columnalign=\"left\"><mml:mtr><mml:mtd><mml:mi>a</mml:mi><mml:mo>=</mml:mo><mml:mn>1</mml:mn></mml:mtd></mml:mtr><mml:mtr><mml:mtd><mml:mi>b</mml:mi></mml:mtd></mml:mtr></mml:mtable>",
    "<mml:mmultiscripts><mml:mi>X</mml:mi><mml:mi>a</mml:mi><mml:mi>b</mml:mi><mml:mprescripts/><mml:mi>c</mml:mi><mml:mi>d</mml:mi></mml:mmultiscripts>",
    "<mml:mrow><mml:mi>f</mml:mi><mml:mo>&#x2061;</mml:mo><mml:mo>(</mml:mo><mml:mi>x</mml:mi><mml:mo>)</mml:mo></mml:mrow>",
]


def pandoc_tex(snippets):
    doc = "<article %s><body>%s</body></article>" % (
        M,
        "".join("<p><inline-formula>%s</inline-formula></p>" % s for s in snippets),
    )
    out = subprocess.run(
        [pypandoc.get_pandoc_path(), "-f", "jats", "-t", "latex", "--wrap=none"],
        input=doc.encode(),
        capture_output=True,
        check=True,
    ).stdout.decode()
    paras = out.strip().split("\n\n")
    assert len(paras) == len(snippets), (len(paras), len(snippets))
    res = []
    for p in paras:
        p = p.strip()
        assert p.startswith("\\(") and p.endswith("\\)"), p
        res.append(" ".join(p[2:-2].split()))
    return res


def main():
    version = subprocess.run(
        [pypandoc.get_pandoc_path(), "--version"], capture_output=True, check=True
    ).stdout.decode().splitlines()[0]
    entries = []
    for f in FIXTURES:
        text = open(os.path.join(FIX, f), encoding="utf-8").read()
        for i, m in enumerate(re.finditer(r"<mml:math\b.*?</mml:math>", text, re.S)):
            entries.append({"source": f, "index": i, "mathml": m.group(0)})
    for i, s in enumerate(SYNTHETIC):
        entries.append({"source": "synthetic", "index": i, "mathml": "<mml:math %s>%s</mml:math>" % (M, s)})
    # Each formula alone: its own namespace declaration is kept.
    texs = pandoc_tex([e["mathml"] for e in entries])
    for e, t in zip(entries, texs):
        e["tex"] = t
    out = {"pandoc": version, "command": "pandoc -f jats -t latex --wrap=none", "formulas": entries}
    with open(os.path.join(FIX, "mathml_tex_pandoc.json"), "w", encoding="utf-8") as fh:
        json.dump(out, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(version, len(entries), "formulas")


if __name__ == "__main__":
    main()
