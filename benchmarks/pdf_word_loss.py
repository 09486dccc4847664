"""Which words of a real PDF our text loses against pdftotext, and how many of them no text should keep.

    python benchmarks/pdf_word_loss.py FILE.pdf [FILE.pdf ...] [--engine pypdf|pdfium|auto] [--top N]

text_quality.py scores a real PDF's words against pdftotext's; this says where a low recall
comes from. For each file it prints the recall (as text_quality counts it), the words lost most
often, and two shares of the truth that a correct text cannot match, each with the recall
without it:
- running heads and feet: words of pdftotext lines that recur on a third of the pages or more
  (digits aside, as text_quality's `furn` column reads them); the extractor removes these as
  page furniture on purpose (JCAP's "Journal of Cosmology and Astroparticle Physics 10 (2008)
  003 (stacks.iop.org/...)" and its title on every page).
- glyph codes: TeX's symbol font CMSY draws ‖ ⟨ ⟩ at the codes of `k` `h` `i`; a font whose
  ToUnicode map leaves them out is printed by pdftotext as those letters ("‖u‖" as "kuk"),
  where pypdf reads the glyph names. Recall is shown again with our ‖ ⟨ ⟩ written as
  pdftotext's letters: the words that then match were never lost.
And the recall on the truth's words of four letters or more: math's tokens ("ψL", "wk", "us",
pdftotext's "kuk" for ‖u‖) are shorter, so this is roughly the prose's.
Needs poppler's pdftotext.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import text_quality as tq  # noqa: E402

CMSY_LETTERS = str.maketrans({"‖": "k", "∥": "k", "⟨": "h", "⟩": "i"})


def running_lines(pdftotext_text: str) -> set[str]:
    """Lines (digits aside) that pdftotext prints on a third of the pages or more."""
    pages = [page.split("\n") for page in pdftotext_text.split("\f") if page.strip()]
    seen: Counter[str] = Counter()
    for page in pages:
        seen.update({tq._furniture_key(line) for line in page if line.strip() and len(line) < 120})
    return {key for key, count in seen.items() if count >= max(3, len(pages) // 3) and tq.words(key)}


def report(path: Path, engine: str, top: int) -> None:
    from arxiv_mcp.text import extract

    reference = tq.pdftotext(path)
    if reference is None:
        sys.exit("pdftotext is not installed (poppler-utils)")
    ours = extract.from_pdf(path.read_bytes(), engine=engine).text
    truth, got = tq.words(reference), tq.words(ours)
    total = sum(truth.values())
    print(f"{path.name} ({engine}): {total} truth words, recall {tq.overlap(truth, got)[0]:.3f}")
    print("  lost most:", ", ".join(f"{word} {count}" for word, count in (truth - got).most_common(top)))
    repeated = running_lines(reference)
    body = tq.words("\n".join(line for line in reference.split("\n") if tq._furniture_key(line) not in repeated))
    print(
        f"  running heads/feet: {total - sum(body.values())} words in {len(repeated)} recurring lines; "
        f"recall without them {tq.overlap(body, got)[0]:.3f}"
    )
    coded = tq.words(ours.translate(CMSY_LETTERS))
    symbols = sum(ours.count(symbol) for symbol in "‖∥⟨⟩")
    print(
        f"  glyph codes: {symbols} of our ‖ ⟨ ⟩; recall with them written as pdftotext's k h i "
        f"{tq.overlap(truth, coded)[0]:.3f}, and without the running lines too {tq.overlap(body, coded)[0]:.3f}"
    )
    long_words = Counter({word: count for word, count in body.items() if len(word) >= 4})
    print(f"  words of 4+ letters (running lines out): recall {tq.overlap(long_words, got)[0]:.3f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--engine", choices=("auto", "pypdf", "pdfium"), default="pypdf")
    parser.add_argument("--top", type=int, default=20)
    args = parser.parse_args(argv)
    for path in args.files:
        report(path, args.engine, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
