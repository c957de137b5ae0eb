"""Two languages against one (issue 44): Steam Court with a German privilege text on every character card.

Both rows are clean CLI builds into an empty output folder, paired run by run: ``build --lang all`` (English and
German) against ``build --lang en``. The gear deck, the playmats and the tokens read the same in both languages,
so the German build takes them from the English one (generator/languages.py) and draws only the 12 characters
and its own cover: the target is less than twice one language. Both builds find the user's cache folder as any
build does (fonts, parsed files), warmed alike by a first build.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from bench.measure import HEAVY_REPEATS, ROOT, execute, paired, punchboard, ratio, row

WORK = ROOT / "bench" / ".work"


def bilingual_steam_court(folder: Path) -> Path:
    """A copy of Steam Court declaring ``languages: [en, de]``, each character's privilege with a ``privilege@de``."""
    from punchboard.plumbing.paths import COMPONENTS

    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(COMPONENTS / "steam_court", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("title: Steam Court\n",
                                                             "title: Steam Court\nlanguages: [en, de]\n", 1),
                    encoding="utf-8")
    characters = folder / "characters.yaml"
    text = characters.read_text(encoding="utf-8")
    # every card's privilege given again in "German" (the English words marked, as long as a German text runs)
    german = re.sub(r'privilege: "([^"]*)"', lambda m: f'privilege: "{m[1]}", privilege@de: "DE: {m[1]}"', text)
    assert german.count("privilege@de") == 12, "Steam Court's characters.yaml no longer reads as this bench expects"
    characters.write_text(german, encoding="utf-8")
    return folder


def run() -> list[dict[str, str]]:
    game = bilingual_steam_court(WORK / "steam_court_two_languages")
    out = WORK / "languages_out"

    def clean_build(lang: str) -> float:
        shutil.rmtree(out, ignore_errors=True)
        return execute(punchboard("build", str(game), "--lang", lang, "--quiet", "--out", str(out))).wall

    clean_build("all")  # warm the file system and the user cache alike for both
    both, one = paired(lambda: clean_build("all"), lambda: clean_build("en"), HEAVY_REPEATS)
    return [
        row("clean build of Steam Court in one language (--lang en)", one.spread(), "1 ×", ""),
        row("clean build of Steam Court in two languages (--lang all: en, de; 12 cards translated)", both.spread(),
            f"{ratio(both, one):.2f} × one language", "< 2 ×"),
    ]
