#!/usr/bin/env python3
"""Compare a corpus file with what `todo export` wrote back after importing it.

    python3 compare.py FORMAT INPUT_FILE EXPORTED_FILE     (FORMAT: ical | todotxt | taskwarrior)

Prints one line of JSON, {"verdict": V, "differences": [...]}, and exits 0 (2 on bad usage).
V is "same" (nothing the input holds is lost or changed), "instants" (iCalendar only: the same
except that TZID or floating DATE-TIMEs came back as UTC instants of the same moment and/or a
VTIMEZONE that some to-do time used was dropped) or "differs". The machine runs with TZ=UTC,
so a floating time is read as UTC wall time. Standard library only (Python 3.11+).
"""
import calendar, collections, datetime, json, re, sys, zoneinfo

UTC = datetime.timezone.utc
DIFF, INST = "differs", "instants"

def read(path):  # a line that is not UTF-8 is read as Latin-1 (as todo reads it)
    with open(path, "rb") as f:
        data = f.read()
    lines = []
    for line in data.split(b"\n"):
        try: lines.append(line.decode("utf-8"))
        except UnicodeDecodeError: lines.append(line.decode("latin-1"))
    return "\n".join(lines)

# ------------------------------------------------------------------ iCalendar

def parse_ical(text):
    """Unfold, then build a component tree: {"type", "props": [(NAME, {PARAM: value}, value)], "subs"}."""
    lines = []
    for l in re.split(r"\r\n|\n|\r", text):
        if l[:1] in (" ", "\t") and lines: lines[-1] += l[1:]
        elif l: lines.append(l)
    root = {"type": "", "props": [], "subs": []}; stack = [root]
    for l in lines:
        m = re.match(r'([^;:]*)((?:;[^=;:]*(?:=(?:"[^"]*"|[^;:"])*)?)*)(?::(.*))?$', l)  # NAME;P=v:value
        if not m: continue
        name, value = m.group(1).upper(), m.group(3) or ""
        params = {k.upper(): v.replace('"', "") for k, v in re.findall(r';([^=;:]*)=?((?:"[^"]*"|[^;:"])*)', m.group(2))}
        if name == "BEGIN":
            comp = {"type": value.upper(), "props": [], "subs": []}
            stack[-1]["subs"].append(comp); stack.append(comp)
        elif name == "END" and len(stack) > 1: stack.pop()
        else: stack[-1]["props"].append((name, params, value))
    return root

def walk(comp):
    for s in comp["subs"]:
        yield s; yield from walk(s)

def first(comp, name):
    return next((v for n, p, v in comp["props"] if n == name), None)

def vtimezones(root):
    return {first(c, "TZID"): c for c in walk(root) if c["type"] == "VTIMEZONE" and first(c, "TZID")}

def nth_weekday(year, month, byday):
    """Date of e.g. BYDAY=-1SU / 2SU in a month."""
    m = re.fullmatch(r"([+-]?\d+)?(MO|TU|WE|TH|FR|SA|SU)", byday)
    n, wd = int(m.group(1) or 1), ["MO", "TU", "WE", "TH", "FR", "SA", "SU"].index(m.group(2))
    days = [d for d in range(1, calendar.monthrange(year, month)[1] + 1)
            if datetime.date(year, month, d).weekday() == wd]
    return days[n - 1] if n > 0 else days[n]

def vtz_offset(vtz, local):
    """UTC offset of a local wall time under a VTIMEZONE: the observance whose latest onset <= local."""
    best = None; earliest = None
    for ob in vtz["subs"]:
        start = parse_local(first(ob, "DTSTART") or "")
        to, frm = (tz_off(first(ob, k) or "+0000") for k in ("TZOFFSETTO", "TZOFFSETFROM"))
        if start is None: continue
        if earliest is None or start < earliest[0]: earliest = (start, frm)
        onsets = [start]
        for v in (v for n, p, v in ob["props"] if n == "RDATE"):
            onsets += [x for x in map(parse_local, v.split(",")) if x]
        rule = dict(x.split("=", 1) for x in (first(ob, "RRULE") or "").split(";") if "=" in x)
        if rule.get("FREQ") == "YEARLY":
            until = parse_local(rule.get("UNTIL", "")[:15]) or datetime.datetime.max
            for y in (local.year - 1, local.year):
                mon = int(rule.get("BYMONTH", start.month))
                day = nth_weekday(y, mon, rule["BYDAY"]) if "BYDAY" in rule else start.day
                o = start.replace(year=y, month=mon, day=day)
                if start <= o and o - frm <= until: onsets.append(o)
        o = max((x for x in onsets if x <= local), default=None)
        if o is not None and (best is None or o > best[0]): best = (o, to)
    if best: return best[1]
    return earliest[1] if earliest else None

def tz_off(s):
    m = re.fullmatch(r"([+-])(\d\d)(\d\d)(\d\d)?", s.strip())
    if not m: return datetime.timedelta(0)
    d = datetime.timedelta(hours=int(m.group(2)), minutes=int(m.group(3)), seconds=int(m.group(4) or 0))
    return -d if m.group(1) == "-" else d

def parse_local(s):
    try: return datetime.datetime.strptime(s.strip().rstrip("Z"), "%Y%m%dT%H%M%S")
    except ValueError: return None

def instant(value, params, zones):
    """One date or date-time value -> (kind, {possible values}, text as written). kind: 'date'
    ('YYYYMMDD'), 'text', or with UTC datetimes 'utc' (Z), 'floating' (UTC wall time: TZ=UTC) or 'tz'.
    A TZID is read through the files' VTIMEZONE and through the system zone database: a VTIMEZONE
    often carries only today's rules, so older times may legitimately resolve either way."""
    v = value.strip(); tzid = params.get("TZID")
    text = f"{v} (TZID={tzid})" if tzid else v
    if params.get("VALUE", "").upper() == "DATE" or re.fullmatch(r"\d{8}", v): return ("date", {v}, text)
    local = parse_local(v) if re.fullmatch(r"\d{8}T\d{6}Z?", v) else None
    if local is None: return ("text", {text}, text)
    if v.endswith("Z"): return ("utc", {local.replace(tzinfo=UTC)}, text)
    if not tzid: return ("floating", {local.replace(tzinfo=UTC)}, text + " (floating)")
    found = set()
    for vtzs in zones:
        try: found.add((local - vtz_offset(vtzs[tzid], local)).replace(tzinfo=UTC))
        except Exception: pass  # not there, or a rule this reader does not know
    try: found.add(local.replace(tzinfo=zoneinfo.ZoneInfo(tzid.lstrip("/"))).astimezone(UTC))
    except Exception: pass
    return ("tz", found, text) if found else ("text", {text}, text)

def unescape(v):
    return re.sub(r"\\(.)", lambda m: "\n" if m.group(1) in "nN" else m.group(1), v)

def split_list(v):  # split at commas not escaped, then unescape
    return [unescape(x).strip() for x in re.split(r"(?<!\\),", v) if x.strip()]

DATES = {"DTSTART", "DUE", "DTEND", "COMPLETED", "CREATED", "RECURRENCE-ID", "EXDATE", "RDATE"}
IGNORED = {"DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "PRODID", "UID"}

def compare_props(a, b, zones_a, zones_b, label, out):
    """Every property of component a must be in b with the same value; `out` collects (kind, text)."""
    by_a, by_b = collections.defaultdict(list), collections.defaultdict(list)
    for n, p, v in a["props"]: by_a[n].append((p, v))
    for n, p, v in b["props"]: by_b[n].append((p, v))
    for name, items in by_a.items():
        items = [(p, v) for p, v in items if v.strip() != ""]  # an empty value holds nothing
        if name in IGNORED or not items: continue
        got = by_b.get(name, [])
        if not got:
            out.append((DIFF, f"{label}{name} lost ({short(items[0][1])!r})")); continue
        if name == "CATEGORIES":  # several lines or one merged line: compare the set
            sa = {c for _, v in items for c in split_list(v)}; sb = {c for _, v in got for c in split_list(v)}
            if not sa <= sb: out.append((DIFF, f"{label}CATEGORIES {sorted(sa)} -> {sorted(sb)}"))
        elif name in DATES:
            def norm(ps, zones):  # -> sorted list of (instants, params other than TZID/VALUE)
                return [(instant(x, p, zones), {k: w for k, w in p.items() if k not in ("TZID", "VALUE")})
                        for p, v in ps for x in v.split(",")]
            na, nb = norm(items, zones_a), norm(got, zones_b + zones_a)
            for ia, pa in na:  # same instant (a DATE must stay a DATE), input parameters kept
                m = [ib for ib, pb in nb if ib[1] & ia[1] and (ib[0] == "date") == (ia[0] == "date")
                     and (ib[0] == "text") == (ia[0] == "text") and pa.items() <= pb.items()]
                became = {ib[0] for ib in m}
                if not m or (ia[0] != "floating" and became == {"floating"}):
                    out.append((DIFF, f"{label}{name} {ia[2]} -> {', '.join(x[2] for x, _ in nb)}"))
                elif ia[0] not in became and name != "CREATED":  # RFC 5545: CREATED is UTC anyway
                    out.append((INST, f"{label}{name} {ia[2]} -> {m[0][2]}"))
        else:
            na = [(unescape(v), p) for p, v in items]; nb = [(unescape(v), p) for p, v in got]
            for va, pa in na:
                if not any(va == vb and pa.items() <= pb.items() for vb, pb in nb):
                    alt = next((vb for vb, pb in nb if vb == va), None)
                    what = "parameters " + str(pa) if alt is not None else repr(short(va))
                    out.append((DIFF, f"{label}{name} {what} -> {short(nb[0][0])!r}"))
    # sub-components (VALARM) by order within their type
    for t in {s["type"] for s in a["subs"]}:
        sa = [s for s in a["subs"] if s["type"] == t]; sb = [s for s in b["subs"] if s["type"] == t]
        if len(sb) < len(sa): out.append((DIFF, f"{label}{t} {len(sa)} -> {len(sb)}"))
        for x, y in zip(sa, sb): compare_props(x, y, zones_a, zones_b, f"{label}{t}: ", out)

def short(s, n=40):
    return s if len(s) <= n else s[:n] + "..."

def compare_ical(inp, exp):
    ra, rb = parse_ical(inp), parse_ical(exp)
    za, zb = vtimezones(ra), vtimezones(rb)
    ta = [c for c in walk(ra) if c["type"] == "VTODO"]; tb = [c for c in walk(rb) if c["type"] == "VTODO"]
    def key(t, zones):  # (UID, RECURRENCE-ID as an instant or None)
        rid = next((instant(v, p, zones) for n, p, v in t["props"] if n == "RECURRENCE-ID"), None)
        return first(t, "UID"), rid
    kb = [key(t, [zb, za]) for t in tb]; used = set(); out = []; no_uid = []; copies = collections.Counter()
    for t in ta:
        uid, rid = key(t, [za])
        if uid is None: no_uid.append(t); continue
        copies[uid, rid and rid[2]] += 1  # a UID given several times: each copy must come back
        i = next((i for i, (u, r) in enumerate(kb) if u == uid and (r and r[1] & rid[1] if rid else not r)
                  and i not in used), None)
        n = copies[uid, rid and rid[2]]
        label = f"UID {short(uid, 30)}{' RECURRENCE-ID ' + rid[2] if rid else ''}{f' (copy {n})' if n > 1 else ''}: "
        if i is None: out.append((DIFF, f"missing VTODO {label[:-2]}")); continue
        used.add(i); compare_props(t, tb[i], [za], [zb], label, out)
    rest = [i for i in range(len(tb)) if i not in used]  # UID-less input: pair by order, any UID
    for n, t in enumerate(no_uid):
        label = f"VTODO #{n + 1} without UID: "
        if n >= len(rest): out.append((DIFF, f"missing {label[:-2]}")); continue
        compare_props(t, tb[rest[n]], [za], [zb], label, out)
    # a VTIMEZONE some to-do time used must come back (or its times must be UTC: reported above)
    used_tz = {p["TZID"] for t in ta for n, p, v in t["props"] if "TZID" in p}
    for tzid in sorted(set(za) - set(zb)):
        if tzid in used_tz: out.append((INST, f"VTIMEZONE {tzid} dropped"))
    return out

# ------------------------------------------------------------------ todo.txt

def compare_todotxt(inp, exp):
    def lines(t): return [l.rstrip(" \t\f\v") for l in re.split(r"\r\n|\n|\r", t) if l.strip(" \t\f\v")]
    want, have = collections.Counter(lines(inp)), collections.Counter(lines(exp))
    common = want & have; want -= common; have -= common
    for l in list(have.elements()):  # the line with " uuid:<uuid>" appended, nothing else changed
        base = re.sub(r" uuid:[0-9a-fA-F-]{36}$", "", l)
        if base != l and want[base] > 0: want[base] -= 1; have[l] -= 1
    out = [(DIFF, f"missing line {short(l, 60)!r}") for l in (+want).elements()]
    out += [(DIFF, f"extra line {short(l, 60)!r}") for l in (+have).elements()]
    return out

# ------------------------------------------------------------------ Taskwarrior

def parse_tw(text):
    """JSON array, JSON Lines or concatenated objects -> list of objects."""
    d, i, recs = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i] in " \t\r\n,\ufeff": i += 1
        if i >= len(text): return recs
        obj, i = d.raw_decode(text, i)
        recs += obj if isinstance(obj, list) else [obj]

TW_DATES = {"entry", "end", "due", "wait", "scheduled", "until", "start", "modified"}

def tw_value(k, v):
    """Normalise a value: sets for tags/depends, instants for dates, floats for numbers."""
    if k == "recur" and isinstance(v, str):  # Taskwarrior's spellings of one period
        w = v.lower()
        w = {"daily": "1d", "weekly": "1w", "monthly": "1m", "quarterly": "3m", "yearly": "1y", "annual": "1y",
             "biweekly": "2w", "fortnight": "2w", "bimonthly": "2m", "semiannual": "6m", "biannual": "2y"}.get(w, w)
        m = re.fullmatch(r"p(\d+)([dwmy])", w) or re.fullmatch(r"(\d+)(d|w|wk|wks|m|mo|mth|y|yr)", w)
        return (m.group(1), m.group(2)[0]) if m else w
    if k in ("tags", "depends"):
        return frozenset(x.strip() for x in (v.split(",") if isinstance(v, str) else v) if x.strip())
    if k == "annotations" and isinstance(v, list):
        return frozenset((tw_value("entry", a.get("entry")), a.get("description")) for a in v)
    if isinstance(v, str) and re.fullmatch(r"\d{8}T\d{6}Z?", v):  # no Z: local time = UTC here
        return datetime.datetime.strptime(v[:15], "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    if k in TW_DATES and isinstance(v, (int, float, str)) and re.fullmatch(r"\d+(\.\d*)?", str(v)):
        return datetime.datetime.fromtimestamp(float(v), UTC)
    if isinstance(v, (int, float)) and not isinstance(v, bool): return float(v)
    if isinstance(v, str) and re.fullmatch(r"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*", v): return float(v)
    return v

def compare_tw(inp, exp):
    last, out = collections.OrderedDict(), []
    for t in parse_tw(inp):  # the last copy of a uuid counts
        last[t.get("uuid") or "description:" + str(t.get("description"))] = t
    try: got = parse_tw(exp)
    except ValueError as e: return [(DIFF, f"export is not JSON: {e}")]
    by_uuid = {t.get("uuid"): t for t in got}
    for key, a in last.items():
        b = by_uuid.get(a.get("uuid")) if a.get("uuid") else \
            next((t for t in got if t.get("description") == a.get("description")), None)
        name = short(str(a.get("uuid") or a.get("description")), 36)
        if b is None: out.append((DIFF, f"missing task {name}")); continue
        for k, v in a.items():
            if k in ("id", "urgency", "uuid"): continue
            if k not in b: out.append((DIFF, f"{name}: {k} lost")); continue
            va, vb = tw_value(k, v), tw_value(k, b[k])
            if k == "status" and {va, vb} == {"waiting", "pending"} and ("wait" in a or "wait" in b): continue
            if va != vb:
                out.append((DIFF, f"{name}: {k} {short(json.dumps(v), 30)} -> {short(json.dumps(b[k]), 30)}"))
    return out

# ------------------------------------------------------------------ main

def main(argv):
    compare = {"ical": compare_ical, "todotxt": compare_todotxt, "taskwarrior": compare_tw}
    if len(argv) != 4 or argv[1] not in compare:
        print(__doc__.strip().splitlines()[2], file=sys.stderr); return 2
    try:
        inp, exp = read(argv[2]), read(argv[3])
    except OSError as e:
        print(e, file=sys.stderr); return 2
    try:
        found = compare[argv[1]](inp, exp)
    except Exception as e:  # a file we cannot read at all is a difference, not a crash
        found = [(DIFF, f"cannot compare: {type(e).__name__}: {e}")]
    kinds = {k for k, _ in found}
    verdict = DIFF if DIFF in kinds else INST if INST in kinds else "same"
    texts = []
    for k, t in sorted(found, key=lambda x: x[0] != DIFF):  # reasons for "differs" first
        if t not in texts: texts.append(t)
    if len(texts) > 10: texts = texts[:9] + [f"... and {len(texts) - 9} more"]
    print(json.dumps({"verdict": verdict, "differences": texts}))
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv))
