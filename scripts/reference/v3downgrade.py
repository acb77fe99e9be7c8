#!/usr/bin/python3
"""Reference for internal/v3write (writing nbformat 3): Python nbformat's
own upgrade, downgrade and validation of version 3 notebooks.

Usage: v3downgrade.py SRC OUT

For each file SRC/NAME (a notebook), writes OUT/NAME.json, a JSON object:
  "major":     the notebook's nbformat as read (no conversion);
  "valid":     whether it is valid against the schema of its own version
               (nbformat.validate on the notebook read with NO_CONVERT);
  "upgrade":   nbformat.writes of its upgrade to version 4
               (nbformat.read(as_version=4)), cell ids removed and
               nbformat_minor set to 4 (the upgrade's ids are random);
  "downgrade": nbformat.writes of the downgrade to version 3 of that
               upgrade (nbformat.convert(nb, 3)), as nbformat.write
               writes a version 3 notebook (what Python's v4-to-v3
               downgrade makes of a version 3 file's upgrade);
  "error":     the first exception's text, where one was raised.
A value that could not be made is null.

Run by internal/v3write's tests with Debian's /usr/bin/python3 and its
python3-nbformat; nothing else is needed."""
import copy, json, os, sys, logging
import nbformat

logging.disable(logging.CRITICAL)  # (invalid notebooks are logged, not raised)

def one(path):
    res = {"major": None, "valid": None, "upgrade": None, "downgrade": None, "error": None}
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        raw = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
        res["major"] = raw.get("nbformat")
        try:
            nbformat.validate(raw)
            res["valid"] = True
        except nbformat.ValidationError:
            res["valid"] = False
        nb = nbformat.reads(text, as_version=4)
        down = nbformat.convert(copy.deepcopy(nb), 3)
        res["downgrade"] = nbformat.writes(down) + "\n"
        for c in nb.cells:
            c.pop("id", None)
        nb.nbformat_minor = 4
        res["upgrade"] = nbformat.writes(nb, version=4) + "\n"
    except Exception as e:  # noqa: BLE001 (reported to the test)
        res["error"] = "%s: %s" % (type(e).__name__, e)
    return res

def main():
    src, out = sys.argv[1], sys.argv[2]
    for name in sorted(os.listdir(src)):
        with open(os.path.join(out, name + ".json"), "w", encoding="utf-8") as f:
            json.dump(one(os.path.join(src, name)), f)

if __name__ == "__main__":
    main()
