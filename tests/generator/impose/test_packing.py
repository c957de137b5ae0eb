"""Packing rectangles onto pages (tiles, polyomino boxes, sheets): shelves, or MaxRects when it takes
fewer pages. Checked on random sizes: every item placed once, inside the room, its gap kept to
every neighbour, turned only when allowed, never more pages than shelves, the same every time."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from punchboard.generator.impose.packing import Placement, pack, shelf_pack

MM = 72 / 25.4
ROOM = (12.0, 30.0, 201.4 * MM, 258.9 * MM)  # Letter inside its 4.23 mm margin, less a footer
GAP = 7.5 * MM


def _check(pages: list[list[Placement]], sizes: list[tuple[float, float]], turn: bool) -> None:
    seen = sorted(p.item for page in pages for p in page)
    assert seen == list(range(len(sizes)))
    x0, y0, width, height = ROOM
    for page in pages:
        for p in page:
            w, h = sizes[p.item]
            assert (p.width, p.height) == ((h, w) if p.turned else (w, h))
            assert turn or not p.turned
            assert x0 - 1e-6 <= p.x and p.x + p.width <= x0 + width + 1e-3
            assert y0 - 1e-6 <= p.y and p.y + p.height <= y0 + height + 1e-3
        for i, a in enumerate(page):
            for b in page[i + 1:]:
                apart = (a.x + a.width + GAP <= b.x + 1e-3 or b.x + b.width + GAP <= a.x + 1e-3
                         or a.y + a.height + GAP <= b.y + 1e-3 or b.y + b.height + GAP <= a.y + 1e-3)
                assert apart, (a, b)


def test_steamark_rides_fit_one_letter_page_where_shelves_took_two() -> None:
    sizes = [(28 * MM, 28 * MM), (56 * MM, 28 * MM), (56 * MM, 56 * MM)] * 6
    assert len(shelf_pack(sizes, ROOM, GAP)) == 2
    pages = pack(sizes, ROOM, GAP)
    assert len(pages) == 1
    _check(pages, sizes, True)
    top = max(p.y + p.height for p in pages[0])
    assert top == ROOM[1] + ROOM[3] or abs(top - (ROOM[1] + ROOM[3])) < 1e-3  # filled from the top


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.integers(10, 180), st.integers(10, 240)), min_size=1, max_size=30),
    st.booleans(),
)
def test_any_sizes_pack_inside_the_room_with_their_gaps_and_never_on_more_pages_than_shelves(
    dims: list[tuple[int, int]], turn: bool
) -> None:
    sizes = [(w * MM, h * MM) for w, h in dims]  # each fits the room upright
    pages = pack(sizes, ROOM, GAP, turn=turn)
    _check(pages, sizes, turn)
    assert len(pages) <= len(shelf_pack(sizes, ROOM, GAP, turn=turn))
    assert pack(sizes, ROOM, GAP, turn=turn) == pages  # deterministic
