"""The studio page in a real browser: the system's headless Chromium, driven by Selenium.

Chromium and its driver come from Debian's packages (``make install`` installs them), so
this runs the same on a fresh CI machine. The page is never reloaded by the test: a
marker set on ``window`` at the start must survive every update.
"""

from __future__ import annotations

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

from .conftest import Served
from .tiny_game import write_deck

STALE = (StaleElementReferenceException,)  # the page re-renders a piece between finding it and reading it: look again
WAIT = 60  # seconds for a rebuild to reach the page on a busy 2-core machine
LANTERN = '[data-piece="deck/1"]'
MAP = '[data-piece="deck/3"]'


def _front_src(browser: WebDriver) -> str:
    """Read in one script, so a redraw between finding the picture and reading it cannot interfere."""
    return browser.execute_script(
        "const img = document.querySelector(arguments[0]); return img ? img.getAttribute('src') : '';",
        f"{LANTERN} img.front") or ""


def _texts(browser: WebDriver, css: str) -> list[str]:
    return browser.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map((el) => el.textContent);", css)


def _loaded(browser: WebDriver, css: str) -> bool:
    return bool(browser.execute_script(
        "const img = document.querySelector(arguments[0]); return !!img && img.complete && img.naturalWidth > 0;", css))


def test_the_page_follows_every_save_without_a_reload(served: Served, browser: WebDriver):
    wait = WebDriverWait(browser, WAIT, poll_frequency=0.2, ignored_exceptions=STALE)
    browser.get(served.url)
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, f"{LANTERN} img.front"))
    wait.until(lambda b: _loaded(b, f"{LANTERN} img.front"))
    assert _texts(browser, "#pieces figure.piece[data-piece] .name") == ["Lantern", "Rope", "Map"]
    assert _texts(browser, "#pieces figure.piece[data-piece] .count") == ["×1", "×1", "×1"]
    assert browser.find_element(By.CSS_SELECTOR, ".common-back img.back")  # one back for the whole deck
    wait.until(lambda b: b.find_elements(By.CSS_SELECTOR, "#verifier .matrix td.pass"))
    # derived numbers: what each zone holds after setup, one column per player count (3 cards, 1 dealt each)
    sizes = browser.execute_script(
        "return [...document.querySelectorAll('#verifier .derived-sizes tr')].map("
        "(tr) => [...tr.children].map((c) => c.textContent));")
    assert sizes == [["standard", "2 players", "3 players"], ["deck", "1", "0"], ["hand", "1 each", "1 each"],
                     ["box", "0", "0"]]
    assert "Tiny deck" in browser.find_element(By.ID, "bom").text
    browser.execute_script("window.studioMarker = 'not reloaded';")
    first = _front_src(browser)

    # A click shows the piece large, with its fields and layout.
    browser.find_element(By.CSS_SELECTOR, LANTERN).click()
    dialog = browser.find_element(By.ID, "piece-dialog")
    wait.until(lambda b: dialog.is_displayed())
    assert "A lantern that never goes out." in dialog.text and "base/card" in dialog.text and "tiny/back" in dialog.text
    browser.execute_script("document.getElementById('piece-dialog').close();")

    # Edit the card's text: a new picture replaces the old one.
    write_deck(served.game, "A lantern that burns blue.")
    wait.until(lambda b: _front_src(b) != first)
    edited = _front_src(browser)
    wait.until(lambda b: _loaded(b, f"{LANTERN} img.front"))
    assert browser.execute_script("return window.studioMarker;") == "not reloaded"

    # A broken save: the located error shows, the last good picture stays.
    (served.game / "deck.yaml").write_text("id: deck\nkind: deck\ncards: [\n  - name: Lantern\n", encoding="utf-8")
    wait.until(lambda b: b.find_element(By.ID, "problems").is_displayed())
    problems = browser.find_element(By.ID, "problems").text
    assert "deck.yaml:" in problems and "YAML syntax error" in problems, problems
    assert browser.find_element(By.ID, "status").get_attribute("data-status") == "error"
    assert _front_src(browser) == edited and _loaded(browser, f"{LANTERN} img.front")

    # Fixed: the error goes, the new picture comes.
    write_deck(served.game, "A lantern, mended.")
    wait.until(lambda b: not b.find_element(By.ID, "problems").is_displayed() and _front_src(b) not in (first, edited))
    wait.until(lambda b: b.find_element(By.ID, "status").get_attribute("data-status") == "ok")
    assert browser.execute_script("return window.studioMarker;") == "not reloaded"

    # A preflight finding shows on the piece it concerns: the Map's name printed pale grey on the pale paper.
    (served.game / "layouts" / "tiny" / "card.yaml").write_text(
        'extends: base/card\nelements:\n  - {id: name, color: "{ink}"}\n', encoding="utf-8")
    deck = (served.game / "deck.yaml").read_text(encoding="utf-8")
    deck = deck.replace("layout: base/card", "layout: tiny/card").replace("fields: [text]", "fields: [text, ink]")
    deck = deck.replace("  - name: Rope\n", '    ink: "#222222"\n  - name: Rope\n    ink: "#222222"\n')
    (served.game / "deck.yaml").write_text(deck.replace("  - name: Map\n", '  - name: Map\n    ink: "#d8d8d8"\n'), encoding="utf-8")
    wait.until(lambda b: "preflight low_contrast" in (b.find_element(By.CSS_SELECTOR, MAP).get_attribute("title") or ""))
    tile = browser.find_element(By.CSS_SELECTOR, MAP)
    assert "preflight low_contrast: text of element 'name'" in tile.find_element(By.CSS_SELECTOR, ".tile-warning").text
    assert "contrast ratio of 1.3:1" in tile.get_attribute("title")
    assert "preflight" not in (browser.find_element(By.CSS_SELECTOR, LANTERN).get_attribute("title") or "")  # dark ink: none
    tile.click()  # the piece, large, lists it with the layout line it points at
    wait.until(lambda b: b.find_element(By.ID, "piece-dialog").is_displayed())
    listed = browser.find_element(By.CSS_SELECTOR, "#piece-dialog .warning-list").text
    assert "preflight low_contrast" in listed and "card.yaml:" in listed, listed
    assert browser.execute_script("return window.studioMarker;") == "not reloaded"
    assert served.stop() == 0
