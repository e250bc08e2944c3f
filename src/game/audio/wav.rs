//! Reads the sound files Strata makes (`assets/make_sounds.py`): RIFF WAVE, PCM, 16-bit,
//! mono, [`super::mixer::RATE`] frames a second. Anything else is an error that says what
//! was found, never a panic.

use super::mixer::RATE;

fn u16_at(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}

fn u32_at(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}

/// The samples of a 16-bit mono WAV file at [`RATE`].
pub fn parse(b: &[u8]) -> Result<Vec<i16>, String> {
    if b.len() < 12 || &b[..4] != b"RIFF" || &b[8..12] != b"WAVE" {
        return Err("not a RIFF WAVE file".into());
    }
    let mut at = 12;
    let mut format = None;
    while at + 8 <= b.len() {
        let id = &b[at..at + 4];
        let len = u32_at(b, at + 4).ok_or("cut short")? as usize;
        let body = at + 8;
        let end = body.checked_add(len).filter(|&e| e <= b.len());
        let Some(end) = end else {
            return Err(format!("chunk {:?} at byte {at} runs past the end", id));
        };
        match id {
            b"fmt " => {
                let f = (
                    u16_at(b, body).ok_or("fmt cut short")?,
                    u16_at(b, body + 2).ok_or("fmt cut short")?,
                    u32_at(b, body + 4).ok_or("fmt cut short")?,
                    u16_at(b, body + 14).ok_or("fmt cut short")?,
                );
                if f != (1, 1, RATE, 16) {
                    return Err(format!(
                        "format {} channels {} rate {} bits {}: want PCM (1), mono, {RATE}, 16",
                        f.0, f.1, f.2, f.3
                    ));
                }
                format = Some(f);
            }
            b"data" => {
                if format.is_none() {
                    return Err("data before fmt".into());
                }
                return Ok(b[body..end]
                    .chunks_exact(2)
                    .map(|s| i16::from_le_bytes([s[0], s[1]]))
                    .collect());
            }
            _ => {}
        }
        at = end + (len & 1);
    }
    Err("no data chunk".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wav(channels: u16, rate: u32, samples: &[i16]) -> Vec<u8> {
        let mut b = Vec::new();
        let data = samples.len() as u32 * 2;
        b.extend_from_slice(b"RIFF");
        b.extend_from_slice(&(36 + data).to_le_bytes());
        b.extend_from_slice(b"WAVEfmt ");
        b.extend_from_slice(&16u32.to_le_bytes());
        b.extend_from_slice(&1u16.to_le_bytes());
        b.extend_from_slice(&channels.to_le_bytes());
        b.extend_from_slice(&rate.to_le_bytes());
        b.extend_from_slice(&(rate * 2 * channels as u32).to_le_bytes());
        b.extend_from_slice(&(2 * channels).to_le_bytes());
        b.extend_from_slice(&16u16.to_le_bytes());
        b.extend_from_slice(b"data");
        b.extend_from_slice(&data.to_le_bytes());
        for s in samples {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b
    }

    #[test]
    fn reads_what_the_script_writes_and_names_what_it_cannot() {
        assert_eq!(parse(&wav(1, RATE, &[1, -2, 300])), Ok(vec![1, -2, 300]));
        let e = parse(&wav(2, 44100, &[0, 0])).unwrap_err();
        assert!(e.contains("channels 2 rate 44100"), "{e}");
        assert!(parse(b"OggS....").unwrap_err().contains("RIFF"));
        let mut cut = wav(1, RATE, &[1, 2, 3, 4]);
        cut.truncate(cut.len() - 3);
        assert!(parse(&cut).unwrap_err().contains("past the end"));
        // Every built-in file reads.
        for c in super::super::cue::Cue::ALL {
            for f in c.files() {
                assert!(parse(f).is_ok_and(|s| s.len() > 100), "{}", c.stem());
            }
        }
    }
}
