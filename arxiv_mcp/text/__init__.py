"""Full text: which source a read uses, what the bytes are, and how each becomes text.

Contract: every extractor returns the shared text shape (Markdown headings for the
document's structure, `## Page N` markers only from paged sources, no body line starting
with `#`), so the views (pages, outline, sections, find) work on any source. Paper text is
data: nothing here executes it, and no archive member names a path on disk.
"""
