"""Redraw the showcase game's pictures (components/showcase/art/*.png): four flat harbour scenes, 480 × 480 px,
one per kind of cargo, drawn with Pillow so the game ships no third-party art. The same code gives the same
pixels; the PNGs are committed, so a build never runs this.

    .venv/bin/python docs/images/showcase_art.py
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ART = Path(__file__).resolve().parents[2] / "components" / "showcase" / "art"
SIZE = 480
SEA, SKY, SAND = (38, 84, 124), (244, 200, 140), (233, 216, 166)


def scene(sky: tuple[int, int, int]) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A sky over a sea with a low sun: the ground every picture is drawn on."""
    image = Image.new("RGB", (SIZE, SIZE), sky)
    draw = ImageDraw.Draw(image)
    draw.ellipse((300, 70, 400, 170), fill=(250, 235, 190))
    draw.rectangle((0, 300, SIZE, SIZE), fill=SEA)
    for y in range(320, SIZE, 36):
        draw.line((30, y, 200, y), fill=(70, 120, 160), width=4)
        draw.line((260, y + 14, 450, y + 14), fill=(70, 120, 160), width=4)
    return image, draw


def fish() -> Image.Image:
    """Herring leaping over the waves."""
    image, draw = scene(SKY)
    for x, y in ((90, 250), (230, 200), (330, 270)):
        draw.ellipse((x, y, x + 110, y + 50), fill=(170, 190, 200), outline=(40, 60, 80), width=4)
        draw.polygon([(x + 105, y + 25), (x + 150, y), (x + 150, y + 50)], fill=(140, 160, 175))
        draw.ellipse((x + 18, y + 14, x + 30, y + 26), fill=(20, 30, 40))
    return image


def salt() -> Image.Image:
    """Three barrels on the quay."""
    image, draw = scene((236, 214, 178))
    draw.rectangle((0, 330, SIZE, SIZE), fill=SAND)
    for x in (60, 190, 320):
        draw.rounded_rectangle((x, 200, x + 110, 360), radius=30, fill=(150, 96, 52), outline=(70, 40, 20), width=5)
        for y in (235, 325):
            draw.line((x + 4, y, x + 106, y), fill=(70, 40, 20), width=8)
    return image


def spice() -> Image.Image:
    """A chest of red pepper under a dusk sky."""
    image, draw = scene((232, 150, 110))
    draw.rectangle((0, 330, SIZE, SIZE), fill=SAND)
    draw.rectangle((110, 220, 370, 360), fill=(120, 60, 40), outline=(60, 25, 15), width=6)
    draw.chord((110, 160, 370, 280), 180, 360, fill=(200, 50, 40), outline=(60, 25, 15), width=6)
    draw.rectangle((225, 250, 255, 300), fill=(230, 190, 70))
    return image


def timber() -> Image.Image:
    """A stack of oak logs by the water."""
    image, draw = scene((200, 220, 190))
    draw.rectangle((0, 330, SIZE, SIZE), fill=(120, 150, 90))
    for row, count in ((0, 4), (1, 3), (2, 2)):
        for i in range(count):
            x, y = 70 + row * 45 + i * 90, 300 - row * 80
            draw.ellipse((x, y, x + 90, y + 90), fill=(196, 150, 96), outline=(90, 55, 25), width=6)
            draw.ellipse((x + 30, y + 30, x + 60, y + 60), outline=(120, 80, 40), width=4)
    return image


def main() -> None:
    ART.mkdir(parents=True, exist_ok=True)
    for name, draw in (("fish", fish), ("salt", salt), ("spice", spice), ("timber", timber)):
        draw().save(ART / f"{name}.png", optimize=True)


if __name__ == "__main__":
    main()
