#!/usr/bin/env python3
#===- tools/trace-plot.py - Draw a HETERO_TRACE timeline as an SVG -------===#
#
# hetero writes a timeline of a run to the file named by HETERO_TRACE, in the
# Chrome trace event format that Perfetto (ui.perfetto.dev) and
# chrome://tracing open interactively.  Those need the whole trace loaded
# into a browser tab; on a GPU machine, in a CI log or in a bug report a
# picture is quicker.  This script draws such a file to an SVG, which any
# browser opens: one lane per thread or member, chunks coloured by kernel,
# copies by direction, waits in grey, launches as outlines, and each lane's
# busy share at the right, so that where a GPU sits idle shows at a glance.
# Hovering over a rectangle shows its event's name and duration.
#
# matplotlib is not available where hetero runs and nothing may be installed
# there, so this file needs nothing beyond the Python 3 standard library; it
# is installed alone (as bin/hetero-trace-plot), so it imports nothing from
# beside it.  bar_plot.py uses its Svg writer and axis ticks.
#
#===----------------------------------------------------------------------===#
"""Draw a hetero timeline (Chrome trace event JSON) to an SVG.

usage: trace-plot.py TRACE.json OUT.svg [--width PX] [--from MS] [--to MS]
                     [--title TEXT]
       trace-plot.py --self-test

TRACE.json is either the JSON object form ({"traceEvents": [...]}) or the
bare array form ([...], a missing closing bracket is tolerated).  Complete
events ("ph":"X") and begin/end pairs ("ph":"B"/"E", nested per pid/tid) are
drawn; thread_name/process_name metadata ("ph":"M") label the lanes; other
phases are ignored.  Times are "ts"/"dur" in microseconds; the plot shows
milliseconds relative to the first event, and --from/--to select a window in
that scale.  An OUT name ending in .png is refused: the output is SVG.

Exit status: 0 on success, 2 for a usage error or an unreadable, empty or
malformed trace (one line on stderr: "trace-plot: <file>: <what is wrong>"),
1 when the SVG cannot be written or the self-test fails.
"""

import argparse
import bisect
import contextlib
import io
import json
import math
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ElementTree
import zlib

# Colours (RGB).
BACKGROUND = (255, 255, 255)
LANE_BACKGROUNDS = ((250, 250, 251), (239, 241, 245))
GRID = (214, 217, 224)
FRAME = (160, 160, 165)
TEXT = (25, 25, 25)
DIM_TEXT = (95, 95, 100)
WAIT_COLOUR = (150, 150, 150)
LAUNCH_COLOUR = (25, 25, 25)
OTHER_COLOUR = (201, 184, 142)
FAILED_COLOUR = (120, 0, 0)
COPY_COLOURS = {
    "h2d": (214, 39, 40),
    "d2h": (255, 127, 14),
    "d2d": (148, 103, 189),
    "h2h": (140, 86, 75),
}
COPY_DIRECTIONS = ("h2d", "d2h", "d2d", "h2h")
KINDS = ("chunk", "copy", "wait", "launch")
COPY_UNKNOWN_COLOUR = (188, 143, 143)
# Chunks take one of these by a hash of the kernel name; the hues avoid the
# copies' reds, oranges, purple and brown and the greys of waits.
KERNEL_PALETTE = (
    (31, 119, 180), (44, 160, 44), (23, 190, 207), (110, 120, 20),
    (227, 119, 194), (40, 45, 110), (240, 215, 50), (0, 100, 80),
    (160, 220, 110), (170, 195, 240),
)

# Geometry in SVG user units (pixels).  Text is monospace, so its width can
# be planned without font metrics: a character is about 0.6 of the size.
FONT = "DejaVu Sans Mono,Menlo,Consolas,monospace"
FONT_SIZE = 11
TITLE_SIZE = 16
CHAR_W = 0.6            # advance per character, in units of the font size
LINE_H = 14
LANE_H = 20
LANE_PITCH = 22
MARGIN = 10
TICK_LEN = 4
LABEL_GAP = 14          # between the lane labels and the plot
BUSY_GAP = 12           # between the plot and the busy column
SWATCH_W = 12
SWATCH_H = 9
LEGEND_GAP = 14
MAX_LABEL_CHARS = 28
MAX_LEGEND_KERNELS = 24
MIN_WIDTH = 400
MAX_WIDTH = 20000
MIN_SPAN_US = 1.0
EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2

KERNEL_PREFIX = re.compile(r"^__omp_offloading_[^_]+_[^_]+_")
RANGE_SUFFIX = re.compile(r"\s*(\[[^\[\]]*[\)\]]|\(whole\))\s*$")
# Characters XML 1.0 does not allow (a thread name may hold anything).
NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class TraceError(Exception):
    """A trace that cannot be drawn; the message is one line for stderr."""


class SelfTestFailure(Exception):
    """A failed self-test check; the message describes the check."""


class Event:
    """One interval on one lane: a complete event or a paired begin/end.

    kind is 'chunk', 'copy', 'wait', 'launch' or 'other' (see event_kind);
    detail is a chunk's kernel label or a copy's direction (None when it
    has none), else None."""

    __slots__ = ("lane", "start", "end", "cat", "name", "args", "kind",
                 "detail")

    def __init__(self, lane, start, end, cat, name, args, memo=None):
        """Store the fields and classify; start and end are microseconds;
        memo (a dict) caches kernel labels across events."""
        self.lane = lane
        self.start = start
        self.end = end
        self.cat = cat
        self.name = name
        self.args = args
        self.kind = event_kind(cat)
        self.detail = None
        if self.kind == "chunk":
            self.detail = kernel_label(name, args, memo)
        elif self.kind == "copy":
            self.detail = copy_direction(name, args)


class Trace:
    """The drawable content of a trace file."""

    def __init__(self, events, lanes, labels, skipped, dropped=0):
        """events: Event list; lanes: ordered (pid, tid) keys; labels: lane
        -> text; skipped: how many malformed events were left out; dropped:
        how many the writer says it did not record (otherData)."""
        self.events = events
        self.lanes = lanes
        self.labels = labels
        self.skipped = skipped
        self.dropped = dropped
        self.t_first = min(e.start for e in events)
        self.t_last = max(e.end for e in events)


# ---------------------------------------------------------------------------
# Reading the trace
# ---------------------------------------------------------------------------

def _number(value):
    """A finite float from a JSON number (or numeric string), else None."""
    if type(value) is float or type(value) is int:  # the common case
        return float(value) if math.isfinite(value) else None
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return None
    if isinstance(value, (int, float)) and math.isfinite(value):
        return float(value)
    return None


def _ident(value):
    """A hashable pid/tid: integral numbers as int, anything else as str."""
    if type(value) is int:  # the common case
        return value
    if isinstance(value, bool) or value is None:
        return 0 if value is None else int(value)
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (int, str)):
        return value
    return str(value)


def _order(value):
    """Sort key that puts numeric ids first, in numeric order."""
    if isinstance(value, (int, float)):
        return (0, value, "")
    return (1, 0, str(value))


def _decode_json(text):
    """Parse the JSON text, tolerating an unterminated array form."""
    try:
        return json.loads(text)
    except RecursionError:
        raise TraceError("JSON nested too deeply") from None
    except ValueError as err:
        first_error = err
    stripped = text.strip()
    if stripped.startswith("["):
        # The array form may lack its closing bracket (a writer that was
        # killed, or one that streams); Chrome and Perfetto accept that.
        try:
            return json.loads(stripped.rstrip(",") + "]")
        except (ValueError, RecursionError):
            pass
    raise TraceError("not valid JSON: %s" % first_error)


def _event_fields(raw):
    """(cat, name, args) of a raw event dict, with safe defaults."""
    cat = raw.get("cat")
    name = raw.get("name")
    args = raw.get("args")
    return (cat if isinstance(cat, str) else "",
            name if isinstance(name, str) else "",
            args if isinstance(args, dict) else {})


def _pair_begin_end(begin_end, t_last, memo):
    """Events from B/E records [(ts, index, ph, lane, raw)]: each E closes
    the latest open B of its lane; a B left open ends at t_last.  memo is
    passed on to Event."""
    begin_end.sort(key=lambda rec: (rec[0], rec[1]))
    stacks = {}
    events = []
    for ts, _, ph, lane, raw in begin_end:
        stack = stacks.setdefault(lane, [])
        if ph == "B":
            stack.append((ts, raw))
        elif stack:
            start, begin = stack.pop()
            cat, name, args = _event_fields(begin)
            end_cat, end_name, end_args = _event_fields(raw)
            merged = dict(args)
            merged.update(end_args)
            events.append(Event(lane, start, ts, cat or end_cat,
                                name or end_name, merged, memo))
    for lane, stack in stacks.items():
        for start, begin in stack:
            cat, name, args = _event_fields(begin)
            events.append(Event(lane, start, max(start, t_last), cat, name,
                                args, memo))
    return events


def parse_trace(text):
    """Parse trace JSON text into a Trace; raise TraceError if it has
    nothing to draw or is not a trace."""
    if not text.strip():
        raise TraceError("empty file (hetero writes the trace when the "
                         "program ends: did it end early?)")
    data = _decode_json(text)
    dropped = 0
    if isinstance(data, dict):
        if "traceEvents" not in data:
            raise TraceError('no "traceEvents" array in the JSON object')
        raw_events = data["traceEvents"]
        if not isinstance(raw_events, list):
            raise TraceError('"traceEvents" is not an array')
        other = data.get("otherData")
        if isinstance(other, dict):
            dropped = int(_number(other.get("dropped_events")) or 0)
    elif isinstance(data, list):
        raw_events = data
    else:
        raise TraceError("top level is a JSON %s, not an object or an array"
                         % type(data).__name__)

    thread_names = {}
    process_names = {}
    memo = {}
    events = []
    begin_end = []
    skipped = 0
    t_last = -math.inf
    for index, raw in enumerate(raw_events):
        if not isinstance(raw, dict):
            skipped += 1
            continue
        phase = raw.get("ph")
        pid = _ident(raw.get("pid", 0))
        lane = (pid, _ident(raw.get("tid", 0)))
        if phase == "M":
            args = raw.get("args")
            label = args.get("name") if isinstance(args, dict) else None
            if isinstance(label, str):
                if raw.get("name") == "thread_name":
                    thread_names[lane] = label
                elif raw.get("name") == "process_name":
                    process_names[pid] = label
            continue
        if phase not in ("X", "B", "E"):
            continue
        ts = _number(raw.get("ts"))
        if ts is None:
            skipped += 1
            continue
        if phase == "X":
            dur = _number(raw.get("dur", 0))
            if dur is None or dur < 0:
                skipped += 1
                continue
            cat, name, args = _event_fields(raw)
            events.append(Event(lane, ts, ts + dur, cat, name, args,
                                memo))
            t_last = max(t_last, ts + dur)
        else:
            begin_end.append((ts, index, phase, lane, raw))
            t_last = max(t_last, ts)
    events.extend(_pair_begin_end(begin_end, t_last, memo))
    if not events:
        raise TraceError('no events to draw (no "ph":"X" events or B/E '
                         'pairs%s)' % (", %d malformed ones left out"
                                       % skipped if skipped else ""))

    lanes = sorted(set(e.lane for e in events) | set(thread_names),
                   key=lambda lane: (_order(lane[0]), _order(lane[1])))
    several_pids = len(set(lane[0] for lane in lanes)) > 1
    labels = {}
    for lane in lanes:
        label = thread_names.get(lane, "tid %s" % (lane[1],))
        if several_pids:
            label = "%s/%s" % (process_names.get(lane[0],
                                                 "pid %s" % (lane[0],)),
                               label)
        labels[lane] = label
    return Trace(events, lanes, labels, skipped, dropped)


def load_trace(path):
    """Read and parse the trace file at path; raise TraceError."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as err:
        raise TraceError("cannot read: %s" % (err.strerror or err)) from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise TraceError("not UTF-8 text (byte %d)" % err.start) from None
    return parse_trace(text)


# ---------------------------------------------------------------------------
# Classifying events
# ---------------------------------------------------------------------------

def event_kind(cat):
    """'chunk', 'copy', 'wait', 'launch' or 'other', from the category (the
    first one of a comma-separated list)."""
    if cat in KINDS:
        return cat
    cat = cat.split(",")[0].strip().lower()
    return cat if cat in KINDS else "other"


def copy_direction(name, args):
    """h2d, d2h, d2d or h2h from the name's start or the from/to args;
    None when neither tells."""
    head = name[:3].lower()
    if head in COPY_COLOURS:
        return head
    source = args.get("from")
    target = args.get("to")
    if isinstance(source, str) and isinstance(target, str):
        return "%s2%s" % ("h" if source == "host" else "d",
                          "h" if target == "host" else "d")
    return None


def kernel_label(name, args, memo=None):
    """Short kernel name of a chunk: the event name without its iteration
    range when args.kernel ends with that (hetero names chunks so), else
    args.kernel without its __omp_offloading_<dev>_<file>_ prefix; the
    stripped name when there is no args.kernel.  memo, a dict, remembers
    the answer per kernel for a trace's many chunks of few kernels."""
    short = RANGE_SUFFIX.sub("", name) or name or "?"
    kernel = args.get("kernel")
    if not isinstance(kernel, str) or not kernel:
        return short
    if memo is not None and kernel in memo:
        return memo[kernel]
    if kernel.endswith(short):
        label = short
    else:
        label = KERNEL_PREFIX.sub("", kernel) or kernel
    if memo is not None:
        memo[kernel] = label
    return label


def assign_kernel_colours(labels):
    """Map kernel labels to palette colours: a stable hash picks the slot,
    and a taken slot moves on to the next free one while any is free."""
    palette_size = len(KERNEL_PALETTE)
    taken = set()
    colours = {}
    for label in sorted(labels):
        home = zlib.crc32(label.encode("utf-8")) % palette_size
        slot = home
        if len(taken) < palette_size:
            while slot in taken:
                slot = (slot + 1) % palette_size
        taken.add(slot)
        colours[label] = KERNEL_PALETTE[slot]
    return colours


def event_colour(event, kind, kernel_colours):
    """Fill colour of an event of the given kind."""
    if kind == "chunk":
        return kernel_colours[event.detail]
    if kind == "copy":
        return COPY_COLOURS.get(event.detail, COPY_UNKNOWN_COLOUR)
    if kind == "wait":
        return WAIT_COLOUR
    if kind == "launch":
        return LAUNCH_COLOUR
    return OTHER_COLOUR


def merge_intervals(intervals, lo, hi):
    """Sorted disjoint union of (start, end) intervals clipped to [lo, hi]."""
    merged = []
    for start, end in sorted(intervals):
        start = max(start, lo)
        end = min(end, hi)
        if end <= start:
            continue
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1][1] = end
        else:
            merged.append([start, end])
    return merged


def busy_fraction(events, lo, hi):
    """Share of [lo, hi] covered by the union of the chunk and copy events,
    or None when there are events and none of them is a chunk or a copy."""
    busy = [(e.start, e.end) for e in events
            if e.kind in ("chunk", "copy")]
    if events and not busy:
        return None
    covered = sum(end - start for start, end in merge_intervals(busy, lo, hi))
    return covered / (hi - lo)


def lane_needs_split(events, lo, hi):
    """True when a copy overlaps a chunk, wait or other event in [lo, hi];
    such a lane draws copies in its bottom half, the rest in its top half."""
    copies = merge_intervals([(e.start, e.end) for e in events
                              if e.kind == "copy"], lo, hi)
    if not copies:
        return False
    ends = [end for _, end in copies]
    for event in events:
        if event.kind in ("copy", "launch"):
            continue
        start = max(event.start, lo)
        end = min(event.end, hi)
        if end <= start:
            continue
        at = bisect.bisect_right(ends, start)
        if at < len(copies) and copies[at][0] < end:
            return True
    return False


# ---------------------------------------------------------------------------
# Time axis
# ---------------------------------------------------------------------------

def nice_ticks(lo, hi):
    """Round tick values (1, 2, 2.5 or 5 times a power of ten) in [lo, hi],
    about ten of them; returns (step, values)."""
    span = hi - lo
    best = None
    exponent = math.floor(math.log10(span / 10.0))
    for power in range(exponent - 1, exponent + 2):
        for mantissa in (1.0, 2.0, 2.5, 5.0):
            step = mantissa * 10.0 ** power
            first = math.ceil(lo / step - 1e-9)
            last = math.floor(hi / step + 1e-9)
            count = last - first + 1
            score = 0 if 8 <= count <= 12 else 1
            key = (score, abs(count - 10))
            if best is None or key < best[0]:
                best = (key, step, first, last)
    _, step, first, last = best
    return step, [i * step for i in range(first, last + 1)]


def tick_decimals(step):
    """Decimals needed to print multiples of step exactly."""
    for decimals in range(10):
        scaled = step * 10 ** decimals
        if abs(scaled - round(scaled)) < 1e-6 * max(1.0, scaled):
            return decimals
    return 9


def format_ms(value, decimals):
    """A tick label; never '-0'."""
    text = "%.*f" % (decimals, value)
    return "0" if float(text) == 0 else text


# ---------------------------------------------------------------------------
# SVG
# ---------------------------------------------------------------------------

def text_width(text, size=FONT_SIZE):
    """Planned width of text in the monospace font at size."""
    return len(text) * size * CHAR_W


def clip_text(text, max_chars):
    """text cut to max_chars characters, ending in '..' when cut."""
    max_chars = int(max_chars)
    if max_chars <= 0:
        return ""
    if len(text) <= max_chars:
        return text
    if max_chars <= 2:
        return text[:max_chars]
    return text[:max_chars - 2] + ".."


def css(colour):
    """'#rrggbb' of an (r, g, b) colour."""
    return "#%02x%02x%02x" % tuple(colour)


def darker(colour):
    """colour at two thirds of its brightness."""
    return tuple(channel * 2 // 3 for channel in colour)


def text_colour_on(colour):
    """Black or white, whichever reads better on the fill colour."""
    red, green, blue = colour
    luma = 0.299 * red + 0.587 * green + 0.114 * blue
    return TEXT if luma > 140 else BACKGROUND


def escape(text):
    """text (or a number) for SVG content or an attribute value: &, <, >
    and both quotes escaped, characters XML cannot hold shown as '?'."""
    text = NOT_XML.sub("?", str(text))
    return (text.replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;")
            .replace("'", "&#39;"))


class Svg:
    """An SVG document built element by element.  A shape's class (cls) is
    what the self-tests look for when they read the file back; title is a
    tooltip."""

    def __init__(self, width, height, background=BACKGROUND):
        """A width x height drawing on a background rectangle."""
        self.width = width
        self.height = height
        self.elements = []
        self.rect(0, 0, width, height, background, "background")

    def element(self, tag, body=None, **attrs):
        """Append <tag attrs>body</tag> (body already escaped).  None
        attributes are left out, numbers keep two decimals; class_ is
        written class, font_size font-size."""
        head = tag
        for key, value in attrs.items():
            if isinstance(value, (int, float)):
                value = ("%.2f" % value).rstrip("0").rstrip(".")
            if value is not None:
                head += ' %s="%s"' % (key.rstrip("_").replace("_", "-"),
                                      escape(value))
        self.elements.append("<%s/>" % head if body is None
                             else "<%s>%s</%s>" % (head, body, tag))

    def rect(self, x0, y0, x1, y1, colour, cls=None, title=None):
        """Fill [x0, x1) x [y0, y1)."""
        self.element("rect", title and "<title>%s</title>" % escape(title),
                     x=x0, y=y0, width=x1 - x0, height=y1 - y0,
                     fill=css(colour), class_=cls)

    def outline(self, x0, y0, x1, y1, colour, cls=None, title=None):
        """A one-unit outline inside [x0, x1) x [y0, y1); a box too small
        to show an inside is filled."""
        if x1 - x0 < 3 or y1 - y0 < 3:
            self.rect(x0, y0, x1, y1, colour, cls, title)
            return
        self.element("rect", title and "<title>%s</title>" % escape(title),
                     x=x0 + 0.5, y=y0 + 0.5, width=x1 - x0 - 1,
                     height=y1 - y0 - 1, fill="none", stroke=css(colour),
                     class_=cls)

    def text(self, x, top, text, colour, size=FONT_SIZE, anchor=None,
             cls=None, upwards=False):
        """text with its capitals' top at about (x, top); anchor 'middle'
        or 'end' puts x there instead of at its start.  upwards: turned a
        quarter, to read from (x, top) up."""
        turn = "rotate(-90 %.2f %.2f)" % (x, top) if upwards else None
        self.element("text", escape(text), x=x,
                     y=top if upwards else top + 0.8 * size,
                     fill=css(colour), font_size=size, text_anchor=anchor,
                     transform=turn, class_=cls)

    def document(self):
        """The SVG file's text."""
        return ('<?xml version="1.0" encoding="UTF-8"?>\n'
                '<svg xmlns="http://www.w3.org/2000/svg" width="%d" '
                'height="%d" font-family="%s" font-size="%d" '
                'shape-rendering="crispEdges">\n%s\n</svg>\n'
                % (math.ceil(self.width), math.ceil(self.height), FONT,
                   FONT_SIZE, "\n".join(self.elements)))

    def save(self, path):
        """Write the document to path; raises OSError."""
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(self.document())


# ---------------------------------------------------------------------------
# Layout and drawing
# ---------------------------------------------------------------------------

class Layout:
    """Where everything goes: the window, the lanes, the axis, the legend.

    Times are trace microseconds; t_from/t_to bound the plotted window and
    t_origin (the first event) is time 0 on the axis.  y values of text are
    the top of its line."""

    def __init__(self, trace, width, from_ms, to_ms, title):
        """Plan a plot of trace, width pixels wide; from_ms/to_ms (None for
        the whole trace) are relative to the first event."""
        self.width = width
        self.t_origin = trace.t_first
        total_us = max(trace.t_last - trace.t_first, MIN_SPAN_US)
        self.t_from = self.t_origin + (0.0 if from_ms is None
                                       else from_ms * 1000.0)
        self.t_to = self.t_origin + (total_us if to_ms is None
                                     else to_ms * 1000.0)
        if self.t_to <= self.t_from:
            raise TraceError("the window %.6g to %.6g ms is empty (the trace "
                             "spans %.6g ms)"
                             % ((self.t_from - self.t_origin) / 1000.0,
                                (self.t_to - self.t_origin) / 1000.0,
                                total_us / 1000.0))
        self.title = title

        by_lane = {lane: [] for lane in trace.lanes}
        for event in trace.events:
            by_lane[event.lane].append(event)
        self.lanes = trace.lanes
        self.lane_index = {lane: i for i, lane in enumerate(trace.lanes)}
        self.labels = {lane: clip_text(trace.labels[lane], MAX_LABEL_CHARS)
                       for lane in trace.lanes}
        self.split = set(lane for lane in trace.lanes
                         if lane_needs_split(by_lane[lane], self.t_from,
                                             self.t_to))
        self.busy = {}
        for lane in trace.lanes:
            share = busy_fraction(by_lane[lane], self.t_from, self.t_to)
            if share is None:
                self.busy[lane] = "-"
            else:
                self.busy[lane] = "%.1f%%" % (100.0 * share)

        kernels = set(e.detail for e in trace.events if e.kind == "chunk")
        self.kernel_colours = assign_kernel_colours(kernels)
        self.visible = [e for e in trace.events
                        if e.end >= self.t_from and e.start <= self.t_to]
        self.other_cats = sorted(set(e.cat or "(none)" for e in trace.events
                                     if e.kind == "other"))
        self.copy_kinds = set(e.detail for e in trace.events
                              if e.kind == "copy")
        self.any_failed = any(e.args.get("failed") is True
                              for e in trace.events
                              if e.kind == "chunk")

        # Columns.
        self.axis_name = "time (ms)"
        label_w = max([text_width(label) for label in self.labels.values()]
                      + [text_width(self.axis_name)])
        self.label_x = MARGIN
        self.plot_x0 = int(math.ceil(MARGIN + label_w + LABEL_GAP))
        self.busy_x1 = width - MARGIN
        self.plot_x1 = int(self.busy_x1 - text_width("100.0%") - BUSY_GAP)
        if self.plot_x1 - self.plot_x0 < 100:
            raise TraceError("--width %d leaves no room for the plot next to "
                             "the lane labels" % width)
        self.px_per_us = (self.plot_x1 - self.plot_x0) / (self.t_to
                                                          - self.t_from)

        # Rows.
        self.title_y = MARGIN
        self.axis_top_y = self.title_y + TITLE_SIZE + 8
        self.lanes_y0 = self.axis_top_y + LINE_H + TICK_LEN
        self.lane_top = {lane: self.lanes_y0 + i * LANE_PITCH
                         for i, lane in enumerate(trace.lanes)}
        self.lanes_y1 = self.lanes_y0 + len(trace.lanes) * LANE_PITCH
        self.axis_bottom_y = self.lanes_y1 + TICK_LEN + 3
        self.legend_y = self.axis_bottom_y + LINE_H + 8
        self.legend = self._plan_legend()
        rows = 1 + max([row for row, _, _, _ in self.legend] + [0])
        self.height = self.legend_y + rows * LINE_H + MARGIN

        step, values = nice_ticks((self.t_from - self.t_origin) / 1000.0,
                                  (self.t_to - self.t_origin) / 1000.0)
        decimals = tick_decimals(step)
        self.ticks = [(format_ms(value, decimals),
                       int(math.floor(self.x_of(self.t_origin
                                                + value * 1000.0))))
                      for value in values]
        self.ticks = [(text, x) for text, x in self.ticks
                      if self.plot_x0 <= x < self.plot_x1]

    def _plan_legend(self):
        """Legend entries (row, x, kind, (colour, text)), flowed into rows;
        kind is 'heading', 'fill' or 'outline' ('gap', extra space between
        groups, is used up here)."""
        entries = [("heading", None, "kernels:")]
        kernels = sorted(self.kernel_colours)
        for label in kernels[:MAX_LEGEND_KERNELS]:
            entries.append(("fill", self.kernel_colours[label],
                            clip_text(label, MAX_LABEL_CHARS)))
        if len(kernels) > MAX_LEGEND_KERNELS:
            entries.append(("heading", None, "+%d more"
                            % (len(kernels) - MAX_LEGEND_KERNELS)))
        if not kernels:
            entries.append(("heading", None, "none"))
        entries.append(("gap", None, ""))
        entries.append(("heading", None, "copies:"))
        for direction in COPY_DIRECTIONS:
            entries.append(("fill", COPY_COLOURS[direction], direction))
        if None in self.copy_kinds:
            entries.append(("fill", COPY_UNKNOWN_COLOUR, "copy"))
        entries.append(("gap", None, ""))
        entries.append(("fill", WAIT_COLOUR, "wait"))
        entries.append(("outline", LAUNCH_COLOUR, "launch"))
        if self.any_failed:
            entries.append(("outline", FAILED_COLOUR, "failed chunk"))
        if self.other_cats:
            entries.append(("fill", OTHER_COLOUR, clip_text(
                "other (%s)" % ", ".join(self.other_cats), 60)))
        widths = [text_width(text) + (0 if kind in ("heading", "gap")
                                      else SWATCH_W + 4)
                  for kind, _, text in entries]
        placed = []
        row = 0
        x = MARGIN
        for index, (kind, colour, text) in enumerate(entries):
            if kind == "gap":
                if x > MARGIN:
                    x += LEGEND_GAP
                continue
            needed = widths[index]
            if kind == "heading" and index + 1 < len(entries):
                needed += 6 + widths[index + 1]     # keep it with the next
            if x > MARGIN and x + needed > self.width - MARGIN:
                row += 1
                x = MARGIN
            placed.append((row, x, kind, (colour, text)))
            x += widths[index] + (6 if kind == "heading" else LEGEND_GAP)
        return placed

    def x_of(self, t):
        """x (float) of trace time t (microseconds)."""
        return self.plot_x0 + (t - self.t_from) * self.px_per_us

    def x_span(self, start, end):
        """[x0, x1) whole pixel columns of an interval, at least one wide,
        clipped to the plot; None when it lies outside.  Whole columns let
        the many events that share one be drawn once."""
        if end < self.t_from or start > self.t_to:
            return None
        x0 = max(self.plot_x0, int(math.floor(self.x_of(start))))
        x1 = min(self.plot_x1, int(math.floor(self.x_of(end))))
        x0 = min(x0, self.plot_x1 - 1)
        return (x0, max(x1, x0 + 1))

    def y_span(self, lane, kind):
        """[y0, y1) rows an event of the given kind uses in its lane."""
        top = self.lane_top[lane]
        if kind == "launch":
            return (top, top + LANE_H)
        if lane not in self.split:
            return (top + 1, top + LANE_H - 1)
        middle = top + LANE_H // 2
        if kind == "copy":
            return (middle, top + LANE_H - 1)
        return (top + 1, middle)

    def lane_background(self, lane):
        """Background colour of a lane (alternating)."""
        return LANE_BACKGROUNDS[self.lane_index[lane] % 2]


def draw_frame(svg, layout):
    """Title, lane backgrounds and labels, grid, axes and busy column."""
    max_chars = (layout.width - 2 * MARGIN) // (TITLE_SIZE * CHAR_W)
    svg.text(MARGIN, layout.title_y, clip_text(layout.title, max_chars),
             TEXT, TITLE_SIZE, cls="title")
    for lane in layout.lanes:
        top = layout.lane_top[lane]
        svg.rect(layout.plot_x0, top, layout.plot_x1, top + LANE_H,
                 layout.lane_background(lane), "lane")
        text_y = top + (LANE_H - 0.8 * FONT_SIZE) / 2
        svg.text(layout.label_x, text_y, layout.labels[lane], TEXT,
                 cls="label")
        svg.text(layout.busy_x1, text_y, layout.busy[lane], TEXT,
                 anchor="end", cls="busy")
    for _, x in layout.ticks:
        svg.rect(x, layout.lanes_y0, x + 1, layout.lanes_y1, GRID, "grid")
    svg.outline(layout.plot_x0 - 1, layout.lanes_y0 - 1, layout.plot_x1 + 1,
                layout.lanes_y1 + 1, FRAME, "frame")

    for y in (layout.axis_top_y, layout.axis_bottom_y):
        svg.text(layout.label_x, y, layout.axis_name, DIM_TEXT, cls="axis")
    svg.text(layout.busy_x1, layout.axis_top_y, "busy", DIM_TEXT,
             anchor="end", cls="axis")
    last_right = -1
    for text, x in layout.ticks:
        svg.rect(x, layout.lanes_y0 - 1 - TICK_LEN, x + 1,
                 layout.lanes_y0 - 1, FRAME, "tick")
        svg.rect(x, layout.lanes_y1 + 1, x + 1,
                 layout.lanes_y1 + 1 + TICK_LEN, FRAME, "tick")
        label_w = text_width(text)
        left = min(max(x - label_w / 2, layout.plot_x0 - 8),
                   layout.plot_x1 + 8 - label_w)
        if left <= last_right + 6:
            continue                    # would run into the previous label
        for y in (layout.axis_top_y, layout.axis_bottom_y):
            svg.text(left, y, text, DIM_TEXT, cls="tick")
        last_right = left + label_w


def _tooltip(event):
    """An event's hover text: its name and duration."""
    return "%s (%.3f ms)" % (event.name or event.cat or event.kind,
                             (event.end - event.start) / 1000.0)


def _uncovered(items, width):
    """The (event, span, y0, y1) items, in paint order, that later items of
    the same lane and rows do not cover entirely.  A raster just paints
    over them; an SVG would keep every layer, and a trace of 10^6 short
    events paints each pixel many times."""
    covered = {}
    shown = []
    for item in reversed(items):
        event, (x0, x1), y0, _ = item
        columns = covered.setdefault((event.lane, y0), bytearray(width))
        if columns.find(0, x0, x1) >= 0:
            columns[x0:x1] = b"\x01" * (x1 - x0)
            shown.append(item)
    return shown[::-1]


def draw_events(svg, layout):
    """Every visible event: fills first (chunks, copies, waits, others, by
    start time), then launch outlines on top so waits inside stay visible.
    Each rectangle's class is its event's kind."""
    fills = []
    outlines = []
    for event in sorted(layout.visible, key=lambda event: event.start):
        span = layout.x_span(event.start, event.end)
        if span is not None:
            (outlines if event.kind == "launch" else fills).append(
                (event, span) + layout.y_span(event.lane, event.kind))
    for event, span, y0, y1 in _uncovered(fills, layout.plot_x1):
        kind = event.kind
        colour = event_colour(event, kind, layout.kernel_colours)
        svg.rect(span[0], y0, span[1], y1, colour, kind, _tooltip(event))
        if (kind == "chunk" and span[1] - span[0] >= 4
                and event.start >= layout.t_from):
            # A darker first column separates back-to-back chunks.
            svg.rect(span[0], y0, span[0] + 1, y1, darker(colour), "edge")
        _label_inside(svg, event, span, y0, y1, colour)
        if kind == "chunk" and event.args.get("failed") is True:
            svg.outline(span[0], y0, span[1], y1, FAILED_COLOUR, "failed")
    last_span = {}
    for event, span, y0, y1 in outlines:
        # Launches shorter than a pixel: one outline per pixel column.
        if last_span.get(event.lane) != span:
            last_span[event.lane] = span
            svg.outline(span[0], y0, span[1], y1, LAUNCH_COLOUR, "launch",
                        _tooltip(event))


def _label_inside(svg, event, span, y0, y1, colour):
    """Write the event's name (or its kernel's) into its rectangle when the
    rectangle is wide and tall enough."""
    size = min(FONT_SIZE, y1 - y0)
    if size < 8:
        return
    room = span[1] - span[0] - 4
    candidates = [event.name]
    if event.kind == "chunk":
        candidates.append(event.detail)
    for text in candidates:
        if text and text_width(text, size) <= room:
            top = y0 + (y1 - y0 - 0.8 * size) / 2
            svg.text(span[0] + 2, top, text, text_colour_on(colour), size,
                     cls="event")
            return


def draw_legend(svg, layout):
    """The colour key along the bottom."""
    for row, x, kind, (colour, text) in layout.legend:
        y = layout.legend_y + row * LINE_H
        if kind != "heading":
            swatch = (x, y, x + SWATCH_W, y + SWATCH_H)
            if kind == "fill":
                svg.rect(*swatch, colour, "swatch")
            else:
                svg.outline(*swatch, colour, "swatch")
            x += SWATCH_W + 4
        svg.text(x, y, text, TEXT if kind != "heading" else DIM_TEXT,
                 cls="legend")


def render(trace, width=1600, from_ms=None, to_ms=None, title=None,
           source="trace"):
    """Draw trace; return (Svg, Layout).  The default title is source's
    basename and the trace's span."""
    if title is None:
        span_ms = (trace.t_last - trace.t_first) / 1000.0
        title = "%s - span %.3f ms" % (os.path.basename(source), span_ms)
        if from_ms is not None or to_ms is not None:
            title += ", showing %s to %s ms" % (
                "%g" % from_ms if from_ms is not None else "0",
                "%g" % to_ms if to_ms is not None else "%.3f" % span_ms)
        if trace.dropped:
            title += " (%d later events dropped)" % trace.dropped
    layout = Layout(trace, width, from_ms, to_ms, title)
    svg = Svg(layout.width, layout.height)
    draw_frame(svg, layout)
    draw_events(svg, layout)
    draw_legend(svg, layout)
    return svg, layout


# ---------------------------------------------------------------------------
# Self-test
# ---------------------------------------------------------------------------

def synthetic_trace_json():
    """A small trace in hetero's format: lanes cuda:0 (tid 0), cpu (tid 1)
    and host (tid 100); every category; B/E pairs, one nested; an instant
    and a counter event that must be ignored."""
    kernel = "__omp_offloading_10302_2a8e6c1_main_l88"

    def x(name, cat, ts, dur, tid, **args):
        """A complete event."""
        return {"name": name, "cat": cat, "ph": "X", "ts": ts, "dur": dur,
                "pid": 1, "tid": tid, "args": args}

    def b_e(phase, ts, tid, **fields):
        """A begin or end event."""
        return dict(fields, ph=phase, ts=ts, pid=1, tid=tid)

    events = [{"name": "process_name", "ph": "M", "pid": 1,
               "args": {"name": "hetero"}}]
    for tid, name in ((0, "cuda:0"), (1, "cpu"), (100, "host")):
        events.append({"name": "thread_name", "ph": "M", "pid": 1,
                       "tid": tid, "args": {"name": name}})
    events += [
        x("launch main_l88", "launch", 1000, 1000, 100),
        x("wait", "wait", 1600, 200, 100),
        b_e("B", 1020, 100, name="region", cat="phase"),
        b_e("B", 1030, 100, name="inner", cat="wait"),
        b_e("E", 1060, 100), b_e("E", 1080, 100),
        x("h2d 1.0 MiB", "copy", 1000, 100, 0, bytes=1048576, to="cuda:0",
          **{"from": "host"}),
        x("main_l88 [0,8190)", "chunk", 1100, 500, 0, kernel=kernel,
          iterations=8190, launch=3),
        x("d2h 1.0 MiB", "copy", 1500, 200, 0),
        x("saxpy_l12 [0,4096)", "chunk", 1750, 200, 0,
          kernel="__omp_offloading_10302_2a8e6c1_saxpy_l12"),
        x("copy", "copy", 1960, 30, 0, to="cuda:0", **{"from": "cuda:1"}),
        b_e("B", 1100, 1, name="main_l88 [8190,10000)", cat="chunk",
            args={"kernel": kernel}),
        b_e("E", 1500, 1, args={"iterations": 1810}),
        x("h2h 64 KiB", "copy", 1600, 100, 1),
        x("sync", "sync", 1800, 100, 1),
        x("main_l88 [10000,10001)", "chunk", 1950, 0.01, 1, kernel=kernel),
        {"name": "mark", "ph": "i", "ts": 1234, "pid": 1, "tid": 1},
        {"name": "bytes", "ph": "C", "ts": 1300, "pid": 1, "args": {"v": 3}},
    ]
    return json.dumps({"displayTimeUnit": "ms", "traceEvents": events})


def _check(condition, description):
    """Raise SelfTestFailure(description) unless condition holds."""
    if not condition:
        raise SelfTestFailure(description)


def _expect_error(text, fragment):
    """parse_trace(text) must raise TraceError mentioning fragment."""
    try:
        parse_trace(text)
    except TraceError as err:
        _check(fragment in str(err), "parse error for %r says %r, expected "
               "it to mention %r" % (text[:40], str(err), fragment))
        return
    except Exception as err:  # pylint: disable=broad-except
        raise SelfTestFailure("parse of %r raised %s, not TraceError"
                              % (text[:40], type(err).__name__)) from None
    raise SelfTestFailure("parse of %r did not fail" % text[:40])


def _self_test_parsing():
    """Checks of the reader: lanes, B/E pairing, busy shares, the array
    forms and the error messages.  Returns the parsed synthetic trace."""
    trace = parse_trace(synthetic_trace_json())
    _check(trace.lanes == [(1, 0), (1, 1), (1, 100)],
           "lanes ordered by tid: got %r" % (trace.lanes,))
    _check([trace.labels[lane] for lane in trace.lanes]
           == ["cuda:0", "cpu", "host"],
           "lane labels from thread_name: got %r" % (trace.labels,))
    _check(len(trace.events) == 13,
           "13 drawable events (X and B/E pairs, no i/C), got %d"
           % len(trace.events))
    spans = {e.name: (e.start, e.end) for e in trace.events}
    _check(spans.get("inner") == (1030, 1060)
           and spans.get("region") == (1020, 1080),
           "nested B/E pairs close innermost first: got inner %r, region %r"
           % (spans.get("inner"), spans.get("region")))
    chunk = [e for e in trace.events if e.name.startswith("main_l88 [8190")]
    _check(len(chunk) == 1 and (chunk[0].start, chunk[0].end) == (1100, 1500)
           and chunk[0].args.get("iterations") == 1810
           and chunk[0].kind == "chunk",
           "B/E chunk on the cpu lane spans 1100-1500 with merged args")
    by_lane = {lane: [e for e in trace.events if e.lane == lane]
               for lane in trace.lanes}
    gpu_busy = busy_fraction(by_lane[(1, 0)], trace.t_first, trace.t_last)
    _check(abs(gpu_busy - 0.93) < 1e-9,
           "cuda:0 busy share is 93%% (union of chunks and copies), got %r"
           % gpu_busy)
    _check(busy_fraction(by_lane[(1, 100)], 1000, 2000) is None,
           "host lane (waits and launches only) has no busy share")
    _check((1, 0) in set(lane for lane in trace.lanes
                         if lane_needs_split(by_lane[lane], 1000, 2000))
           and not lane_needs_split(by_lane[(1, 1)], 1000, 2000),
           "cuda:0 (copy during a chunk) splits, cpu does not")
    for name, args, label in (
            ("main_l88 [0,8190)",
             {"kernel": "__omp_offloading_..._main_l88"}, "main_l88"),
            ("chunk", {"kernel": "__omp_offloading_fe00_51004c_main_l88"},
             "main_l88"),
            ("main_l88 (whole)", {}, "main_l88"),
            ("dot [0,10]", {"kernel": 7}, "dot")):
        got = kernel_label(name, args)
        _check(got == label, "kernel label of %r %r is %r, expected %r"
               % (name, args, got, label))
    directions = sorted(e.detail for e in trace.events
                        if e.kind == "copy")
    _check(directions == ["d2d", "d2h", "h2d", "h2h"],
           "copy directions from names and from/to args: got %r"
           % directions)

    raw = json.loads(synthetic_trace_json())["traceEvents"]
    bare = parse_trace(json.dumps(raw))
    _check(len(bare.events) == len(trace.events),
           "bare array form reads the same events")
    truncated = json.dumps(raw)[:-1] + ",\n"
    _check(len(parse_trace(truncated).events) == len(trace.events),
           "array form without its closing bracket reads the same events")
    _expect_error("", "empty file")
    _expect_error("  \n", "empty file")
    _expect_error('{"traceEvents": [', "not valid JSON")
    _expect_error('{"traceEvents": 3}', "not an array")
    _expect_error('{"events": []}', "traceEvents")
    _expect_error("42", "not an object or an array")
    _expect_error('[{"ph": "M", "name": "thread_name"}]', "no events")
    _expect_error('[{"ph": "X", "ts": "soon", "dur": 1}]', "no events")
    _expect_error("[" * 100000, "nested too deeply")
    return trace


SVG_NS = "{http://www.w3.org/2000/svg}"


def read_svg(source):
    """(rects, texts) of an SVG file (a path) or document (str, starting
    with '<'), parsed as XML: rects as (class, x0, y0, x1, y1, fill,
    stroke) in paint order, texts as (class, text).  Raises
    SelfTestFailure when it is not well-formed SVG."""
    try:
        if source.startswith("<"):
            root = ElementTree.fromstring(source)
        else:
            root = ElementTree.parse(source).getroot()
    except ElementTree.ParseError as err:
        raise SelfTestFailure("the SVG is not well-formed XML: %s" % err)
    _check(root.tag == SVG_NS + "svg", "root element is <svg> in the SVG "
           "namespace, got %r" % root.tag)
    rects = []
    for rect in root.iter(SVG_NS + "rect"):
        x, y = float(rect.get("x")), float(rect.get("y"))
        rects.append((rect.get("class"), x, y, x + float(rect.get("width")),
                      y + float(rect.get("height")), rect.get("fill"),
                      rect.get("stroke")))
    texts = [(text.get("class"), text.text or "")
             for text in root.iter(SVG_NS + "text")]
    return rects, texts


def paint_at(rects, x, y):
    """(class, fill) of the filled rectangle painted last over the pixel
    whose top-left corner is (x, y): what a viewer shows there."""
    for cls, x0, y0, x1, y1, fill, _ in reversed(rects):
        if fill != "none" and x0 <= x + 0.5 < x1 and y0 <= y + 0.5 < y1:
            return cls, fill
    return None, None


def _self_test_svg(trace, directory):
    """Render the synthetic trace, write it, read the SVG back as XML and
    check the lanes, the colours painted where rectangles must (not) be,
    the launch outlines and the text."""
    svg, layout = render(trace, 900, source="synthetic.json")
    path = os.path.join(directory, "self-test.svg")
    svg.save(path)
    rects, texts = read_svg(path)

    def at(t, lane, kind):
        """(class, fill) at time t on the top row lane uses for kind."""
        x = int(math.floor(layout.x_of(t)))
        return paint_at(rects, x, layout.y_span(lane, kind)[0])

    gpu, cpu, host = (1, 0), (1, 1), (1, 100)
    main_colour = layout.kernel_colours["main_l88"]
    saxpy_colour = layout.kernel_colours["saxpy_l12"]
    _check(main_colour != saxpy_colour,
           "different kernels get different colours")
    for t, lane, kind, colour, what in (
            (1350, gpu, "chunk", main_colour, "main_l88 chunk midpoint, "
             "cuda:0 top half"),
            (1550, gpu, "chunk", main_colour, "main_l88 chunk over a copy, "
             "cuda:0 top half"),
            (1550, gpu, "copy", COPY_COLOURS["d2h"], "d2h copy under a "
             "chunk, cuda:0 bottom half"),
            (1650, gpu, "copy", COPY_COLOURS["d2h"], "d2h copy midpoint"),
            (1050, gpu, "copy", COPY_COLOURS["h2d"], "h2d copy midpoint"),
            (1850, gpu, "chunk", saxpy_colour, "saxpy_l12 chunk midpoint"),
            (1975, gpu, "copy", COPY_COLOURS["d2d"], "d2d copy (from/to "
             "args)"),
            (1300, cpu, "chunk", main_colour, "B/E chunk on cpu, same "
             "kernel colour as on cuda:0"),
            (1650, cpu, "copy", COPY_COLOURS["h2h"], "h2h copy on cpu"),
            (1850, cpu, "other", OTHER_COLOUR, "uncategorised event"),
            (1950, cpu, "chunk", main_colour, "0.01 us chunk drawn 1 px "
             "wide"),
            (1700, host, "wait", WAIT_COLOUR, "wait on host"),
            (1045, host, "wait", WAIT_COLOUR, "nested B/E wait on host")):
        got = at(t, lane, kind)
        _check(got == (kind, css(colour)), "%s: painted %r, expected a %s "
               "rectangle in %s" % (what, got, kind, css(colour)))
    tick_xs = set(x for _, x in layout.ticks)
    for t, lane in ((1550, cpu), (1400, host), (1720, gpu)):
        if int(math.floor(layout.x_of(t))) in tick_xs:
            t += 2
        got = at(t, lane, "other")
        expected = ("lane", css(layout.lane_background(lane)))
        _check(got == expected, "empty stretch of lane %s at %g us: "
               "painted %r, expected %r"
               % (layout.labels[lane], t, got, expected))
    _check(paint_at(rects, layout.width - 2, layout.lanes_y0)
           == ("background", css(BACKGROUND)),
           "image background right of the plot")

    launches = [r for r in rects if r[0] == "launch"]
    top = layout.lane_top[host]
    _check(len(launches) == 1 and launches[0][5:] == ("none",
                                                      css(LAUNCH_COLOUR))
           and abs(launches[0][1] - layout.x_of(1000) - 0.5) < 1
           and abs(launches[0][3] - layout.plot_x1 + 0.5) < 1
           and (launches[0][2], launches[0][4]) == (top + 0.5,
                                                    top + LANE_H - 0.5),
           "one launch outline over the host lane from 1000 to 2000 us, "
           "got %r" % launches)

    def of(cls):
        """The texts of one class, in document order."""
        return [text for text_cls, text in texts if text_cls == cls]

    _check(of("title") == ["synthetic.json - span 1.000 ms"],
           "title text: got %r" % of("title"))
    _check(of("label") == ["cuda:0", "cpu", "host"],
           "lane labels: got %r" % of("label"))
    _check(of("busy") == ["93.0%", layout.busy[cpu], "-"],
           "busy column (93.0%% on cuda:0, none on host): got %r"
           % of("busy"))
    ticks = [float(text) for text in of("tick")[::2]]
    _check(len(ticks) >= 5 and ticks == sorted(ticks)
           and of("tick")[::2] == of("tick")[1::2],
           "tick labels above and below, increasing: got %r" % of("tick"))
    legend = of("legend")
    for entry in ("kernels:", "main_l88", "saxpy_l12", "copies:", "h2d",
                  "d2h", "d2d", "h2h", "wait", "launch",
                  "other (phase, sync)"):
        _check(entry in legend, "legend has %r: got %r" % (entry, legend))
    _check("main_l88 [0,8190)" in of("event"),
           "a wide chunk is labelled inside: got %r" % of("event"))

    # A window from 0.5 to 1.0 ms starts with the main_l88 chunk's last
    # 0.1 ms; its first column must have the chunk's colour.
    window_svg, window = render(trace, 900, from_ms=0.5, to_ms=1.0)
    got = paint_at(read_svg(window_svg.document())[0], window.plot_x0,
                   window.y_span(gpu, "chunk")[0])
    _check(got == ("chunk", css(main_colour)), "window --from 0.5 --to "
           "1.0: first column of cuda:0 is %r, expected the main_l88 "
           "colour %s" % (got, css(main_colour)))

    # 4000 chunks of two kernels, several to a pixel column: what later
    # ones paint over is left out, one rectangle a column at most remains.
    many = parse_trace(json.dumps([
        {"name": "k%d [0,1)" % (i % 2), "cat": "chunk", "ph": "X", "ts": i,
         "dur": 1} for i in range(4000)]))
    many_svg, many_layout = render(many, 400)
    chunks = [r for r in read_svg(many_svg.document())[0] if r[0] == "chunk"]
    _check(0 < len(chunks) <= many_layout.plot_x1 - many_layout.plot_x0,
           "covered rectangles are left out: %d chunk rectangles in %d "
           "columns" % (len(chunks), many_layout.plot_x1
                        - many_layout.plot_x0))


def _run_main(argv):
    """(status, stdout, stderr) of main(argv)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    return status, out.getvalue(), err.getvalue()


def _self_test_cli(directory):
    """The command line: a good trace writes an SVG whose text is escaped,
    a bad one or a .png output name exits 2 with one line on stderr."""
    good = os.path.join(directory, "good.json")
    bad = os.path.join(directory, "bad.json")
    out = os.path.join(directory, "cli.svg")
    with open(good, "w", encoding="utf-8") as handle:
        handle.write(synthetic_trace_json())
    with open(bad, "w", encoding="utf-8") as handle:
        handle.write('{"traceEvents": [{"ph": "X",')
    title = "cli <a & \"b\"> 'c'\x01"
    status, stdout, stderr = _run_main([good, out, "--width", "640",
                                        "--title", title])
    _check(status == EXIT_OK and stdout.startswith("trace-plot: wrote %s "
                                                   "(640x" % out),
           "command line draws a good trace (status %r, output %r)"
           % (status, stdout + stderr))
    texts = read_svg(out)[1]
    _check(("title", title[:-1] + "?") in texts,
           "title with &, <, >, quotes and a control character reads back "
           "as written: got %r" % texts[:1])
    for argv, start, what in (
            ([bad, out], "trace-plot: %s: " % bad, "malformed trace"),
            ([good, os.path.join(directory, "x.png")],
             "trace-plot: %s: " % os.path.join(directory, "x.png"),
             ".png output name")):
        status, _, stderr = _run_main(argv)
        _check(status == EXIT_USAGE and stderr.count("\n") == 1
               and stderr.startswith(start),
               "%s exits 2 with one stderr line (status %r, stderr %r)"
               % (what, status, stderr))
    _check("SVG" in stderr and not os.path.exists(argv[1]),
           ".png output name says the output is SVG and writes nothing")


def self_test():
    """Run every check; print the first failure.  Returns the exit status."""
    try:
        trace = _self_test_parsing()
        with tempfile.TemporaryDirectory(prefix="trace-plot-") as directory:
            _self_test_svg(trace, directory)
            _self_test_cli(directory)
    except SelfTestFailure as failure:
        print("trace-plot: self-test failed: %s" % failure, file=sys.stderr)
        return EXIT_FAIL
    print("trace-plot: self-test passed")
    return EXIT_OK


# ---------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------

def build_parser():
    """The argument parser."""
    parser = argparse.ArgumentParser(
        prog="trace-plot.py",
        description="Draw a HETERO_TRACE timeline (Chrome trace event JSON) "
                    "to an SVG: one lane per thread, chunks by kernel, "
                    "copies by direction, waits in grey, launches as "
                    "outlines, and each lane's busy share.")
    parser.add_argument("trace", nargs="?", metavar="TRACE.json",
                        help="trace written with HETERO_TRACE=<file>")
    parser.add_argument("out", nargs="?", metavar="OUT.svg",
                        help="SVG to write")
    parser.add_argument("--width", type=int, default=1600, metavar="PX",
                        help="image width in pixels (default 1600)")
    parser.add_argument("--from", dest="from_ms", type=float, metavar="MS",
                        help="window start, ms after the first event")
    parser.add_argument("--to", dest="to_ms", type=float, metavar="MS",
                        help="window end, ms after the first event")
    parser.add_argument("--title", metavar="TEXT",
                        help="title line (default: the trace "
                        "file's name and span)")
    parser.add_argument("--self-test", action="store_true",
                        help="draw a built-in trace and check the SVG")
    return parser


def main(argv=None):
    """Entry point; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        if args.trace or args.out:
            parser.error("--self-test takes no files")
        return self_test()
    if not args.trace or not args.out:
        parser.error("TRACE.json and OUT.svg are required")
    if not MIN_WIDTH <= args.width <= MAX_WIDTH:
        parser.error("--width must be between %d and %d"
                     % (MIN_WIDTH, MAX_WIDTH))
    for option, value in (("--from", args.from_ms), ("--to", args.to_ms)):
        if value is not None and not math.isfinite(value):
            parser.error("%s must be a finite number of ms" % option)
    if (args.from_ms is not None and args.to_ms is not None
            and args.from_ms >= args.to_ms):
        parser.error("--from must be before --to")
    if args.out.lower().endswith(".png"):
        # An SVG in a file named .png would open nowhere.
        print("trace-plot: %s: the plot is SVG now; name the output .svg"
              % args.out, file=sys.stderr)
        return EXIT_USAGE

    try:
        trace = load_trace(args.trace)
        svg, layout = render(trace, args.width, args.from_ms, args.to_ms,
                             args.title, source=args.trace)
    except TraceError as err:
        print("trace-plot: %s: %s" % (args.trace, err), file=sys.stderr)
        return EXIT_USAGE
    if trace.skipped:
        print("trace-plot: %s: warning: left out %d malformed event%s"
              % (args.trace, trace.skipped,
                 "" if trace.skipped == 1 else "s"), file=sys.stderr)
    if trace.dropped:
        print("trace-plot: %s: warning: the writer dropped %d events; the "
              "plot ends where it stopped recording"
              % (args.trace, trace.dropped), file=sys.stderr)
    try:
        svg.save(args.out)
    except OSError as err:
        print("trace-plot: %s: cannot write: %s"
              % (args.out, err.strerror or err), file=sys.stderr)
        return EXIT_FAIL
    print("trace-plot: wrote %s (%dx%d, %d lanes, %d events)"
          % (args.out, svg.width, svg.height, len(layout.lanes),
             len(layout.visible)))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
