#!/usr/bin/env python3
"""Grouped bar charts as SVG with the standard library alone, for bench.py:
neither the GPU machines nor the build machines have matplotlib. The SVG
writer and the axis ticks are trace-plot.py's (Svg, nice_ticks), loaded from
beside this file.

  panels(path, title, groups, series, rows)

draws one panel per row (label, values, reference): for each group (a case)
one bar per series (a configuration), values[series][group] (None: no bar),
with a dashed horizontal reference line (1.0 = stock) and the value printed
above each bar. --self-test draws a small chart, reads the SVG back as XML
and checks the bars' heights, their values and the reference line."""
import importlib.util
import math
import os
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

_here = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "trace_plot", os.path.join(_here, "trace-plot.py"))
_tp = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tp)

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
VALUE_SIZE = 9
HEADROOM = 1.3  # above the tallest bar, for its value


def panels(path, title, groups, series, rows):
    """Writes the chart; rows is a list of (label, values, reference)."""
    # Wide enough for the label (about 11 characters) under each group.
    group_w = max(BAR_W * max(1, len(series)) + GROUP_GAP, 72)
    width = max(LEFT + group_w * max(1, len(groups)) + 20,
                LEFT + _tp.text_width(title, _tp.TITLE_SIZE) + 20, 480)
    height = TOP_TITLE + LEGEND_H + PANEL_H * len(rows) + BOTTOM_LABELS
    svg = _tp.Svg(width, height)
    svg.text(10, 8, title, BLACK, _tp.TITLE_SIZE, cls="title")
    x = LEFT
    for i, name in enumerate(series):
        svg.rect(x, TOP_TITLE + 4, x + 10, TOP_TITLE + 14,
                 PALETTE[i % len(PALETTE)], "swatch")
        svg.text(x + 14, TOP_TITLE + 5, name, BLACK, cls="series")
        x += 14 + _tp.text_width(name) + 16
    for p, (label, values, reference) in enumerate(rows):
        y0 = TOP_TITLE + LEGEND_H + p * PANEL_H + 14
        y1 = y0 + PANEL_H - 30
        finite = [v for s in series for v in values.get(s, {}).values()
                  if v is not None and math.isfinite(v)]
        top = max(finite + [reference or 0, 1e-9]) * HEADROOM
        step, ticks = _tp.nice_ticks(0.0, top)
        ticks = ticks[::2]  # about five: the panels are short
        decimals = _tp.tick_decimals(2 * step)

        def ypos(v):
            return y1 - (y1 - y0) * v / top
        svg.text(10, y0 - 12, label, BLACK, cls="panel")
        svg.rect(LEFT - 1, y0, LEFT, y1 + 1, BLACK, "axis")
        svg.rect(LEFT - 1, y1, width - 10, y1 + 1, BLACK, "axis")
        for t in ticks:
            svg.rect(LEFT - 4, ypos(t), LEFT - 1, ypos(t) + 1, BLACK, "axis")
            svg.text(LEFT - 6, ypos(t) - 4, _tp.format_ms(t, decimals),
                     BLACK, anchor="end", cls="tick")
        if reference:
            svg.element("line", x1=LEFT, y1=ypos(reference), x2=width - 10,
                        y2=ypos(reference), stroke=_tp.css(GREY),
                        stroke_dasharray="3 3", class_="reference")
        for g, group in enumerate(groups):
            gx = LEFT + GROUP_GAP // 2 + g * group_w
            for s, name in enumerate(series):
                v = values.get(name, {}).get(group)
                if v is None or not math.isfinite(v):
                    continue
                bx = gx + s * BAR_W
                svg.rect(bx, ypos(v), bx + BAR_W - 2, y1,
                         PALETTE[s % len(PALETTE)], "bar",
                         "%s, %s: %.3f" % (group, name, v))
                # Upwards, so that neighbouring bars' values do not collide.
                svg.text(bx + (BAR_W - 2) / 2 + 0.35 * VALUE_SIZE,
                         ypos(v) - 3, "%.2f" % v, BLACK, VALUE_SIZE,
                         cls="value", upwards=True)
            if p == len(rows) - 1:
                svg.text(gx, y1 + 6, _tp.clip_text(group, group_w // 6),
                         BLACK, cls="group")
    svg.save(path)


def self_test():
    """Draws two groups of two series, one value missing and one NaN, and
    checks what the SVG holds; returns the exit status."""
    with tempfile.TemporaryDirectory(prefix="bar_plot-") as directory:
        path = os.path.join(directory, "t.svg")
        panels(path, "self test & <co>", ["a", "b"], ["x", "y"],
               [("speed", {"x": {"a": 1.0, "b": 2.0},
                           "y": {"a": 0.5, "b": float("nan")}}, 1.0)])
        try:
            rects, texts = _tp.read_svg(path)
            lines = list(ElementTree.parse(path).getroot().iter(
                _tp.SVG_NS + "line"))
        except _tp.SelfTestFailure as err:
            print("bar_plot self-test: failed: %s" % err)
            return 1

    def of(cls):
        """The texts of one class, in document order."""
        return [text for text_cls, text in texts if text_cls == cls]
    bars = [r for r in rects if r[0] == "bar"]
    heights = [r[4] - r[2] for r in bars]
    bottom = bars[0][4] if bars else 0
    checks = [
        (of("title") == ["self test & <co>"], "title %r" % of("title")),
        (of("series") == ["x", "y"] and of("group") == ["a", "b"],
         "legend %r, groups %r" % (of("series"), of("group"))),
        ([r[5] for r in bars] == [_tp.css(PALETTE[0]), _tp.css(PALETTE[1]),
                                  _tp.css(PALETTE[0])],
         "three bars (x a, y a, x b; none for NaN) in the series' "
         "colours: %r" % bars),
        (len(bars) == 3 and all(r[4] == bottom for r in bars)
         and abs(heights[2] - 2 * heights[0]) < 0.02
         and abs(heights[0] - 2 * heights[1]) < 0.02,
         "bar heights proportional to 1.0, 0.5, 2.0: %r" % heights),
        (of("value") == ["1.00", "0.50", "2.00"], "values %r" % of("value")),
        (len(lines) == 1 and lines[0].get("class") == "reference"
         and abs(float(lines[0].get("y1")) - (bottom - heights[0])) < 0.02,
         "one reference line level with the 1.0 bar's top: %r"
         % [line.attrib for line in lines]),
        (len(of("tick")) >= 3, "axis ticks %r" % of("tick")),
    ]
    for passed, what in checks:
        if not passed:
            print("bar_plot self-test: failed: %s" % what)
            return 1
    print("bar_plot self-test: passed")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    else:
        sys.exit(__doc__)
