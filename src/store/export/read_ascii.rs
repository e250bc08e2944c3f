//! Reading a world drawn as text in the `--ascii` legend (`strata gen --from-ascii`), as its
//! bytes arrive: the first fault stops the read, and is named by line:column and the
//! character, so a wrong file (`/dev/zero`, a picture, a ragged drawing) is refused after
//! the bytes that show it, not after the most a world may take.
//!
//! The text is one line a row, every row as long as the first; `\n` or `\r\n` ends a line
//! (the last may have none). A UTF-8 byte-order mark before it and blank lines after it
//! are passed over; a blank line inside it is a fault.

use crate::world::{Tile, World};

/// Where [`AsciiReader`] stopped, and why: `line:column: what` (1-based, in characters).
pub type Fault = String;

/// The UTF-8 byte-order mark some editors write first.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A world's text being read; see the module's header.
pub struct AsciiReader {
    /// Bytes of the text taken so far.
    pos: usize,
    /// The line being read (1-based).
    line: usize,
    /// Tiles on that line so far.
    column: usize,
    /// Tiles on line 1, once it has ended.
    width: Option<usize>,
    /// Rows ended so far.
    rows: usize,
    /// The first of the blank lines since the last row, if any.
    blank_from: Option<usize>,
    /// The tile of each ASCII character.
    legend: [Option<Tile>; 128],
    /// Widest and tallest world, in tiles.
    most: (usize, usize),
}

impl Default for AsciiReader {
    fn default() -> Self {
        AsciiReader::new()
    }
}

impl AsciiReader {
    pub fn new() -> AsciiReader {
        let mut legend = [None; 128];
        for t in Tile::ALL {
            legend[t.ascii() as usize] = Some(t);
        }
        let most =
            |path| crate::content::preset::field(path).map_or(usize::MAX, |f| f.max as usize);
        AsciiReader {
            pos: 0,
            line: 1,
            column: 0,
            width: None,
            rows: 0,
            blank_from: None,
            legend,
            most: (most("width"), most("height")),
        }
    }

    /// The text read so far: `bytes` is all of it from the start (earlier calls saw a
    /// shorter prefix of the same). A character cut at the end waits for the next call.
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), Fault> {
        self.scan(bytes, false)
    }

    /// The most bytes the text may have, as far as it has been read: a world as wide as
    /// its first line and as tall as the tallest, with `\r\n` line ends, a byte-order mark
    /// and as many blank lines after it.
    pub fn limit(&self) -> u64 {
        let width = self.width.unwrap_or(self.most.0) as u64;
        BOM.len() as u64 + (width + 4) * self.most.1 as u64
    }

    /// Bytes that hold the first line of the widest world, with a byte-order mark before
    /// it and `\r\n` after: what to read before [`AsciiReader::limit`] knows the width.
    pub fn head(&self) -> usize {
        BOM.len() + self.most.0 + 2
    }

    /// The whole text has been read (`bytes`, as for [`AsciiReader::feed`]): the world it
    /// draws, of the default preset and seed 0.
    pub fn finish(mut self, bytes: &[u8]) -> Result<World, Fault> {
        self.scan(bytes, true)?;
        if self.column > 0 {
            self.end_line()?;
        }
        let Some(width) = self.width.filter(|_| self.rows > 0) else {
            return Err("1:1: no rows to read: the file is empty".into());
        };
        crate::content::preset::check_size(width as u32, self.rows as u32)
            .map_err(|e| format!("1:1: the drawing is {width}x{} tiles: {e}", self.rows))?;
        // The text is checked: its first rows are lines of `width` legend characters.
        let mut world = World::new(
            width,
            self.rows,
            0,
            crate::content::preset::Preset::default(),
        );
        let text = bytes.strip_prefix(BOM).unwrap_or(bytes);
        for (row, line) in world.rows_mut().zip(text.split(|&b| b == b'\n')) {
            let line = line.strip_suffix(b"\r").unwrap_or(line);
            for (tile, &b) in row.iter_mut().zip(line) {
                *tile = self.legend[usize::from(b & 0x7f)].unwrap_or(Tile::Air);
            }
        }
        world.recompute_surface();
        Ok(world)
    }

    fn scan(&mut self, bytes: &[u8], at_end: bool) -> Result<(), Fault> {
        if self.pos == 0 {
            if bytes.starts_with(BOM) {
                self.pos = BOM.len();
            } else if !at_end && BOM.starts_with(bytes) {
                return Ok(());
            }
        }
        while let Some(&b) = bytes.get(self.pos) {
            if self.column == 0 && self.whole_row(bytes) {
                continue;
            }
            match b {
                b'\n' => {
                    self.end_line()?;
                    self.pos += 1;
                }
                b'\r' => match bytes.get(self.pos + 1) {
                    Some(b'\n') => {
                        self.end_line()?;
                        self.pos += 2;
                    }
                    None if !at_end => return Ok(()),
                    _ => return Err(self.not_a_tile('\r')),
                },
                _ => match self.legend.get(b as usize).copied().flatten() {
                    Some(_) => {
                        self.tile()?;
                        self.pos += 1;
                    }
                    None => {
                        let rest = &bytes[self.pos..bytes.len().min(self.pos + 4)];
                        let valid = match std::str::from_utf8(rest) {
                            Ok(s) => s,
                            Err(e) if e.valid_up_to() > 0 => {
                                std::str::from_utf8(&rest[..e.valid_up_to()]).unwrap_or("")
                            }
                            // A character cut by the end of what has arrived so far.
                            Err(e) if e.error_len().is_none() && !at_end => return Ok(()),
                            Err(_) => {
                                return Err(format!(
                                    "{}:{}: byte 0x{b:02X} is not UTF-8 text",
                                    self.line,
                                    self.column + 1
                                ));
                            }
                        };
                        let c = valid.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
                        return Err(self.not_a_tile(c));
                    }
                },
            }
        }
        Ok(())
    }

    /// Takes a whole row at `pos` when one is there, as most are: the width of line 1 in
    /// legend characters and its line end, after no blank line and within the tallest
    /// world. Anything else is read a character at a time, which names the fault.
    fn whole_row(&mut self, bytes: &[u8]) -> bool {
        let Some(w) = self.width else { return false };
        if self.blank_from.is_some() || self.rows == self.most.1 {
            return false;
        }
        let Some(row) = bytes.get(self.pos..self.pos + w) else {
            return false;
        };
        let end = match bytes.get(self.pos + w..self.pos + w + 2) {
            Some([b'\n', _]) => 1,
            Some(b"\r\n") => 2,
            _ => return false,
        };
        if !row
            .iter()
            .all(|&b| self.legend.get(usize::from(b)).is_some_and(Option::is_some))
        {
            return false;
        }
        self.pos += w + end;
        self.rows += 1;
        self.line += 1;
        true
    }

    fn not_a_tile(&self, c: char) -> Fault {
        format!(
            "{}:{}: {c:?} (U+{:04X}) is not a tile of the --ascii legend (`strata help gen` \
             lists them)",
            self.line,
            self.column + 1,
            c as u32
        )
    }

    /// A legend character on the line being read.
    fn tile(&mut self) -> Result<(), Fault> {
        let at = || format!("{}:{}", self.line, self.column + 1);
        if let Some(blank) = self.blank_from {
            return Err(format!(
                "{blank}:1: a blank line inside the drawing (blank lines may only follow it)"
            ));
        }
        if self.column == 0 && self.rows == self.most.1 {
            return Err(format!(
                "{}: more than {} rows: the tallest world has {}",
                at(),
                self.most.1,
                self.most.1
            ));
        }
        match self.width {
            Some(w) if self.column == w => {
                return Err(format!(
                    "{}: line {} is longer than line 1 ({w} tiles): rows must all be as \
                     long as the first",
                    at(),
                    self.line
                ));
            }
            None if self.column == self.most.0 => {
                return Err(format!(
                    "{}: line 1 is wider than {} tiles, the widest world",
                    at(),
                    self.most.0
                ));
            }
            _ => {}
        }
        self.column += 1;
        Ok(())
    }

    fn end_line(&mut self) -> Result<(), Fault> {
        let line = self.line;
        self.line += 1;
        let tiles = std::mem::take(&mut self.column);
        if tiles == 0 {
            if self.rows == 0 {
                return Err(format!(
                    "{line}:1: line {line} is blank: the drawing starts on the first line"
                ));
            }
            self.blank_from.get_or_insert(line);
            return Ok(());
        }
        match self.width {
            None => self.width = Some(tiles),
            Some(w) if tiles < w => {
                return Err(format!(
                    "{line}:{}: line {line} ends after {tiles} tiles, line 1 has {w}: rows must \
                     all be as long as the first",
                    tiles + 1
                ));
            }
            Some(_) => {}
        }
        self.rows += 1;
        Ok(())
    }
}

/// The world drawn in `text` (all of it at hand); see [`AsciiReader`].
pub fn world_from_ascii(text: &[u8]) -> Result<World, Fault> {
    let mut reader = AsciiReader::new();
    reader.feed(text)?;
    reader.finish(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn art() -> String {
        "#      ~\n".repeat(7) + "########\n"
    }

    #[test]
    fn a_drawing_reads_as_its_tiles() {
        let w = world_from_ascii(art().as_bytes()).unwrap();
        assert_eq!((w.width(), w.height()), (8, 8));
        assert_eq!(w.tile(7, 0), Tile::Water);
        assert_eq!(w.tile(3, 7), Tile::Stone);
        assert_eq!(w.surface[1], 7, "the surface is worked out");
        // A byte-order mark, \r\n line ends, no last line end and blank lines after it
        // read as the same world.
        let same = [
            format!("\u{feff}{}", art()),
            art().replace('\n', "\r\n"),
            art().trim_end().to_string(),
            art() + "\n\n\r\n",
        ];
        for text in same {
            let v = world_from_ascii(text.as_bytes()).unwrap();
            assert_eq!(v.tiles(), w.tiles(), "{text:?}");
        }
    }

    /// [`art`] with its line `n` (1-based) replaced by `line`.
    fn with_line(n: usize, line: &[u8]) -> Vec<u8> {
        let mut lines: Vec<Vec<u8>> = art().lines().map(|l| l.as_bytes().to_vec()).collect();
        lines[n - 1] = line.to_vec();
        lines.join(&b'\n')
    }

    #[test]
    fn faults_name_the_line_the_column_and_the_character() {
        let cases: [(Vec<u8>, &str); 13] = [
            (
                with_line(3, b"#  ~"),
                "3:5: line 3 ends after 4 tiles, line 1 has 8: rows must all be as long",
            ),
            (
                with_line(2, b"#~~~~~~~~      ~"),
                "2:9: line 2 is longer than line 1 (8 tiles)",
            ),
            (
                with_line(3, b"#      ?"),
                "3:8: '?' (U+003F) is not a tile of the --ascii legend (`strata help gen`",
            ),
            (with_line(2, "#      é".as_bytes()), "2:8: 'é' (U+00E9)"),
            (with_line(1, b"#      \0"), "1:8: '\\0' (U+0000)"),
            (
                with_line(2, "#      ~\u{feff}".as_bytes()),
                "2:9: '\\u{feff}' (U+FEFF)",
            ),
            (with_line(4, b"#      ~\r\r"), "4:9: '\\r' (U+000D)"),
            (with_line(8, b"#######\xFF"), "8:8: byte 0xFF is not UTF-8"),
            (with_line(4, b""), "4:1: a blank line inside the drawing"),
            ([b"\n", art().as_bytes()].concat(), "1:1: line 1 is blank"),
            (Vec::new(), "1:1: no rows to read"),
            ("\u{feff}\n\n".into(), "1:1: line 1 is blank"),
            ("###\n###\n".into(), "1:1: the drawing is 3x2 tiles: width"),
        ];
        for (text, want) in cases {
            let e = world_from_ascii(&text).unwrap_err();
            assert!(
                e.contains(want),
                "{:?}: {e}",
                String::from_utf8_lossy(&text)
            );
        }
    }

    #[test]
    fn a_read_stops_at_the_first_fault_and_within_the_largest_world() {
        let (most_w, most_h) = AsciiReader::new().most;
        // Zeros, as from /dev/zero: the first byte is the fault.
        let mut r = AsciiReader::new();
        assert!(r.feed(&[0; 4096]).unwrap_err().starts_with("1:1: '\\0'"));
        // A line wider than the widest world stops one character past it.
        let wide = vec![b'#'; most_w + 1];
        let mut r = AsciiReader::new();
        assert!(r.feed(&wide[..most_w]).is_ok());
        let e = r.feed(&wide).unwrap_err();
        assert!(e.starts_with(&format!("1:{}: line 1 is wider than {most_w}", most_w + 1)));
        // More rows than the tallest world: the first tile past them.
        let tall = "########\n".repeat(most_h) + "#";
        let e = world_from_ascii(tall.as_bytes()).unwrap_err();
        assert!(
            e.starts_with(&format!("{}:1: more than {most_h} rows", most_h + 1)),
            "{e}"
        );
        // The limit follows the first line: a world as wide as it at most.
        let mut r = AsciiReader::new();
        let before = r.limit();
        r.feed(b"########\n").unwrap();
        assert!(r.limit() < before && r.limit() >= (9 * most_h) as u64);
    }

    #[test]
    fn bytes_may_arrive_in_any_pieces() {
        let text = format!("\u{feff}{}", art().replace('\n', "\r\n"));
        let whole = world_from_ascii(text.as_bytes()).unwrap();
        for cut in 1..text.len() {
            let mut r = AsciiReader::new();
            r.feed(&text.as_bytes()[..cut]).unwrap();
            r.feed(text.as_bytes()).unwrap();
            assert_eq!(r.finish(text.as_bytes()).unwrap().tiles(), whole.tiles());
        }
        // A character cut in two is read whole, and named whole.
        let bad = art().replacen('~', "é", 1);
        let at = bad.find('é').unwrap() + 1;
        let mut r = AsciiReader::new();
        r.feed(&bad.as_bytes()[..at]).unwrap();
        assert!(r.feed(bad.as_bytes()).unwrap_err().contains("'é'"));
    }
}
