#!/usr/bin/env python3
"""A stand-in X server for tests/window_display.sh: listens on a display's abstract socket
(where X clients look first), passes each connection through to a real X server, except
the ones numbered in REFUSE (1-based), which it closes at once, as a loaded X server that
drops the handshake does. Writes "N passed" or "N refused" for each to LOG. Runs until
killed.

    tests/x_proxy.py LISTEN_DISPLAY REAL_DISPLAY LOG REFUSE...   (displays as numbers)
"""
import socket, sys, threading

listen, real, log = sys.argv[1], sys.argv[2], sys.argv[3]
refuse = {int(n) for n in sys.argv[4:]}

def pipe(a, b):
    try:
        while True:
            data = a.recv(65536)
            if not data:
                break
            b.sendall(data)
    except OSError:
        pass
    for s in (a, b):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass

server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind("\0/tmp/.X11-unix/X" + listen)
server.listen(16)
with open(log, "a") as out:
    print("listening", file=out, flush=True)
    n = 0
    while True:
        client, _ = server.accept()
        n += 1
        if n in refuse:
            client.close()
            print(n, "refused", file=out, flush=True)
            continue
        upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        upstream.connect("\0/tmp/.X11-unix/X" + real)
        print(n, "passed", file=out, flush=True)
        for a, b in ((client, upstream), (upstream, client)):
            threading.Thread(target=pipe, args=(a, b), daemon=True).start()
