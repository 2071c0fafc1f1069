"""One drawing seam, as pymunk's debug draw: what to draw as small values in table inches,
drawn by a backend for the medium.

- `primitives`: Polygon, Arc, Ring, Line, Text, Hatch and Raster, each a frozen value in
  inches with a `Style` (colour, width, fill, dash, alpha);
- `scenes`: the scenes described once, as lists of primitives: the fire arcs of a unit,
  its range rings, terrain with its hatching, the threat map, a base's arc template;
- `hatching`: the hatching of each terrain kind, and the hatch runs of polygons (pure
  numpy, in the medium's units);
- `wording`: text wrapped to a width; `files`: a drawing's output file checked first.

The backends live with their medium: `tactical.ui.draw.PygameCanvas` (the play screen and
PNG pictures) and `tactical.kit.paper.PaperCanvas` (the print kit, reportlab). Nothing
here imports pygame or reportlab.
"""
