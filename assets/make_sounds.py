#!/usr/bin/env python3
"""Synthesises Strata's sound effects and music: small mono 16-bit WAV files at 22050 Hz,
effects under assets/sounds/ (NAME_N.wav, a few variants of each) and looping music under
assets/music/ (NAME.wav, each loop's end runs into its start). Only the standard library is
used and every random choice comes from a seeded generator, so the same script writes the
same bytes.

    python3 assets/make_sounds.py        # rewrites assets/sounds/ and assets/music/

The effects are built from a few pieces: filtered noise bursts (digs, splashes, whooshes),
pitched tones with pitch glides and envelopes (jumps, pickups, hurts), inharmonic partials
(stone, anvils), short grains (crumbles, leaves, bubbles). The music is a small sequencer:
chords on a pad, a bass, a melody from a scale, soft drums, all written into a ring the
length of the loop so tails wrap around and the loop has no seam.
"""
import math
import os
import struct
import wave

RATE = 22050
HERE = os.path.dirname(os.path.abspath(__file__))
TAU = 2.0 * math.pi


class Rng:
    """xorshift64*: the same numbers on every machine and Python."""

    def __init__(self, seed):
        self.s = (seed * 0x9E3779B97F4A7C15 + 1) & 0xFFFFFFFFFFFFFFFF

    def next(self):
        s = self.s
        s ^= s >> 12
        s ^= (s << 25) & 0xFFFFFFFFFFFFFFFF
        s ^= s >> 27
        self.s = s
        return ((s * 0x2545F4914F6CDD1D) & 0xFFFFFFFFFFFFFFFF) >> 11

    def uniform(self, a=0.0, b=1.0):
        return a + (b - a) * (self.next() / float(1 << 53))

    def noise(self):
        return self.uniform(-1.0, 1.0)

    def choice(self, xs):
        return xs[self.next() % len(xs)]


def seconds(n):
    return int(n * RATE)


def buf(length):
    return [0.0] * seconds(length)


# ---- building blocks -------------------------------------------------------------------


def env_exp(i, decay):
    """Exponential decay, `decay` seconds to 1/e."""
    return math.exp(-i / (decay * RATE))


def env_ar(i, n, attack, release):
    """Attack, then hold, then release over the last `release` seconds of n samples."""
    a, r = seconds(attack), seconds(release)
    if i < a:
        return i / max(a, 1)
    if i > n - r:
        return max(0.0, (n - i) / max(r, 1))
    return 1.0


class Biquad:
    """RBJ band-pass (constant peak gain) / low-pass / high-pass filter."""

    def __init__(self, kind, freq, q):
        self.kind, self.q = kind, q
        self.x1 = self.x2 = self.y1 = self.y2 = 0.0
        self.set(freq)

    def set(self, freq):
        w = TAU * min(freq, RATE * 0.45) / RATE
        alpha = math.sin(w) / (2.0 * self.q)
        c = math.cos(w)
        if self.kind == "bp":
            b0, b1, b2 = alpha, 0.0, -alpha
        elif self.kind == "lp":
            b0, b1, b2 = (1 - c) / 2, 1 - c, (1 - c) / 2
        else:
            b0, b1, b2 = (1 + c) / 2, -(1 + c), (1 + c) / 2
        a0, a1, a2 = 1 + alpha, -2 * c, 1 - alpha
        self.b = (b0 / a0, b1 / a0, b2 / a0)
        self.a = (a1 / a0, a2 / a0)

    def __call__(self, x):
        b0, b1, b2 = self.b
        a1, a2 = self.a
        y = b0 * x + b1 * self.x1 + b2 * self.x2 - a1 * self.y1 - a2 * self.y2
        self.x2, self.x1, self.y2, self.y1 = self.x1, x, self.y1, y
        return y


def add(out, at, samples, gain=1.0, wrap=False):
    n = len(out)
    for i, s in enumerate(samples):
        j = at + i
        if wrap:
            j %= n
        elif j >= n:
            break
        out[j] += s * gain


def noise_burst(rng, length, kind, freq, q, decay, attack=0.002, sweep=None):
    """Filtered noise with a fast attack and exponential decay; `sweep` moves the filter's
    frequency from freq to sweep over the burst."""
    n = seconds(length)
    f = Biquad(kind, freq, q)
    out = []
    for i in range(n):
        if sweep is not None and i % 32 == 0:
            f.set(freq + (sweep - freq) * i / n)
        e = min(1.0, i / max(seconds(attack), 1)) * env_exp(i, decay)
        out.append(f(rng.noise()) * e)
    return out


def tone(length, f0, f1=None, decay=None, wave_="sine", attack=0.003, vibrato=0.0, vib_hz=6.0):
    """A tone gliding (exponentially) from f0 to f1, with an attack and either an
    exponential decay or a linear release at the end."""
    n = seconds(length)
    f1 = f0 if f1 is None else f1
    out = []
    ph = 0.0
    for i in range(n):
        t = i / n
        f = f0 * (f1 / f0) ** t
        if vibrato:
            f *= 1.0 + vibrato * math.sin(TAU * vib_hz * i / RATE)
        ph += f / RATE
        p = ph % 1.0
        if wave_ == "sine":
            s = math.sin(TAU * p)
        elif wave_ == "tri":
            s = 4.0 * abs(p - 0.5) - 1.0
        elif wave_ == "square":
            # A softened square: the sine's sign with its edges rounded.
            s = math.tanh(4.0 * math.sin(TAU * p))
        else:  # saw, gently rounded
            s = 2.0 * p - 1.0
        a = min(1.0, i / max(seconds(attack), 1))
        e = env_exp(i, decay) if decay else env_ar(i, n, attack, min(0.05, length / 3))
        out.append(s * a * e)
    return out


def partials(length, f0, ratios, decay, gains=None):
    """Inharmonic partials, each decaying faster the higher it is (stone, metal)."""
    n = seconds(length)
    gains = gains or [1.0 / (k + 1) for k in range(len(ratios))]
    out = [0.0] * n
    for r, g in zip(ratios, gains):
        f = f0 * r
        d = decay / (0.6 + 0.4 * r)
        for i in range(n):
            out[i] += g * math.sin(TAU * f * i / RATE) * env_exp(i, d)
    return out


def grains(rng, length, count, make):
    """`count` short sounds made by make(rng) scattered over `length` seconds."""
    out = buf(length)
    for k in range(count):
        at = int(rng.uniform(0, 0.8) * len(out)) if k else 0
        add(out, at, make(rng), rng.uniform(0.4, 1.0))
    return out


def lowpass(samples, freq, q=0.7):
    f = Biquad("lp", freq, q)
    return [f(s) for s in samples]


def highpass(samples, freq, q=0.7):
    f = Biquad("hp", freq, q)
    return [f(s) for s in samples]


def mix(*parts):
    n = max(len(p) for p, _ in parts)
    out = [0.0] * n
    for p, g in parts:
        add(out, 0, p, g)
    return out


def normalise(samples, peak):
    m = max((abs(s) for s in samples), default=0.0)
    if m == 0.0:
        return samples
    return [s * peak / m for s in samples]


def fade_out(samples, length=0.01):
    n = seconds(length)
    out = list(samples)
    for i in range(min(n, len(out))):
        out[-1 - i] *= i / n
    return out


def write(path, samples, peak=None):
    if peak is not None:
        samples = normalise(samples, peak)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    data = bytearray()
    for s in samples:
        v = int(round(max(-1.0, min(1.0, s)) * 32767))
        data += struct.pack("<h", v)
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(bytes(data))


# ---- effects ---------------------------------------------------------------------------


def dig_soft(rng):
    # Dirt and sand: a dull, low scrape and thud.
    thud = tone(0.12, rng.uniform(110, 140), 60, decay=0.035)
    scrape = noise_burst(rng, 0.16, "lp", rng.uniform(600, 900), 0.8, 0.04)
    return mix((thud, 0.7), (scrape, 1.0))


def dig_hard(rng):
    # Stone and ore: a pick's click and a ringing stone.
    click = noise_burst(rng, 0.05, "hp", 2500, 0.7, 0.006)
    ring = partials(0.22, rng.uniform(900, 1300), [1.0, 2.32, 3.9, 5.4], 0.06)
    grit = noise_burst(rng, 0.14, "bp", rng.uniform(1500, 2200), 1.2, 0.03)
    return mix((click, 0.8), (ring, 0.35), (grit, 0.6))


def dig_wood(rng):
    # Wood: a hollow knock.
    knock = noise_burst(rng, 0.16, "bp", rng.uniform(380, 520), 6.0, 0.045)
    body = tone(0.14, rng.uniform(190, 240), 170, decay=0.04, wave_="tri")
    return mix((knock, 1.0), (body, 0.5))


def dig_leaves(rng):
    # Leaves: a rustle of short high grains.
    def leaf(r):
        return noise_burst(r, 0.05, "bp", r.uniform(3000, 6000), 1.5, 0.012)

    return grains(rng, 0.22, 9, leaf)


def tile_break(rng, base):
    # A tile giving way: the dig sound of its material over a crumble.
    def crumb(r):
        return noise_burst(r, 0.06, "bp", r.uniform(base * 0.6, base * 1.4), 2.0, 0.015)

    crumble = grains(rng, 0.3, 7, crumb)
    thump = tone(0.18, rng.uniform(120, 150), 55, decay=0.05)
    return mix((crumble, 1.0), (thump, 0.8))


def place(rng):
    thunk = tone(0.1, rng.uniform(160, 200), 90, decay=0.03)
    tap = noise_burst(rng, 0.05, "bp", rng.uniform(900, 1200), 2.0, 0.01)
    return mix((thunk, 1.0), (tap, 0.6))


def jump(rng):
    f = rng.uniform(230, 270)
    up = tone(0.16, f, f * 2.0, wave_="square", attack=0.004)
    puff = noise_burst(rng, 0.08, "lp", 1200, 0.7, 0.02)
    return mix((lowpass(up, 1800), 0.45), (puff, 0.5))


def land(rng, hard):
    f = rng.uniform(70, 90) if hard else rng.uniform(110, 130)
    thud = tone(0.25 if hard else 0.12, f * 1.6, f, decay=0.07 if hard else 0.03)
    dust = noise_burst(rng, 0.2, "lp", 900 if hard else 1500, 0.7, 0.05 if hard else 0.02)
    return mix((thud, 1.0), (dust, 0.7 if hard else 0.4))


def swing(rng):
    a = rng.uniform(500, 700)
    return noise_burst(rng, 0.22, "bp", a, 2.5, 0.09, attack=0.06, sweep=a * 4.5)


def hit(rng, kind):
    # A squelch: a low wobbling tone under a wet noise smack; lava slimes sizzle.
    base = {"slime": 160, "cave_slime": 120, "lava_slime": 95}[kind]
    f = base * rng.uniform(0.9, 1.1)
    body = tone(0.16, f * 1.5, f * 0.7, decay=0.06, vibrato=0.12, vib_hz=28)
    smack = noise_burst(rng, 0.1, "bp", rng.uniform(700, 1000), 1.5, 0.025)
    parts = [(body, 1.0), (smack, 0.7)]
    if kind == "lava_slime":
        parts.append((noise_burst(rng, 0.25, "hp", 4000, 0.7, 0.08), 0.25))
    if kind == "cave_slime":
        parts.append((partials(0.2, f * 4, [1.0, 2.7], 0.05), 0.15))
    return mix(*parts)


def kill(rng, kind):
    # A pop, then the slime's falling cry.
    base = {"slime": 420, "cave_slime": 330, "lava_slime": 260}[kind]
    f = base * rng.uniform(0.92, 1.08)
    pop = tone(0.06, f * 2, f, decay=0.015)
    fall = tone(0.35, f, f / 3, wave_="tri", vibrato=0.05, vib_hz=10)
    splat = noise_burst(rng, 0.2, "lp", 1400, 1.0, 0.05)
    parts = [(pop, 0.8), (fall, 0.5), (splat, 0.6)]
    if kind == "lava_slime":
        parts.append((noise_burst(rng, 0.4, "hp", 3500, 0.7, 0.15), 0.3))
    return mix(*parts)


def hit_eye(rng):
    # A wet slap on a taut ball: a short high thump and a squelch.
    f = rng.uniform(210, 250)
    body = tone(0.12, f * 1.8, f, decay=0.04, vibrato=0.08, vib_hz=34)
    smack = noise_burst(rng, 0.08, "bp", rng.uniform(1200, 1600), 1.8, 0.02)
    return mix((body, 0.8), (smack, 0.8))


def kill_eye(rng):
    # A burst: a pop and a wet spray falling away.
    f = rng.uniform(380, 440)
    pop = tone(0.08, f * 2.5, f, decay=0.02)
    spray = noise_burst(rng, 0.35, "bp", 2200, 0.9, 0.12, sweep=600)
    return mix((pop, 0.8), (spray, 0.6))


def roar(rng):
    # The Eye's roar: a low growl rising then falling, a rough sawtooth with a tremble,
    # under a breathy noise; about two seconds.
    n = seconds(2.0)
    f0 = rng.uniform(70, 80)
    out = [0.0] * n
    ph = 0.0
    for i in range(n):
        t = i / RATE
        f = f0 * (1.0 + 0.6 * math.sin(math.pi * t / 2.0)) * (1.0 + 0.05 * math.sin(TAU * 9 * t))
        ph += f / RATE
        p = ph % 1.0
        out[i] = (2.0 * p - 1.0) * env_ar(i, n, 0.15, 0.8)
    growl = lowpass(out, 900)
    breath = noise_burst(rng, 2.0, "bp", 500, 0.6, 0.9, attack=0.2, sweep=300)
    return mix((growl, 1.0), (breath, 0.5))


def hurt(rng):
    f = rng.uniform(330, 390)
    grunt = tone(0.2, f, f * 0.6, wave_="square", vibrato=0.04, vib_hz=30)
    smack = noise_burst(rng, 0.06, "bp", 1500, 1.2, 0.012)
    return mix((lowpass(grunt, 2200), 0.6), (smack, 0.6))


def death(rng):
    out = buf(1.3)
    f = rng.uniform(0.97, 1.03)
    for k, (note, at) in enumerate([(392.0, 0.0), (349.2, 0.25), (311.1, 0.5), (233.1, 0.75)]):
        n = tone(0.5, note * f, note * f * (0.9 if k == 3 else 1.0), wave_="tri", decay=0.25)
        add(out, seconds(at), lowpass(n, 2000))
    return out


def bubbles(rng):
    def bubble(r):
        f = r.uniform(500, 1100)
        return tone(0.06, f, f * 1.8, decay=0.02)

    return grains(rng, 0.45, 6, bubble)


def splash(rng, lava):
    if lava:
        body = noise_burst(rng, 0.5, "lp", 600, 1.2, 0.15, attack=0.01)
        sizzle = noise_burst(rng, 0.6, "hp", 3500, 0.7, 0.2, attack=0.02)
        glug = tone(0.3, rng.uniform(70, 90), 50, decay=0.12)
        return mix((body, 1.0), (sizzle, 0.4), (glug, 0.6))
    body = noise_burst(rng, 0.45, "bp", rng.uniform(900, 1300), 0.9, 0.1, attack=0.005,
                       sweep=400)
    return mix((body, 1.0), (bubbles(rng), 0.35))


def hiss(rng):
    n = seconds(0.9)
    f = Biquad("hp", 2500, 0.7)
    out = []
    for i in range(n):
        e = env_ar(i, n, 0.03, 0.6) * (0.7 + 0.3 * math.sin(TAU * 7 * i / RATE))
        out.append(f(rng.noise()) * e)
    return mix((out, 1.0), (bubbles(rng), 0.2))


def craft(rng, station):
    if station == "workbench":
        out = buf(0.45)
        for at in (0.0, 0.18):
            add(out, seconds(at + rng.uniform(0, 0.02)), dig_wood(rng))
        return out
    if station == "furnace":
        roar = noise_burst(rng, 0.6, "lp", 500, 0.8, 0.25, attack=0.08)

        def crackle(r):
            return noise_burst(r, 0.02, "hp", 3000, 0.7, 0.004)

        return mix((roar, 1.0), (grains(rng, 0.6, 8, crackle), 0.5))
    if station == "anvil":
        out = buf(0.7)
        for at in (0.0, 0.22):
            clang = partials(0.45, rng.uniform(620, 680), [1.0, 2.76, 5.4, 8.9], 0.18,
                             [1.0, 0.6, 0.35, 0.2])
            add(out, seconds(at), clang)
            add(out, seconds(at), noise_burst(rng, 0.03, "hp", 3000, 0.7, 0.005), 0.6)
        return out
    # By hand: a cloth rustle and a soft tap.
    rustle = noise_burst(rng, 0.25, "bp", 2000, 0.8, 0.08, attack=0.03)
    return mix((rustle, 0.7), (place(rng), 0.5))


def creak(rng, length, f0, f1):
    # A hinge: a buzzy saw gliding in pitch, through a resonant band.
    n = seconds(length)
    f = Biquad("bp", 900, 4.0)
    out = []
    ph = 0.0
    for i in range(n):
        t = i / n
        fr = f0 * (f1 / f0) ** t * (1.0 + 0.03 * rng.noise())
        ph += fr / RATE
        s = 2.0 * (ph % 1.0) - 1.0
        out.append(f(s) * env_ar(i, n, 0.02, length * 0.4))
    return out


def chest(rng, opening):
    if opening:
        c = creak(rng, 0.35, rng.uniform(60, 80), rng.uniform(110, 140))
        out = mix((c, 0.8),)
        add(out, seconds(0.25), place(rng), 0.3)
        return out
    c = creak(rng, 0.15, rng.uniform(110, 130), 70)
    thunk = tone(0.2, rng.uniform(120, 140), 60, decay=0.05)
    out = buf(0.35)
    add(out, 0, c, 0.5)
    add(out, seconds(0.12), thunk, 1.0)
    add(out, seconds(0.12), noise_burst(rng, 0.05, "bp", 800, 2.0, 0.01), 0.6)
    return out


def door(rng, opening):
    if opening:
        return mix((creak(rng, 0.4, rng.uniform(90, 110), rng.uniform(160, 190)), 1.0),)
    out = buf(0.3)
    add(out, 0, creak(rng, 0.12, 150, 110), 0.5)
    add(out, seconds(0.1), tone(0.18, rng.uniform(100, 120), 55, decay=0.05))
    return out


def pickup(rng):
    f = rng.choice([784.0, 880.0, 987.8])
    out = buf(0.2)
    add(out, 0, tone(0.07, f, decay=0.03, wave_="tri"))
    add(out, seconds(0.06), tone(0.12, f * 1.5, decay=0.05, wave_="tri"))
    return out


def ui_click(rng):
    tick = noise_burst(rng, 0.03, "bp", rng.uniform(2500, 3500), 3.0, 0.004)
    pip = tone(0.03, rng.uniform(1400, 1600), decay=0.008)
    return mix((tick, 1.0), (pip, 0.4))


def ui_refuse(rng):
    f = rng.uniform(190, 210)
    out = buf(0.3)
    add(out, 0, lowpass(tone(0.1, f, wave_="square"), 1500))
    add(out, seconds(0.12), lowpass(tone(0.14, f * 0.84, wave_="square"), 1500))
    return out


EFFECTS = [
    ("dig_soft", dig_soft, 4, 0.7),
    ("dig_hard", dig_hard, 4, 0.7),
    ("dig_wood", dig_wood, 4, 0.7),
    ("dig_leaves", dig_leaves, 3, 0.5),
    ("break_soft", lambda r: tile_break(r, 700), 3, 0.8),
    ("break_hard", lambda r: tile_break(r, 1800), 3, 0.8),
    ("place", place, 3, 0.7),
    ("jump", jump, 3, 0.5),
    ("land_soft", lambda r: land(r, False), 3, 0.5),
    ("land_hard", lambda r: land(r, True), 3, 0.8),
    ("swing", swing, 3, 0.6),
    ("hit_slime", lambda r: hit(r, "slime"), 3, 0.7),
    ("hit_cave_slime", lambda r: hit(r, "cave_slime"), 3, 0.7),
    ("hit_lava_slime", lambda r: hit(r, "lava_slime"), 3, 0.7),
    ("kill_slime", lambda r: kill(r, "slime"), 3, 0.8),
    ("kill_cave_slime", lambda r: kill(r, "cave_slime"), 3, 0.8),
    ("kill_lava_slime", lambda r: kill(r, "lava_slime"), 3, 0.8),
    ("hurt", hurt, 3, 0.7),
    ("death", death, 2, 0.8),
    ("bubbles", bubbles, 3, 0.4),
    ("splash_water", lambda r: splash(r, False), 3, 0.7),
    ("splash_lava", lambda r: splash(r, True), 3, 0.7),
    ("hiss", hiss, 3, 0.5),
    ("craft_hand", lambda r: craft(r, "hand"), 2, 0.6),
    ("craft_workbench", lambda r: craft(r, "workbench"), 2, 0.7),
    ("craft_furnace", lambda r: craft(r, "furnace"), 2, 0.7),
    ("craft_anvil", lambda r: craft(r, "anvil"), 2, 0.7),
    ("chest_open", lambda r: chest(r, True), 2, 0.7),
    ("chest_close", lambda r: chest(r, False), 2, 0.7),
    ("door_open", lambda r: door(r, True), 2, 0.7),
    ("door_close", lambda r: door(r, False), 2, 0.7),
    ("pickup", pickup, 3, 0.5),
    ("ui_click", ui_click, 3, 0.4),
    ("ui_refuse", ui_refuse, 2, 0.5),
    ("hit_eye", hit_eye, 3, 0.7),
    ("kill_eye", kill_eye, 3, 0.8),
    ("roar", roar, 2, 0.9),
]


# ---- music -----------------------------------------------------------------------------


def midi(n):
    return 440.0 * 2.0 ** ((n - 69) / 12.0)


def voice(length, f, kind, gain):
    """One note of an instrument, as samples."""
    n = seconds(length)
    out = [0.0] * n
    if kind == "pad":
        # Three detuned triangles, slow attack and release, through a low-pass.
        ph = [0.0, 0.33, 0.66]
        det = [1.0, 1.004, 0.996]
        for i in range(n):
            s = 0.0
            for k in range(3):
                ph[k] += f * det[k] / RATE
                p = ph[k] % 1.0
                s += 4.0 * abs(p - 0.5) - 1.0
            out[i] = s / 3.0 * env_ar(i, n, length * 0.3, length * 0.4)
        out = lowpass(out, 1200)
    elif kind == "bass":
        ph = 0.0
        for i in range(n):
            ph += f / RATE
            p = ph % 1.0
            s = math.sin(TAU * p) + 0.3 * math.sin(2 * TAU * p)
            out[i] = s * env_ar(i, n, 0.01, 0.08) * (0.6 + 0.4 * env_exp(i, 0.25))
    elif kind == "lead":
        ph = 0.0
        for i in range(n):
            ph += f * (1.0 + 0.004 * math.sin(TAU * 5 * i / RATE)) / RATE
            p = ph % 1.0
            s = 0.7 * math.sin(TAU * p) + 0.3 * (4.0 * abs(p - 0.5) - 1.0)
            out[i] = s * env_ar(i, n, 0.015, length * 0.5) * (0.5 + 0.5 * env_exp(i, 0.3))
    elif kind == "pluck":
        ph = 0.0
        for i in range(n):
            ph += f / RATE
            p = ph % 1.0
            s = math.sin(TAU * p) + 0.25 * math.sin(3 * TAU * p)
            out[i] = s * env_exp(i, 0.18) * min(1.0, i / 40.0)
    elif kind == "bell":
        out = partials(length, f, [1.0, 2.0, 2.76, 4.07], length * 0.5, [1.0, 0.4, 0.3, 0.15])
    return [s * gain for s in out]


def kick(rng):
    return tone(0.25, 120, 45, decay=0.08)


def hat(rng):
    return noise_burst(rng, 0.05, "hp", 7000, 0.7, 0.012)


def snare(rng):
    return mix((noise_burst(rng, 0.15, "bp", 1800, 0.8, 0.05), 1.0),
               (tone(0.1, 200, 160, decay=0.03), 0.5))


def drone(rng, length, f, gain):
    n = seconds(length)
    out = [0.0] * n
    for i in range(n):
        t = i / RATE
        wob = 1.0 + 0.3 * math.sin(TAU * 0.25 * t)
        out[i] = gain * wob * (math.sin(TAU * f * t) + 0.4 * math.sin(TAU * f * 1.5 * t))
    return out


def echo(out, delay, feedback):
    """A feedback delay on the ring: what falls off the end comes back at the start."""
    d = seconds(delay)
    n = len(out)
    for _ in range(2):
        for i in range(n):
            out[i] += out[(i - d) % n] * feedback
    return out


def piece(rng, bpm, bars, chords, scale, melody_density, lead, bass_pattern, drums, extra=None):
    """A loop of `bars` 4/4 bars: one chord (root MIDI note, intervals) per bar on a pad
    and bass, a melody walking the scale, and drums given as per-beat flags."""
    beat = 60.0 / bpm
    length = bars * 4 * beat
    out = [0.0] * seconds(length)
    step = beat / 2.0  # eighth notes
    m = len(scale) // 2
    for b in range(bars):
        root, ivs = chords[b % len(chords)]
        t0 = b * 4 * beat
        for iv in ivs:
            add(out, seconds(t0), voice(4 * beat + 0.4, midi(root + iv), "pad", 0.12), wrap=True)
        for k, on in enumerate(bass_pattern):
            if on:
                add(out, seconds(t0 + k * step), voice(step * on, midi(root - 12), "bass", 0.3),
                    wrap=True)
        for k in range(8):
            if rng.uniform() < melody_density:
                m = max(0, min(len(scale) - 1, m + rng.choice([-2, -1, -1, 1, 1, 2, 0])))
                note = scale[m]
                hold = step * rng.choice([1, 1, 2, 3])
                add(out, seconds(t0 + k * step), voice(hold + 0.1, midi(note), lead, 0.18),
                    wrap=True)
        for k in range(8):
            for name, pattern, gain in drums:
                if pattern[k % len(pattern)]:
                    s = {"kick": kick, "hat": hat, "snare": snare}[name](rng)
                    add(out, seconds(t0 + k * step), s, gain, wrap=True)
    if extra:
        extra(out, length)
    return echo(out, beat * 0.75, 0.25)


def scale_of(root, steps, octaves=2):
    return [root + 12 * o + s for o in range(octaves) for s in steps]


MAJOR_PENTA = [0, 2, 4, 7, 9]
MINOR_PENTA = [0, 3, 5, 7, 10]
MAJ, MIN = [0, 4, 7], [0, 3, 7]


def music_day(rng):
    # Bright, walking pace: C major pentatonic over I - V - vi - IV.
    chords = [(60, MAJ), (55, MAJ), (57, MIN), (53, MAJ)]
    return piece(rng, 104, 8, chords, scale_of(72, MAJOR_PENTA), 0.55, "pluck",
                 [1, 0, 0, 1, 0, 0, 1, 0],
                 [("kick", [1, 0, 0, 0, 1, 0, 0, 0], 0.35), ("hat", [0, 1], 0.08)])


def music_night(rng):
    # Slow and soft: A minor, bells, no drums.
    chords = [(57, MIN), (53, MAJ), (48, MAJ), (55, MAJ)]
    return piece(rng, 72, 4, chords, scale_of(69, MINOR_PENTA), 0.3, "bell",
                 [2, 0, 0, 0, 0, 0, 0, 0], [])


def music_underground(rng):
    # Hollow and echoing: D dorian, sparse plucks over a drone.
    chords = [(50, MIN), (50, MIN), (48, MAJ), (52, MIN)]

    def add_drone(out, length):
        add(out, 0, drone(rng, length, midi(38), 0.06), wrap=True)

    return piece(rng, 84, 4, chords, scale_of(62, [0, 2, 3, 7, 9]), 0.35, "pluck",
                 [1, 0, 0, 0, 0, 0, 0, 0], [("hat", [0, 0, 1, 0], 0.05)], add_drone)


def music_underworld(rng):
    # Heavy: E phrygian, low bass, a pounding kick.
    chords = [(40, MIN), (41, MAJ), (40, MIN), (38, MAJ)]

    def add_drone(out, length):
        add(out, 0, drone(rng, length, midi(28), 0.08), wrap=True)

    return piece(rng, 92, 4, chords, scale_of(64, [0, 1, 3, 5, 7, 8]), 0.5, "lead",
                 [1, 0, 1, 0, 1, 0, 1, 1],
                 [("kick", [1, 0, 0, 1, 1, 0, 0, 0], 0.45), ("snare", [0, 0, 1, 0], 0.2)],
                 add_drone)


def music_danger(rng):
    # Fast and urgent: B minor, driving bass and drums.
    chords = [(47, MIN), (43, MAJ), (45, MAJ), (42, MIN)]
    return piece(rng, 140, 8, chords, scale_of(71, [0, 2, 3, 5, 7, 8, 10]), 0.75, "lead",
                 [1, 1, 1, 1, 1, 1, 1, 1],
                 [("kick", [1, 0, 1, 0], 0.45), ("snare", [0, 0, 1, 0], 0.25),
                  ("hat", [1], 0.06)])


def music_boss(rng):
    # The Eye: fast, low and menacing, C minor with a flat second, pounding drums.
    chords = [(48, MIN), (49, MAJ), (48, MIN), (46, MAJ)]

    def add_drone(out, length):
        add(out, 0, drone(rng, length, midi(36), 0.07), wrap=True)

    return piece(rng, 152, 8, chords, scale_of(72, [0, 1, 3, 5, 7, 8, 10]), 0.8, "lead",
                 [1, 1, 0, 1, 1, 1, 0, 1],
                 [("kick", [1, 0, 1, 1], 0.5), ("snare", [0, 0, 1, 0], 0.3),
                  ("hat", [1, 1], 0.07)],
                 add_drone)


MUSIC = [
    ("day", music_day),
    ("night", music_night),
    ("underground", music_underground),
    ("underworld", music_underworld),
    ("danger", music_danger),
    ("boss", music_boss),
]


def main():
    sounds = os.path.join(HERE, "sounds")
    music = os.path.join(HERE, "music")
    for folder in (sounds, music):
        os.makedirs(folder, exist_ok=True)
        for f in os.listdir(folder):
            if f.endswith(".wav"):
                os.remove(os.path.join(folder, f))
    for k, (name, make, variants, peak) in enumerate(EFFECTS):
        for v in range(variants):
            rng = Rng(1000 * k + v + 1)
            write(os.path.join(sounds, f"{name}_{v}.wav"), fade_out(make(rng)), peak)
    for k, (name, make) in enumerate(MUSIC):
        write(os.path.join(music, f"{name}.wav"), make(Rng(77 + k)), 0.8)


if __name__ == "__main__":
    main()
