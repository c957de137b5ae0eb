"""Stage 1, one side of one piece: layout elements, text fitting, art and icons, images, SVG, fonts, cut outlines."""
