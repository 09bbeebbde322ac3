"""The LMSs' own importers, read faithfully in Python, for the tests of pywar grade --csv
(issue 45): each function follows the source cited beside it, step for step, and says
what the LMS would do with a file: which rows match which student, what each grade and
the points possible become, and what would fail the whole import.

- Canvas: instructure/canvas-lms lib/gradebook_importer.rb @ 00b222d7 (identify_delimiter
  l.698-725, csv_stream l.749-762, decimal_comma_to_period l.110-124, header? l.409-425,
  update_column_count l.432-458, strip_non_assignment_columns l.472-491,
  parse_assignments l.498-513 with Assignment.title_and_id, process_pp l.549-554,
  process_student l.556-590); Ruby's CSV reads an unquoted empty field as nil and a quoted
  one as "" (bugs.ruby-lang.org/issues/12839).
- Moodle: moodle/moodle @ 6374475d mod/assign/feedback/offline/importgradeslib.php (init
  l.96-149, next l.174-202), lib/csvlib.class.php (load_csv_content l.92-188: the BOM
  removed, CR and CRLF to LF, trimmed, fgetcsv with '\\' as its escape, every row the
  header's width), mod/assign/locallib.php process_import_grades (l.93-239) and
  moodlelib.php unformat_float (l.8980-8995).
"""

import datetime
import re

# -- Canvas --------------------------------------------------------------------------------

NOT_ASSIGNMENTS = ("Current Score", "Current Points", "Current Grade", "Final Score",
                   "Final Points", "Final Grade", "Override Score", "Override Grade",
                   "Override Status")
SKIP_LINE = re.compile(r"^[;, ]+$")
MUTED = re.compile(r"^\s*(Muted|Manual Posting.*)?\s*$", re.I)


class ImportFailed(Exception):
    """What makes Canvas's or Moodle's import fail as a whole."""


def ruby_csv_line(line, sep):
    """One line as Ruby's CSV parses it: None for an unquoted empty field, '' for a quoted
    one; MalformedCSVError (ImportFailed) for a quote inside an unquoted field."""
    fields, i, n = [], 0, len(line)
    while True:
        if i < n and line[i] == '"':
            value, i = [], i + 1
            while True:
                if i >= n:
                    raise ImportFailed("Gradebook import did not parse cleanly")
                if line[i] == '"':
                    if i + 1 < n and line[i + 1] == '"':
                        value.append('"')
                        i += 2
                        continue
                    i += 1
                    break
                value.append(line[i])
                i += 1
            fields.append("".join(value))
            if i < n and line[i] != sep:
                raise ImportFailed("Gradebook import did not parse cleanly")
        else:
            end = line.find(sep, i)
            end = n if end < 0 else end
            value = line[i:end]
            if '"' in value:
                raise ImportFailed("Gradebook import did not parse cleanly")
            fields.append(value if value else None)
            i = end
        if i >= n:
            return fields
        i += 1                                  # the separator
        if i == n:
            fields.append(None)
            return fields


def records(text):
    """The text's records: lines, a quoted field's line breaks kept inside it."""
    found, current, quoted = [], [], False
    for char in text:
        if char == '"':
            quoted = not quoted
        if char == "\n" and not quoted:
            found.append("".join(current).rstrip("\r"))
            current = []
            continue
        current.append(char)
    if current:
        found.append("".join(current).rstrip("\r"))
    return found


def identify_delimiter(lines):
    """identify_delimiter: the first 3 lines, parsed with ';' and with ','; a separator
    whose field count is the same on all three scores it; ';' wins only with more."""
    def score(sep):
        try:
            counts = {len(ruby_csv_line(line, sep)) for line in lines[:3]}
        except ImportFailed:
            return 0
        return counts.pop() if len(counts) == 1 else 0
    return ";" if score(";") > score(",") else ","


def decimal_comma_to_period(value):
    """decimal_comma_to_period: a number's last ',' or '.' is its decimal point."""
    if value is None or not re.fullmatch(r"-?[0-9.,]+%?", value):
        return value
    percent = value.endswith("%")
    body = value.rstrip("%")
    last = max(body.rfind(","), body.rfind("."))
    if last >= 0:
        body = body[:last].replace(",", "").replace(".", "") + "." + body[last + 1:]
    return body + ("%" if percent else "")


def student_columns(header):
    """header? and update_column_count: how many columns are the student's (Section last
    of them), or ImportFailed('Invalid header row')."""
    if not (len(header) > 3 and "Student" in (header[0] or "") and "ID" in (header[1] or "")):
        raise ImportFailed("Invalid header row")
    cells = [cell or "" for cell in header]
    if "Section" in cells[2]:
        return 3
    at = 2
    if "SIS User ID" in cells[at] and "SIS Login ID" in cells[at + 1]:
        at += 2
    elif "SIS Login ID" in cells[at]:
        at += 1
    for optional in ("Integration ID", "Root Account"):
        if at < len(cells) and optional in cells[at]:
            at += 1
    if at >= len(cells) or "Section" not in cells[at]:
        raise ImportFailed("Invalid header row")
    return at + 1


TITLE_AND_ID = re.compile(r"\A(.*)\s\((\d+)\)\Z", re.S)


def canvas_import(text, assignments, students):
    """What Canvas's import makes of a CSV: {"assignments": {column: the assignment's id,
    or 'new'}, "points_possible": {id: value, '' where a quoted empty cell is
    assigned}, "rows": [{"student": its id or None (a new student), "by": how matched,
    "grades": {id: grade}}]}.  assignments: {id: title} of the course; students: [{"id",
    "sis_user", "sis_login", "name", "sortable_name"}]."""
    lines = [line for line in records(text) if line]
    sep = identify_delimiter(lines)
    rows = [ruby_csv_line(line, sep) for line in lines if not SKIP_LINE.match(line)]
    header = rows[0]
    width = student_columns(header)
    columns = {}
    for index, name in enumerate(header[width:], width):
        if name is None or any(word in name for word in NOT_ASSIGNMENTS):
            continue
        titled = TITLE_AND_ID.match(name)
        if titled and int(titled[2]) in assignments:
            columns[index] = int(titled[2])
        else:
            same = [number for number, title in assignments.items() if title == name]
            columns[index] = same[0] if same else "new"
    found = {"assignments": {header[i]: columns[i] for i in columns}, "points_possible": {},
             "rows": []}
    cells = header + [None]
    for row in rows[1:]:
        if "Points Possible" in (row[0] or ""):
            for index, number in columns.items():
                if index < len(row) and row[index] is not None:      # "" is truthy in Ruby
                    found["points_possible"][number] = row[index]
            continue
        if all(MUTED.match(cell) for cell in row if cell is not None):
            continue
        found["rows"].append(match_student(row, cells, width, columns, students))
    return found


def match_student(row, header, width, columns, students):
    """process_student: by ID (to_i), SIS User ID, SIS Login ID, then name."""
    def cell(name):
        index = next((i for i in range(width) if name == (header[i] or "").strip()), None)
        return row[index] if index is not None and index < len(row) else None
    user = int(re.match(r"\s*-?\d*", cell("ID") or "")[0] or 0)      # Ruby's to_i
    for by, test in (("ID", lambda s: s["id"] == user),
                     ("SIS User ID", lambda s: cell("SIS User ID") and
                      s.get("sis_user") == cell("SIS User ID")),
                     ("SIS Login ID", lambda s: cell("SIS Login ID") and
                      s.get("sis_login") == cell("SIS Login ID")),
                     ("name", lambda s: row[0] in (s.get("name"), s.get("sortable_name")))):
        match = [s for s in students if test(s)]
        if match:
            return {"student": match[0]["id"], "by": by, "grades": grades(row, columns)}
    return {"student": None, "by": None, "grades": grades(row, columns)}


def grades(row, columns):
    """Each assignment's grade of a row, as Canvas reads it (stripped, numbers with '.')."""
    return {number: decimal_comma_to_period((row[index] or "").strip() or None)
            for index, number in columns.items() if index < len(row)}


# -- Moodle --------------------------------------------------------------------------------

def fgetcsv(text, delim=","):
    """PHP's fgetcsv over a whole text, enclosure '"' and escape '\\': a '\\' inside a
    quoted field keeps the character after it (both kept), so '\\"' does not end it."""
    rows, row, field, i, n = [], [], [], 0, len(text)
    quoted = started = False
    while i < n:
        char = text[i]
        if quoted:
            if char == "\\" and i + 1 < n:
                field += [char, text[i + 1]]
                i += 2
                continue
            if char == '"':
                if i + 1 < n and text[i + 1] == '"':
                    field.append('"')
                    i += 2
                    continue
                quoted = False
                i += 1
                continue
            field.append(char)
        elif char == '"' and not field and not started:
            quoted = started = True
        elif char == delim:
            row.append("".join(field))
            field, started = [], False
        elif char == "\n":
            row.append("".join(field))
            rows.append(row)
            row, field, started = [], [], False
        else:
            field.append(char)
        i += 1
    if field or row or started:
        row.append("".join(field))
        rows.append(row)
    return rows


def unformat_float(text):
    """unformat_float, not strict: trimmed, spaces removed, '.' the decimal separator
    (English), then PHP's (float): a number's leading part, 0.0 for none, None empty.
    (float, whether it was a number whole)."""
    text = text.strip().replace(" ", "")
    if text == "":
        return None, True
    found = re.match(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?", text)
    return (float(found[0]) if found else 0.0), bool(found and found[0] == text)


def strtotime(text):
    """The dates pywar writes, as PHP's strtotime reads them (ISO 8601): a time, or False
    for '-', '' or text it cannot read."""
    try:
        return datetime.datetime.fromisoformat(text.strip())
    except ValueError:
        return False


def moodle_import(text, participants, maximum):
    """What the assignment's "Upload grading worksheet" makes of a file: {"rows": [{"id",
    "matched", "grade", "numeric", "in_range", "modified", "feedback"}], "feedback_read":
    whether its column is read}; ImportFailed where the whole file is refused.
    participants: the assignment's participant ids; maximum: its maximum grade."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n").strip()
    rows = fgetcsv(text)
    header = rows[0]
    if any(len(row) != len(header) for row in rows):
        raise ImportFailed("csvweirdcolumns")
    if not all(name in header for name in ("Grade", "Identifier", "Last modified (grade)")):
        raise ImportFailed("invalidgradeimport")
    at = {name: header.index(name) for name in header}
    feedback = at.get("Feedback comments")
    found = {"rows": [], "feedback_read": bool(feedback)}
    for row in rows[1:]:
        number = row[at["Identifier"]][len("Participant "):]
        grade, numeric = unformat_float(row[at["Grade"]])
        found["rows"].append({
            "id": number, "matched": number in participants, "grade": grade,
            "numeric": numeric, "in_range": grade is None or grade <= maximum,
            "modified": strtotime(row[at["Last modified (grade)"]]),
            "feedback": row[feedback] if feedback else None})
    return found
