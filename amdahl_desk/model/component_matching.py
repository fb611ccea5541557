"""Components of two profiles matched by name or by hand-made pairs, for comparing and continuing."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .errors import Problem, ProfileError
from .profile import Profile


class ComparisonError(ProfileError):
    """Two profiles that cannot be compared, or a pairing that names no component."""


# -- matching ----------------------------------------------------------------


def match_components(
    before: Profile, after: Profile, pairs: Mapping[str, str] | Iterable[tuple[str, str]] | None = None
) -> tuple[list[tuple[int | None, int | None]], tuple[tuple[str, str], ...]]:
    """Rows matched as (before row, after row): hand-made pairs first, then equal names.

    Names compare trimmed and case-insensitively.  ``pairs`` maps a before name to an after name
    (a rename); a pair takes precedence over a name that happens to match.  Returns the matches in
    before's order, added components last in after's order, and the pairs as the profiles spell them.
    Raises :class:`ComparisonError` for a pair naming no component, or one used twice.
    """
    items = list(pairs.items()) if isinstance(pairs, Mapping) else list(pairs or ())
    problems: list[Problem] = []
    b_to_a: dict[int, int] = {}
    a_taken: dict[int, int] = {}
    spelled: list[tuple[str, str]] = []
    for old, new in items:
        b, a = before.index_of(old), after.index_of(new)
        where = f'pair "{old.strip()}" = "{new.strip()}"'
        if b < 0:
            problems.append(
                Problem(f'"{old.strip()}" is not a component of the before profile', "pairs", None, where=where)
            )
        if a < 0:
            problems.append(
                Problem(f'"{new.strip()}" is not a component of the after profile', "pairs", None, where=where)
            )
        if b < 0 or a < 0:
            continue
        if b in b_to_a or a in a_taken:
            twice = before.components[b].name if b in b_to_a else after.components[a].name
            problems.append(Problem(f'"{twice}" is paired twice; pair each component once', "pairs", None, where=where))
            continue
        b_to_a[b], a_taken[a] = a, b
        spelled.append((before.components[b].name, after.components[a].name))
    if problems:
        raise ComparisonError(problems)
    for b, comp in enumerate(before.components):
        if b in b_to_a:
            continue
        a = after.index_of(comp.name)
        if a >= 0 and a not in a_taken:
            b_to_a[b], a_taken[a] = a, b
    matches: list[tuple[int | None, int | None]] = [(b, b_to_a.get(b)) for b in range(len(before.components))]
    matches += [(None, a) for a in range(len(after.components)) if a not in a_taken]
    return matches, tuple(spelled)
