"""``small_text``: text, or a span of it, set below 6 pt once it has shrunk to fit its box."""

from __future__ import annotations

from collections.abc import Iterator

from .seen import Finding, SideSeen

SMALLEST = 6.0  # points: below this, printed text is hard to read at arm's length


def check(side: SideSeen) -> Iterator[Finding]:
    for drawn in side.drawn:
        fitted = drawn.text
        if fitted is None or fitted.smallest >= SMALLEST - 1e-9:
            continue
        if fitted.smallest < fitted.size - 1e-9:  # a [size=…] span, shrunk with the text
            yield drawn.element, "small_text", (
                f"a span in the text of element '{drawn.element.id}' is set at {fitted.smallest:.3g} pt: below {SMALLEST:g} pt "
                "it is hard to read; give it a larger [size=…], or the text more room"
            )
            continue
        asked = float(drawn.element.props.get("size", fitted.size))
        shrunk = f", shrunk from {asked:g} pt to fit" if asked > fitted.size + 1e-9 else ""
        yield drawn.element, "small_text", (
            f"text of element '{drawn.element.id}' is set at {fitted.size:g} pt{shrunk}: "
            f"below {SMALLEST:g} pt it is hard to read; give it more room, fewer words or a larger min_size"
        )
