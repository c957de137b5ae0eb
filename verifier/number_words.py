"""Whether a rulebook quote states a number, in digits or in words ("Deal one card to each player" states 1,
"twenty-five coins" 25, "a dozen" 12)."""

from __future__ import annotations

import re

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen "
          "seventeen eighteen nineteen").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
WORDS: dict[str, int] = {word: n for n, word in enumerate(_UNITS)} | _TENS | {"dozen": 12}


def _words_value(text: str) -> int | None:
    """The number a word or a pair of words names ("seven", "twenty-five", "twenty five"); None for other words."""
    parts = re.split(r"[- ]", text.lower())
    if len(parts) == 1:
        return WORDS.get(parts[0])
    tens, unit = parts
    if tens in _TENS and unit in WORDS and 0 < WORDS[unit] < 10:
        return _TENS[tens] + WORDS[unit]
    return None


def stated_numbers(quote: str) -> set[int]:
    """Every whole number ``quote`` states, in digits or in words (a tens word and a unit after it are one
    number: "twenty-five" states 25, not 20 and 5)."""
    found = {int(digits) for digits in re.findall(r"(?<![0-9])[0-9]+(?![0-9])", quote)}
    words = re.findall(r"[A-Za-z]+", quote)
    n = 0
    while n < len(words):
        pair = _words_value(f"{words[n]} {words[n + 1]}") if n + 1 < len(words) else None
        if pair is not None:
            found.add(pair)
            n += 2
            continue
        single = _words_value(words[n])
        if single is not None:
            found.add(single)
        n += 1
    return found


def states(quote: str, value: int) -> bool:
    """Whether ``quote`` states ``value`` (digits, or a number word: one to twenty, the tens, "twenty-five",
    "a dozen")."""
    return value in stated_numbers(quote)
