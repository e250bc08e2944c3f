"""The window tests' reader of binary PPM screenshots (P6: width height, maxval, then RGB
bytes), imported by the Python parts of tests/window_looks.sh, tests/window_night.sh and
tests/window_boss.sh (run from the checkout's root, with tests/ on sys.path)."""


def read(path):
    """(width, height, RGB bytes) of the PPM at `path`."""
    data = open(path, "rb").read()
    fields, at = [], 0
    while len(fields) < 4:
        while data[at:at + 1].isspace():
            at += 1
        end = at
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[at:end])
        at = end
    return int(fields[1]), int(fields[2]), data[at + 1:]
