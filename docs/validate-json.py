#!/usr/bin/python3
"""Validates todo's --json / --jsonl output against docs/todo.schema.json.

Usage: /usr/bin/python3 docs/validate-json.py SCHEMA DEFNAME [--lines] < output
       /usr/bin/python3 docs/validate-json.py SCHEMA --outputs FOLDER

Reads standard input: one JSON document, or with --lines each non-empty line as
its own document (JSON Lines, as --jsonl prints), and validates each against
#/$defs/DEFNAME of SCHEMA (JSON Schema draft 2020-12). Exits 0 when all is
valid; else prints each error with its JSON path (and line number with --lines)
on standard error and exits 1. Exits 2 for a usage error, an unreadable schema
or an unknown DEFNAME.

With --outputs, every file FOLDER/NAME.DEFNAME.doc (one document) or
FOLDER/NAME.DEFNAME.lines (JSON Lines) is checked, in one run; an empty file is an
error too (a command that should print JSON printed nothing).

Needs the jsonschema module (Debian: python3-jsonschema, 4.10 or later).
"""

import json
import sys

try:
    import jsonschema
except ImportError:
    sys.stderr.write("validate-json: the jsonschema module is missing (apt-get install python3-jsonschema)\n")
    sys.exit(2)


def usage(message=None):
    if message:
        sys.stderr.write("validate-json: %s\n" % message)
    sys.stderr.write("usage: validate-json.py SCHEMA DEFNAME [--lines] < output\n"
                     "       validate-json.py SCHEMA --outputs FOLDER\n")
    sys.exit(2)


def json_path(path):
    """`$.tasks[0].due` for the path of an error."""
    text = "$"
    for part in path:
        if isinstance(part, int):
            text += "[%d]" % part
        elif part.isidentifier():
            text += "." + part
        else:
            text += "[%s]" % json.dumps(part)
    return text


def strict_object(pairs):
    """A JSON object, refusing a key given twice (json.loads would keep the last)."""
    value = {}
    for key, item in pairs:
        if key in value:
            raise ValueError("duplicate key %s" % json.dumps(key))
        value[key] = item
    return value


def no_constant(name):
    raise ValueError("%s is not JSON" % name)


def load_validators(schema_path):
    """A function from a definition's name to a validator of it (exits 2 for a bad schema)."""
    try:
        with open(schema_path, encoding="utf-8") as handle:
            schema = json.load(handle)
    except (OSError, ValueError) as error:
        usage("cannot read the schema %s: %s" % (schema_path, error))
    try:
        jsonschema.Draft202012Validator.check_schema(schema)
    except jsonschema.exceptions.SchemaError as error:
        usage("the schema %s is not valid: %s" % (schema_path, error.message))
    definitions = schema.get("$defs", {})

    def validator(name):
        if name not in definitions:
            usage("no definition '%s' in %s (known: %s)" % (name, schema_path, ", ".join(sorted(definitions))))
        # The named definition, with every definition beside it so that its $refs resolve.
        wrapper = {
            "$schema": schema.get("$schema", "https://json-schema.org/draft/2020-12/schema"),
            "$ref": "#/$defs/" + name,
            "$defs": definitions,
        }
        return jsonschema.Draft202012Validator(wrapper)

    return validator


def check(validator, text, lines, prefix=""):
    """The number of problems in `text` (written to standard error, each after `prefix`)."""
    if lines:
        documents = [(number, line) for number, line in enumerate(text.split("\n"), 1) if line.strip()]
    else:
        documents = [(None, text)]
    if not documents or not text.strip():
        sys.stderr.write("%sno output\n" % prefix)
        return 1
    failures = 0
    for number, document in documents:
        where = prefix + ("line %d: " % number if number is not None else "")
        try:
            value = json.loads(document, object_pairs_hook=strict_object, parse_constant=no_constant)
        except ValueError as error:
            sys.stderr.write("%snot JSON: %s\n" % (where, error))
            failures += 1
            continue
        errors = sorted(validator.iter_errors(value), key=lambda e: (list(e.absolute_path), e.message))
        for error in errors:
            sys.stderr.write("%s%s: %s\n" % (where, json_path(error.absolute_path), error.message))
            # anyOf/oneOf: say which branch failed how, briefly.
            for sub in sorted(error.context or [], key=lambda e: list(e.absolute_path)):
                sys.stderr.write("%s  %s: %s\n" % (where, json_path(sub.absolute_path), sub.message))
        failures += len(errors)
    return failures


def check_outputs(schema_path, folder):
    validator = load_validators(schema_path)
    import os
    validators = {}
    failures = 0
    names = sorted(os.listdir(folder))
    for name in names:
        parts = name.split(".")
        if len(parts) != 3 or parts[2] not in ("doc", "lines"):
            usage("%s is not NAME.DEFNAME.doc or NAME.DEFNAME.lines" % name)
        definition = parts[1]
        if definition not in validators:
            validators[definition] = validator(definition)
        with open(os.path.join(folder, name), encoding="utf-8") as handle:
            text = handle.read()
        failures += check(validators[definition], text, parts[2] == "lines", prefix="%s: " % name)
    sys.stdout.write("%d outputs checked, %d problems\n" % (len(names), failures))
    return 1 if failures else 0


def main(argv):
    if len(argv) == 3 and argv[1] == "--outputs":
        return check_outputs(argv[0], argv[2])
    arguments = [a for a in argv if a != "--lines"]
    lines = len(arguments) != len(argv)
    if any(a.startswith("--") for a in arguments):
        usage("unknown option %s" % next(a for a in arguments if a.startswith("--")))
    if len(arguments) != 2:
        usage()
    schema_path, name = arguments
    validator = load_validators(schema_path)(name)
    text = sys.stdin.buffer.read().decode("utf-8", errors="strict")
    return 1 if check(validator, text, lines) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
