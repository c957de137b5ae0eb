"""Languages as data (issue 44): ``languages:`` in game.yaml, ``field@lang`` columns and keys, PO files, and the model
of one language (spec/languages.py). Every game here is the starter of ``punchboard init``, changed as a case needs,
and read the way the commands read it: ``load_game`` and ``punchboard.cli.main``."""

from __future__ import annotations

import csv
from pathlib import Path

import openpyxl
import pytest
from punchboard.verifier.engine import verify_game
from punchboard.verifier.report import as_json

from punchboard.cli import main
from punchboard.spec.languages import in_language, missing_translations
from punchboard.spec.loader import load_game
from punchboard.spec.model import Game

GERMAN = {  # the starter's German column, as shipped
    "Guard": "Nimm 1 :coin: aus der Bank.",
    "Spark": "Spiele in diesem Zug eine weitere Karte.",
    "Nova": "**Gewinnt jeden Gleichstand.** Dann wirf sie ab.",
}


def _starter(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["init", str(tmp_path / "game")]) == 0
    capsys.readouterr()
    return tmp_path / "game"


def _rows(game: Path) -> list[list[str]]:
    with open(game / "cards.csv", encoding="utf-8", newline="") as handle:
        return list(csv.reader(handle))


def _write_rows(game: Path, rows: list[list[str]]) -> None:
    with open(game / "cards.csv", "w", encoding="utf-8", newline="") as handle:
        csv.writer(handle, lineterminator="\n").writerows(rows)


def _card(game: Game, name: str, component: str = "deck") -> tuple[object, ...]:
    piece = next(p for p in game.component(component).pieces if p.name == name)
    return piece.fields.get("text"), piece.marks.get("text")


def _check(game: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["check", str(game)])
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_the_starter_is_in_english_and_german_and_its_german_cells_are_located(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    game = load_game(folder)
    assert game.languages == ("en", "de") and game.language == "en"
    german = in_language(game, "de")
    assert german.language == "de" and german.languages == ("en", "de")
    header = _rows(folder)[0]
    column = 1 + sum(len(cell) + 1 for cell in _rows(folder)[1][: header.index("text@de")])
    assert _card(german, "Guard") == (GERMAN["Guard"], f"{folder / 'cards.csv'}:2:{column}")
    assert _card(german, "Nova")[0] == GERMAN["Nova"]
    assert _card(game, "Guard")[0] == "Take 1 :coin: from the bank."  # the loaded model stays in the source language
    assert missing_translations(game, "de") == () and missing_translations(game, "en") == ()
    # a card whose text reads the same in both (Sentinel has none) is the very same piece: drawn once for both
    english_deck, german_deck = game.component("deck").pieces, german.component("deck").pieces
    same = [a for a, b in zip(english_deck, german_deck, strict=True) if a == b]
    assert {piece.name for piece in same} == {"Sentinel", "Tinker", "Wyvern"}
    assert all(a is b for a, b in zip(english_deck, german_deck, strict=True) if a.name in ("Sentinel", "Tinker"))
    assert german.component("coins") is game.component("coins")  # nothing translated: the same component
    assert in_language(game, "en").component("deck") is game.component("deck")
    with pytest.raises(ValueError, match="not written in 'fr'; its languages: en, de"):
        in_language(game, "fr")
    assert in_language(german, "de") is german
    with pytest.raises(ValueError, match="is in de here; expected the model as loaded, in en, to make its en"):
        in_language(german, "en")  # German text is all it has: its English would be German


def test_the_starter_checks_and_builds_as_before_and_a_default_build_says_nothing_of_languages(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    code, said = _check(folder, capsys)
    assert (code, said) == (0, "game: ok (3 components, 71 pieces)\n")  # its German is whole: nothing new to say
    rows = _rows(folder)
    rows[4][-1] = ""  # Spark loses its German: only German output may hear of it
    _write_rows(folder, rows)
    assert main(["build", str(folder), "--out", str(tmp_path / "out")]) == 0
    said = "".join(capsys.readouterr())
    assert "rendered deck, coins, board" in said
    assert "warning" not in said and "text@de" not in said  # the starter builds with no warning, as before it had languages


def test_a_missing_translation_falls_back_with_one_located_line_per_piece_and_field(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    rows = _rows(folder)
    spark = rows[4]
    assert spark[0] == "Spark"
    spark[-1] = ""
    _write_rows(folder, rows)
    game = load_game(folder)
    german = in_language(game, "de")
    assert _card(german, "Spark") == _card(game, "Spark")  # the English text, and its mark
    at = 1 + sum(len(cell) + 1 for cell in spark[:4])
    assert missing_translations(game, "de") == (f"{folder / 'cards.csv'}:5:{at}: 'Spark' has no text@de; the en text is used",)
    assert german.component("deck").pieces[9] is game.component("deck").pieces[9]  # a Spark: untouched


def test_a_column_in_an_undeclared_language_is_a_located_error(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    rows = _rows(folder)
    rows[0][-1] = "text@fr"
    _write_rows(folder, rows)
    code, said = _check(folder, capsys)
    at = len(",".join(rows[0][:-1])) + 2
    assert code == 2
    assert f"cards.csv:1:{at}: 'text@fr' names the language 'fr'; expected one of en, de" in said
    rows[0][-1] = "txet@de"
    _write_rows(folder, rows)
    code, said = _check(folder, capsys)
    assert code == 2 and f"cards.csv:1:{at}: 'txet@de' translates 'txet', which is not a field of this component; " \
                         "expected one of name, suit, text, value" in said
    rows[0][-1] = "text@en"
    _write_rows(folder, rows)
    code, said = _check(folder, capsys)
    assert code == 2 and f"cards.csv:1:{at}: 'text@en' names the source language en; expected the column or key 'text'" in said


def test_languages_are_checked_and_a_game_without_them_is_as_before(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    game_yaml = folder / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("languages: [en, de]", "languages: [en, en]"), encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2 and "game.yaml:" in said and "languages must not repeat entries" in said
    game_yaml.write_text(text.replace("languages: [en, de]", "languages: [en, German]"), encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2 and "game.yaml:11:17: languages 'German' is not valid: expected a language code (BCP 47)" in said
    assert "text@de" not in said  # game.yaml's own problem, not one of every column
    game_yaml.write_text(text.replace("languages: [en, de]", ""), encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2 and "'text@de' gives a translation, but game.yaml declares no languages" in said
    rows = _rows(folder)
    _write_rows(folder, [row[:-1] for row in rows])
    game = load_game(folder)
    assert game.languages == () and game.language == "" and game.component("deck").translations is None
    assert in_language(game, "") is game and missing_translations(game, "") == ()
    with pytest.raises(ValueError, match="its languages: none"):
        in_language(game, "de")


def test_yaml_entries_take_translated_keys_and_ranges_share_them(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    (folder / "deck.yaml").write_text(
        "id: deck\nkind: deck\nname: Cards\nname@de: Karten\nsize: poker\nlayout: card\nback: {layout: back}\n"
        "fields: [suit, value, text]\ncards:\n"
        "  - {name: Guard, name@de: Wache, suit: shield, value: 1, text: Take a coin., text@de: Nimm eine Münze.}\n"
        "  - range: {field: value, from: 2, to: 3}\n"
        "    suit: star\n"
        "    text: Play again.\n"
        "    text@de: Spiel noch einmal.\n"
        "  - {name: Comet, suit: star, value: 4, text: Wins ties.}\n", encoding="utf-8")
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text(encoding="utf-8").split("box:")[0], encoding="utf-8")
    (folder / "setup.yaml").unlink()
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text(encoding="utf-8").replace("setup: setup.yaml", ""),
                                      encoding="utf-8")
    game = load_game(folder)
    assert in_language(game, "de").component("deck").name == "Karten" and game.component("deck").name == "Cards"
    german = in_language(game, "de").component("deck").pieces
    assert [(p.name, p.fields["text"]) for p in german] == [
        ("Wache", "Nimm eine Münze."), ("2", "Spiel noch einmal."), ("3", "Spiel noch einmal."), ("Comet", "Wins ties.")]
    lines = (folder / "deck.yaml").read_text(encoding="utf-8").splitlines()
    assert lines[9].startswith("  - {name: Guard")
    assert german[0].marks["text"] == f"{folder / 'deck.yaml'}:10:{lines[9].index('Nimm') + 1}"
    assert german[0].marks["name"] == f"{folder / 'deck.yaml'}:10:{lines[9].index('Wache') + 1}"
    where = f"{folder / 'deck.yaml'}:15"
    assert missing_translations(game, "de") == (  # a range's names are numbers: no words to translate
        f"{where}:{lines[14].index('Comet') + 1}: 'Comet' has no name@de; the en text is used",
        f"{where}:{lines[14].index('Wins') + 1}: 'Comet' has no text@de; the en text is used")
    deck = (folder / "deck.yaml").read_text(encoding="utf-8")
    (folder / "deck.yaml").write_text(deck.replace("text@de: Nimm", "text@it: Nimm").replace("    text@de:", "    colour@de:")
                                      .replace("name@de: Karten", "name@nl: Kaarten"), encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2
    assert f"deck.yaml:10:{lines[9].index('text@de') + 1}: 'text@it' names the language 'it'; expected one of en, de" in said
    assert "deck.yaml:4:1: 'name@nl' names the language 'nl'; expected one of en, de" in said
    assert "deck.yaml:14:5: 'colour@de' translates 'colour', which is not a field of this component; " \
           "expected one of name, suit, text, value" in said


def test_a_third_language_without_its_texts_falls_back_to_the_source_for_each(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("[en, de]", "[en, de, fr]"), encoding="utf-8")
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8").replace("name: Cards\n", "name: Cards\nname@de: Karten\n"), encoding="utf-8")
    game = load_game(folder)
    french = in_language(game, "fr")
    assert [c.pieces for c in french.components] == [c.pieces for c in game.components]
    assert french.component("deck").name == "Cards" and in_language(game, "de").component("deck").name == "Karten"
    missing = missing_translations(game, "fr")
    assert missing[0] == f"{deck}:8:10: component 'Cards' has no name@fr; the en name is used"
    texts = [line for line in missing[1:] if line.endswith("has no text@fr; the en text is used")]
    assert len(texts) == len(missing) - 1 == 9  # each card with a text, once (Guard's three copies: one line)
    assert missing_translations(game, "de") == ()


def test_an_xlsx_sheet_takes_translated_columns_located_in_the_sheet(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Deck"
    for row in _rows(folder):
        sheet.append(row)
    book.save(folder / "cards.xlsx")
    deck = (folder / "deck.yaml").read_text(encoding="utf-8")
    (folder / "deck.yaml").write_text(deck.replace("csv: cards.csv", "table: {file: cards.xlsx, sheet: Deck}"), encoding="utf-8")
    game = load_game(folder)
    assert _card(in_language(game, "de"), "Guard") == (GERMAN["Guard"], f"{folder / 'cards.xlsx'}[Deck]:2:6")
    sheet.cell(1, 6).value = "text@pt-BR"
    book.save(folder / "cards.xlsx")
    code, said = _check(folder, capsys)
    assert code == 2 and "cards.xlsx[Deck]:1:6: 'text@pt-BR' names the language 'pt-BR'; expected one of en, de" in said


def test_columns_to_po_to_load_gives_the_same_model(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    rows = _rows(folder)
    rows[4][-1] = ""  # Spark: untranslated, in the columns and so in the PO file
    _write_rows(folder, rows)
    from_columns = load_game(folder)
    assert main(["translations", str(folder), "--lang", "de"]) == 0
    assert capsys.readouterr().out == f"wrote {folder / 'translations' / 'de.po'}\n"
    po = (folder / "translations" / "de.po").read_text(encoding="utf-8")
    assert 'msgctxt "deck/Guard/text"\nmsgid "Take 1 :coin: from the bank."\nmsgstr "Nimm 1 :coin: aus der Bank."' in po
    assert 'msgctxt "deck/Spark/text"\nmsgid "Play another card this turn."\nmsgstr ""' in po
    _write_rows(folder, [row[:-1] for row in rows])  # the German lives in the PO file only now
    from_po = load_game(folder)
    for lang in ("en", "de"):
        columns, po_game = in_language(from_columns, lang), in_language(from_po, lang)
        assert [c.pieces for c in po_game.components] == [c.pieces for c in columns.components]
        assert [c.name for c in po_game.components] == [c.name for c in columns.components]
    guard = next(p for p in in_language(from_po, "de").component("deck").pieces if p.name == "Guard")
    assert guard.marks["text"].startswith(f"{folder / 'translations' / 'de.po'}:")
    lines = missing_translations(from_po, "de")
    assert len(lines) == 1 and lines[0].endswith("'Spark' has no text@de; the en text is used")
    assert missing_translations(from_columns, "de") == lines
    # written again from the PO file: the same file
    assert main(["translations", str(folder), "--lang", "de", "--output", "-"]) == 0
    assert capsys.readouterr().out == po


def test_a_translator_fills_the_po_file_and_the_names_of_components(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    _write_rows(folder, [row[:-1] for row in _rows(folder)])
    (folder / "translations").mkdir()
    (folder / "translations" / "de.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        'msgctxt "deck/name"\nmsgid "Cards"\nmsgstr "Karten"\n\n'
        'msgctxt "deck/Comet/name"\nmsgid "Comet"\nmsgstr "Komet"\n\n'
        '#, fuzzy\nmsgctxt "deck/Nova/text"\nmsgid "**Wins every tie.** Then discard it."\nmsgstr "Gewinnt."\n\n'
        'msgctxt "deck/Guard/text"\nmsgid "Take 2 :coin: from the bank."\nmsgstr "Nimm 2."\n', encoding="utf-8")
    game = load_game(folder)
    german = in_language(game, "de")
    assert german.component("deck").name == "Karten" and game.component("deck").name == "Cards"
    names = [p.name for p in german.component("deck").pieces]
    assert names.count("Komet") == 4 and "Comet" not in names
    assert _card(german, "Nova") == _card(game, "Nova")  # fuzzy: not used
    assert _card(german, "Guard") == _card(game, "Guard")  # made for another source text: not used
    missing = missing_translations(game, "de")
    assert f"{folder / 'cards.csv'}:2:18: 'Guard' has no text@de; the en text is used" in missing
    assert any(line.endswith("'Nova' has no text@de; the en text is used") for line in missing)
    assert not any("'Comet' has no name@de" in line for line in missing)
    assert german.component("deck").inputs[-1] == folder / "translations" / "de.po"
    assert folder / "translations" / "de.po" in game.files
    # written again, the translations not used stay for the translator, fuzzy, with the msgid they were made for
    assert main(["translations", str(folder), "--lang", "de", "--output", "-"]) == 0
    again = capsys.readouterr().out
    assert ('#, fuzzy\n#| msgid "Take 2 :coin: from the bank."\nmsgctxt "deck/Guard/text"\n'
            'msgid "Take 1 :coin: from the bank."\nmsgstr "Nimm 2."') in again
    assert '#, fuzzy\nmsgctxt "deck/Nova/text"\nmsgid "**Wins every tie.** Then discard it."\nmsgstr "Gewinnt."' in again
    assert 'msgctxt "deck/Comet/name"\nmsgid "Comet"\nmsgstr "Komet"' in again


def test_the_po_file_the_verb_writes_from_the_columns_loads_beside_them(tmp_path, capsys):
    """Right after ``punchboard translations`` writes translations/de.po from the columns, both give the same texts:
    the game loads, builds in German as before, and says nothing."""
    folder = _starter(tmp_path, capsys)
    before = in_language(load_game(folder), "de")
    assert main(["translations", str(folder), "--lang", "de"]) == 0
    capsys.readouterr()
    assert (folder / "translations" / "de.po").is_file()
    assert _check(folder, capsys) == (0, "game: ok (3 components, 71 pieces)\n")
    after = in_language(load_game(folder), "de")
    assert [p.fields for p in after.component("deck").pieces] == [p.fields for p in before.component("deck").pieces]


def test_a_po_entry_naming_nothing_or_given_by_a_column_too_is_a_located_error(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    (folder / "translations").mkdir()
    (folder / "translations" / "de.po").write_text(
        'msgctxt "deck/Guard/text"\nmsgid "Take 1 :coin: from the bank."\nmsgstr "Nimm eine Münze."\n\n'
        'msgctxt "deck/Regent/text"\nmsgid "Rule."\nmsgstr "Herrsche."\n', encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2
    assert (f"de.po:1:1: 'deck/Guard/text' is translated into de twice, as 'Nimm eine Münze.' here and as "
            f"'Nimm 1 :coin: aus der Bank.' at {folder / 'cards.csv'}:2:") in said
    assert "de.po:5:1: msgctxt 'deck/Regent/text' names no component, piece and field of this game (renamed or removed?); " \
           "expected one like" in said


def test_a_po_file_that_is_not_po_or_too_large_is_a_located_error(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    (folder / "translations").mkdir()
    po = folder / "translations" / "de.po"
    po.write_text('msgctxt "deck/name"\nmsgid "Cards"\nmsgstr "Karten"\nKarten!\n', encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2 and f"{po}:4:1: not a readable PO file (Syntax error in po file {po} (line 4))" in said
    po.write_text("# " + "x" * 29_997 + '\nmsgctxt "deck/name"\nmsgid "Cards"\nmsgstr "Karten"\n', encoding="utf-8")
    assert main(["check", str(folder), "--max-file-bytes", "20000"]) == 2
    said = capsys.readouterr().err
    assert said == f"{po}:1:1: file is 30050 bytes, more than the limit of 20000 (raise it with --max-file-bytes)\n"


def test_the_translations_verb_refuses_a_language_the_game_lacks(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    assert main(["translations", str(folder), "--lang", "fr"]) == 2
    assert "--lang: game 'game' is not translated into 'fr'; expected one of de or all" in capsys.readouterr().err
    assert main(["translations", str(folder), "--lang", "en"]) == 2
    assert "(en is its source language)" in capsys.readouterr().err
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace("languages: [en, de]", ""), encoding="utf-8")
    _write_rows(folder, [row[:-1] for row in _rows(folder)])
    assert main(["translations", str(folder), "--lang", "de"]) == 2
    assert "--lang: game 'game' declares no language to translate into" in capsys.readouterr().err
    assert not (folder / "translations").exists()


def test_the_verifier_is_language_blind(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    game = load_game(folder)
    figures = {lang: as_json(verify_game(in_language(game, lang), trials=200)) for lang in game.languages}
    assert figures["en"] == figures["de"]
    assert '"players"' in figures["en"]  # real results, not an empty report


def _with_rulebooks(folder: Path, german_quote: str, extra: str = "") -> None:
    """The starter with an English and a German rulebook, and one rulebook number quoted in both."""
    (folder / "rules.md").write_text("# Setup\n\nDeal 5 cards to each player.\n", encoding="utf-8")
    (folder / "regeln.md").write_text("# Aufbau\n\nGib jedem Spieler 5 Karten.\n", encoding="utf-8")
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text(encoding="utf-8").replace(
        "languages: [en, de]", f"languages: [en, de]\nrulebook: rules.md\nrulebook@de: regeln.md\n{extra}"), encoding="utf-8")
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace(
        "variants:", "numbers:\n  - name: hand_size\n    value: 5\n    quote: Deal 5 cards to each player.\n"
                     f"    quote@de: {german_quote}\nvariants:", 1), encoding="utf-8")


def _number_findings(game: Game, lang: str) -> list[str]:
    results = verify_game(in_language(game, lang), trials=50)
    return [f"{f.step}: {f.message}" for r in results if r.variant == "rulebook numbers" for f in r.findings]


def test_rulebook_quotes_are_checked_against_the_rulebook_of_their_language(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    _with_rulebooks(folder, "Gib jedem Spieler 5 Karten.")
    game = load_game(folder)
    assert dict(game.rulebooks) == {"de": "regeln.md"} and game.rulebook == "rules.md"
    assert in_language(game, "de").rulebook == "rules.md"  # the verifier reads every language's rulebook itself
    found = _number_findings(game, "en")
    assert found == _number_findings(game, "de")
    assert not any("not in the rulebook" in line for line in found) and any("rules.md line 3" in line for line in found)
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("Gib jedem Spieler 5", "Gib jedem 6"), encoding="utf-8")
    found = _number_findings(load_game(folder), "en")
    assert any(line.startswith('rulebook number hand_size: the quote "Gib jedem 6 Karten." is not in the rulebook regeln.md')
               and line.endswith(", quote@de)") for line in found)


def test_a_rulebook_or_quote_in_an_undeclared_language_is_a_located_error(tmp_path, capsys):
    folder = _starter(tmp_path, capsys)
    _with_rulebooks(folder, "Gib jedem Spieler 5 Karten.", extra="rulebook@fr: regles.md\n")
    setup = folder / "setup.yaml"
    setup.write_text(setup.read_text(encoding="utf-8").replace("quote@de:", "quote@it:"), encoding="utf-8")
    code, said = _check(folder, capsys)
    assert code == 2
    assert "game.yaml:14:1: 'rulebook@fr' names the language 'fr'; expected one of en, de" in said
    assert "setup.yaml:10:5: 'quote@it' names the language 'it'; expected one of en, de" in said
