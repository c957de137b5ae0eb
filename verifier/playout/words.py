"""Playouts in report words: how games ended (each outcome's share with its interval) and the round model
that was played (its ``say:``, every action's words, the amounts marked ``placeholder:``, what each end
condition means). Read by the terminal report and ``verify.md`` (``verifier/derived_report.py``) and the
studio; the figures themselves are :mod:`.stats`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from punchboard.spec.model import Game

from .stats import PlayoutCell, RoundModel, round_model

PLACEHOLDER = "PLACEHOLDER"


class Played(Protocol):
    """A result with a playout cell (verifier.findings.Result)."""

    variant: str
    players: int | None
    playout: PlayoutCell | None


def _models(results: Sequence[Played]) -> list[tuple[str, RoundModel]]:
    """Each variant's round model, once (every player count plays the same model)."""
    seen: dict[str, RoundModel] = {}
    for r in results:
        if r.playout is not None and r.playout.model is not None and r.variant not in seen:
            seen[r.variant] = r.playout.model
    return list(seen.items())


def action_words(line_text: str, amount: str, placeholder: str) -> str:
    """One action as reports quote it; a guessed amount says so, with what is guessed."""
    words = line_text + (f" [{amount}]" if amount else "")
    return f"{words} — {PLACEHOLDER}: {placeholder}" if placeholder else words


def outcomes_text(results: Sequence[Played]) -> list[str]:
    """Terminal lines: how the games of each cell ended, with each share's Wilson interval."""
    lines = []
    for r in results:
        if r.playout is not None and r.playout.outcomes:
            lines.append(f"    {r.variant} {r.players}: " + "; ".join(o.text() for o in r.playout.outcomes))
    return ["  how games ended (share of games [99.9 % interval])", *lines] if lines else []


def models_text(results: Sequence[Played]) -> list[str]:
    """Terminal lines: every round model played, its placeholders called out first."""
    lines = []
    for variant, model in _models(results):
        guesses = len(model.placeholders)
        note = f" — {guesses} amount{'s' if guesses != 1 else ''} marked {PLACEHOLDER} (guesses, not the rulebook's)" if guesses else ""
        lines.append(f"  round model of {variant}" + (f': "{model.say}"' if model.say else "") + note)
        lines.extend(f"    {line.number}. {action_words(line.text, line.amount, line.placeholder)}" for line in model.actions)
        lines.extend(f"    end: {text} → {means}" for text, means in model.ends)
    return lines


def outcomes_markdown(results: Sequence[Played]) -> list[str]:
    rows = [(r, o) for r in results if r.playout is not None for o in r.playout.outcomes]
    if not rows:
        return []
    out = ["### How games ended", "", "Share of the games that ended each way (the first end condition that holds "
           "decides; 'round limit': none held before the last round). Interval: Wilson, 99.9 %.", "",
           "| variant | players | outcome | share | 99.9 % interval | games |", "|---|---:|---|---:|---|---:|"]
    out += [f"| {r.variant} | {r.players} | {o.outcome} | {o.share:.4f} | [{o.low:.4f}, {o.high:.4f}] | {o.count}/{o.games} |"
            for r, o in rows]
    return out + [""]


def models_markdown(results: Sequence[Played]) -> list[str]:
    out: list[str] = []
    for variant, model in _models(results):
        out += [f"### Round model: {variant}", ""]
        if model.say:
            out += [f"{model.say} ({model.source})", ""]
        if model.placeholders:
            out += [f"**{len(model.placeholders)} amount{'s' if len(model.placeholders) != 1 else ''} marked "
                    f"{PLACEHOLDER}**: guesses, not the rulebook's; the figures above are only as good as they.", ""]
        for line in model.actions:
            words = action_words(line.text, line.amount, "")
            out.append(f"{line.number}. {words}" + (f" — **{PLACEHOLDER}:** {line.placeholder}" if line.placeholder else ""))
        if model.ends:
            out.append("")
        out += [f"- end: {text} → **{means}**" for text, means in model.ends]
        out.append("")
    return out


def studio_view(game: Game, results: Sequence[Played]) -> list[dict[str, Any]]:
    """The studio's playout panel: every variant's round model (its words, placeholders and end meanings), and
    how its games ended and its piles ran out where ``results`` played them (``verify --playouts``)."""
    if game.setup is None:
        return []
    from punchboard.spec.setup_loader import load_setup  # the game has loaded: its setup is valid

    setup = load_setup(game.setup, game.components, (game.players_min, game.players_max))
    cells: dict[str, list[Played]] = {}
    for r in results:
        if r.playout is not None and r.playout.games:
            cells.setdefault(r.variant, []).append(r)
    view = []
    for variant in setup.variants:
        if variant.playout is None:
            continue
        model = round_model(variant.playout)
        view.append({
            "variant": variant.id, "model": model.as_json(),
            "lines": [action_words(line.text, line.amount, line.placeholder) for line in model.actions],
            "played": [{"players": r.players, "games": r.playout.games,
                        "outcomes": [o.text() for o in r.playout.outcomes],
                        "piles": [f"{p.pile}: runs out {p.probability:.4f} [{p.low:.4f}, {p.high:.4f}]"
                                  for p in r.playout.piles]}
                       for r in cells.get(variant.id, []) if r.playout is not None],
        })
    return view
