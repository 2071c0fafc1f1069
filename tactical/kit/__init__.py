"""The printable 1:1 kit: templates, rulers and sheets for a real table, as a PDF (reportlab).

`content` gathers what to print from a rule system and a map (plain values in inches);
`pdf` lays it out on pages at true scale, each page (`document`) with calibration bars;
`paper` draws the drawing seam's primitives (`tactical.drawing`) on those pages.
"""
