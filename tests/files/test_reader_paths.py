"""The reader's two ways of building components (every time plain, or some with a unit or refused) agree."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from amdahl_desk.files import load_profile


def write(path, rows):
    path.write_text("Component,Time (ms),Scaling,Group\n" + "".join(f"{r}\n" for r in rows), encoding="utf-8")
    return path


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=2, max_size=40), st.integers(0, 10**6))
def test_plain_times_and_a_time_with_a_unit_read_alike(tmp_path_factory, micros, pick):
    tmp = tmp_path_factory.mktemp("paths")
    scalings = ["serial", "parallel", "communication"]
    rng = random.Random(pick)
    rows = [(f"c{i}", us / 1000, rng.choice(scalings), f"g{i % 3}") for i, us in enumerate(micros)]
    plain = load_profile(write(tmp / "plain.csv", [f"{n},{t!r},{s},{g}" for n, t, s, g in rows])).profile
    k = pick % len(rows)
    with_unit = [
        f"{n},{round(t * 1000)} us,{s},{g}" if i == k else f"{n},{t!r},{s},{g}" for i, (n, t, s, g) in enumerate(rows)
    ]
    mixed = load_profile(write(tmp / "mixed.csv", with_unit)).profile
    assert plain.unit == mixed.unit
    assert [(c.name, c.scaling, c.group) for c in plain.components] == [(n, s, g) for n, _, s, g in rows]
    for a, b, (_, t, _, _) in zip(plain.components, mixed.components, rows, strict=True):
        assert a.time == t
        assert abs(b.time - t) <= 1e-9 * max(1.0, t)
