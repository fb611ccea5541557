"""Typesetting rules the views share: right-to-left names in left-to-right text."""

from amdahl_desk.present.text import isolated, reading_order

LRM = "\u200e"
HEBREW, ARABIC = "שכבת תקשורת מהירה יותר", "تحميل نقاط التفتيش"


def test_text_without_right_to_left_letters_is_left_as_it_is():
    for text in ("Faster decode (1.5–3×)", "Vorwärts-Durchlauf für Übersetzung 数据", "<b>1,000 ms</b>"):
        assert reading_order(text) == text
        assert isolated(text) == text


def test_each_run_of_right_to_left_words_is_marked_off_digits_inside_it_kept():
    said = f"A + {HEBREW} (1.5–5×, likely 3×) together"
    assert reading_order(said) == f"A + {LRM}{HEBREW}{LRM} (1.5–5×, likely 3×) together"
    assert reading_order(f"{HEBREW} reaches 2,000 ms") == f"{LRM}{HEBREW}{LRM} reaches 2,000 ms"
    assert reading_order("A שכבה 22 מהירה (3×)") == f"A {LRM}שכבה 22 מהירה{LRM} (3×)"  # one run: its words in order


def test_tags_are_left_alone_and_marking_twice_changes_nothing():
    assert (
        reading_order(f'<span title="{HEBREW}">{HEBREW}</span>') == f'<span title="{HEBREW}">{LRM}{HEBREW}{LRM}</span>'
    )
    once = reading_order(f"{ARABIC} x")
    assert reading_order(once) == once


def test_a_whole_name_is_isolated_where_its_bounds_are_known():
    assert isolated(f"{ARABIC} 33") == f"\u2068{ARABIC} 33\u2069"


def test_a_text_tables_column_counts_terminal_cells():
    """Ideographs take two cells of a terminal, combining marks none: a column of names padded by characters ran
    the numbers beside "前向传播 注意力层" eight cells to the right of the others."""
    import unicodedata

    from amdahl_desk.present.text import column, display_width

    assert display_width("前向传播") == 8 and display_width("abc") == 3
    assert display_width(unicodedata.normalize("NFD", "Ü")) == 1
    for name in ("前向传播 注意力层", "Größenänderung", "plain", "x" * 80, "逆伝播と勾配計算" * 5):
        cell = column(name, 20)
        assert display_width(cell) == 20, (name, cell)
        assert cell.rstrip().endswith("…") == (display_width(name) > 20)
