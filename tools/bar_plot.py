#!/usr/bin/env python3
"""Grouped bar charts as PNG with the standard library alone, for bench.py:
neither the GPU machines nor the build machines have matplotlib. The raster,
font and PNG encoder are trace-plot.py's (Canvas), loaded from beside this
file.

  panels(path, title, groups, series, rows)

draws one panel per row (label, values, reference): for each group (a case)
one bar per series (a configuration), values[series][group] (None: no bar),
with a horizontal reference line (1.0 = stock) and the value printed above
each bar. --self-test draws a small chart and checks its size and colours."""
import importlib.util
import math
import os
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "trace_plot", os.path.join(_here, "trace-plot.py"))
_tp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tp)

WHITE = (255, 255, 255)
BLACK = (0, 0, 0)
GREY = (150, 150, 150)
PALETTE = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40),
           (148, 103, 189), (140, 86, 75), (227, 119, 194), (127, 127, 127)]
PANEL_H = 220
LEFT = 70
TOP_TITLE = 30
LEGEND_H = 22
BOTTOM_LABELS = 40
BAR_W = 14
GROUP_GAP = 24


def panels(path, title, groups, series, rows):
    """Writes the chart; rows is a list of (label, values, reference)."""
    # Wide enough for the label (about 11 characters) under each group.
    group_w = max(BAR_W * max(1, len(series)) + GROUP_GAP, 72)
    width = max(LEFT + group_w * max(1, len(groups)) + 20,
                LEFT + _tp.text_width(title, 2) + 20, 480)
    height = TOP_TITLE + LEGEND_H + PANEL_H * len(rows) + BOTTOM_LABELS
    c = _tp.Canvas(width, height, WHITE)
    c.text(10, 8, title, BLACK, 2)
    x = LEFT
    for i, name in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        c.fill_rect(x, TOP_TITLE + 4, x + 10, TOP_TITLE + 14, colour)
        x = c.text(x + 14, TOP_TITLE + 5, name, BLACK) + 16
    for p, (label, values, reference) in enumerate(rows):
        y0 = TOP_TITLE + LEGEND_H + p * PANEL_H + 14
        y1 = y0 + PANEL_H - 30
        finite = [v for s in series for v in values.get(s, {}).values()
                  if v is not None and math.isfinite(v)]
        top = max(finite + [reference or 0, 1e-9]) * 1.15
        step, ticks = _tp.nice_ticks(0.0, top)
        ticks = ticks[::2]  # about five: the panels are short
        decimals = _tp.tick_decimals(2 * step)

        def ypos(v):
            return int(y1 - (y1 - y0) * v / top)
        c.text(10, y0 - 12, label, BLACK)
        c.fill_rect(LEFT - 1, y0, LEFT, y1 + 1, BLACK)
        c.fill_rect(LEFT - 1, y1, width - 10, y1 + 1, BLACK)
        for t in ticks:
            ty = ypos(t)
            c.fill_rect(LEFT - 4, ty, LEFT - 1, ty + 1, BLACK)
            text = _tp.format_ms(t, decimals)
            c.text(LEFT - 6 - _tp.text_width(text), ty - 3, text, BLACK)
        if reference:
            ry = ypos(reference)
            for dx in range(LEFT, width - 10, 6):
                c.fill_rect(dx, ry, dx + 3, ry + 1, GREY)
        for g, group in enumerate(groups):
            gx = LEFT + GROUP_GAP // 2 + g * group_w
            for s, name in enumerate(series):
                v = values.get(name, {}).get(group)
                if v is None or not math.isfinite(v):
                    continue
                bx = gx + s * BAR_W
                c.fill_rect(bx, ypos(v), bx + BAR_W - 2, y1,
                            PALETTE[s % len(PALETTE)])
            if p == len(rows) - 1:
                c.text(gx, y1 + 6, _tp.clip_text(group, group_w // 6),
                       BLACK)
    with open(path, "wb") as f:
        f.write(c.png())


def self_test():
    import tempfile
    path = os.path.join(tempfile.mkdtemp(), "t.png")
    panels(path, "self test", ["a", "b"], ["x", "y"],
           [("speed", {"x": {"a": 1.0, "b": 2.0}, "y": {"a": 0.5}}, 1.0)])
    with open(path, "rb") as f:
        data = f.read()
    width, height, rows = _tp.decode_png(data)
    pixels = b"".join(bytes(r) for r in rows)
    assert width >= 480 and height > PANEL_H, (width, height)
    for colour in PALETTE[:2]:
        assert any(pixels[i:i + 3] == bytes(colour)
                   for i in range(0, len(pixels), 3)), "a bar is missing"
    print("bar_plot self-test: passed")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    else:
        sys.exit(__doc__)
