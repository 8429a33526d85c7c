#!/usr/bin/env python3
"""check_json.py - checks pmtrace-vp's --stats-json file (tests/CMakeLists.txt, Vp.*Json).

    check_json.py FILE [--summary TEXT] CHECK...

The file must parse as JSON. Each CHECK is PATH OP VALUE, OP one of = != > >= < <=:
  PATH   keys joined by dots; a list's element by index (trace.parts) or by one of its fields,
         events[name=INST_RETIRED].count; a string that is a hex number ("0x1f") counts as a number
  VALUE  a number, true, false, null, a word (a string), or @LABEL: the number that starts the
         summary's line holding LABEL (--summary, pmtrace-vp's text output: "  1,234   LABEL"),
         so the JSON is checked against what the same run printed; @@PATH: another value of the
         file.
Prints "ok" when every check holds, else each failure (exit 1).
"""
import json
import re
import sys


def number(v):
    if isinstance(v, str) and re.fullmatch(r"0x[0-9a-fA-F]+", v):
        return int(v, 16)
    return v


def get(doc, path):
    node = doc
    for part in re.findall(r"[^.\[\]]+|\[[^\]]*\]", path):
        if part.startswith("["):
            sel = part[1:-1]
            if "=" in sel:
                key, want = sel.split("=", 1)
                matches = [e for e in node if str(e.get(key)) == want]
                if len(matches) != 1:
                    raise KeyError(f"{path}: {len(matches)} elements with {sel}")
                node = matches[0]
            else:
                node = node[int(sel)]
        else:
            node = node[part]
    return number(node)


def summary_number(text, label):
    for line in text.splitlines():
        m = re.match(r"\s*([0-9][0-9,.]*)\s+(.*)", line)
        if m and label in m.group(2):
            v = m.group(1).replace(",", "")
            return float(v) if "." in v else int(v)
    raise KeyError(f"no summary line with '{label}'")


def value(text, doc, summary):
    if text.startswith("@@"):
        return get(doc, text[2:])
    if text.startswith("@"):
        return summary_number(summary, text[1:])
    words = {"true": True, "false": False, "null": None}
    if text in words:
        return words[text]
    for kind in (int, float):
        try:
            return kind(text, 0) if kind is int else kind(text)
        except ValueError:
            pass
    return text


def main(argv):
    doc = json.load(open(argv[1]))
    args = argv[2:]
    summary = ""
    if args[:1] == ["--summary"]:
        summary = open(args[1]).read()
        args = args[2:]
    ops = {"!=": lambda a, b: a != b, ">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b,
           "=": lambda a, b: a == b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}
    failures = []
    for check in args:
        m = re.match(r"((?:[^=!<>\[]|\[[^\]]*\])+)(!=|>=|<=|=|>|<)(.*)", check)
        if not m:
            failures.append(f"{check}: not PATH OP VALUE")
            continue
        path, op, want = m.groups()
        try:
            have, expected = get(doc, path), value(want, doc, summary)
            if isinstance(expected, float) and isinstance(have, (int, float)):
                # the summary prints times with 6 decimals
                ok = ops[op](round(have, 6), expected) if op == "=" else ops[op](have, expected)
            else:
                ok = ops[op](have, expected)
            if not ok:
                failures.append(f"{check}: the file has {have!r}, expected {op} {expected!r}")
        except (KeyError, IndexError, TypeError, ValueError) as e:
            failures.append(f"{check}: {e}")
    for f in failures:
        print(f)
    if not failures:
        print("ok")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
