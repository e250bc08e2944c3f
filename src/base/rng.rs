//! Seeds and randomness.
//!
//! Every pass gets its own stream, derived from `(world seed, pass name)` with FNV-1a (a
//! fixed, documented hash; `DefaultHasher` may change between Rust versions), so adding or
//! changing one pass never moves the output of another. A pass draws keys from its
//! [`PassRng`] (a PCG generator from `rand_pcg`, whose stream is fixed by its spec) and
//! feeds them to counter-based hashes of position ([`hash3`]), which makes every tile's
//! randomness independent of the order tiles are visited in, and so of the thread count.

use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;

/// The random generator handed to each pass.
pub type PassRng = Pcg64Mcg;

/// FNV-1a, 64-bit.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// SplitMix64's finaliser: a bijective 64-bit mix with full avalanche.
#[inline(always)]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The random stream of one pass: seeded from the world seed and the pass's name only.
pub fn pass_rng(world_seed: u64, pass_name: &str) -> PassRng {
    PassRng::seed_from_u64(mix64(world_seed ^ fnv1a(pass_name.as_bytes())))
}

/// Counter-based randomness: a well-mixed 64-bit value for `(key, a, b)`.
#[inline(always)]
pub fn hash3(key: u64, a: u64, b: u64) -> u64 {
    mix64(
        key ^ mix64(a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)),
    )
}

/// A seed from what a player typed: a whole number in `0..=u64::MAX` is used as is,
/// anything else (words, negative numbers) is hashed, as Terraria does with seed words.
/// Surrounding white space is ignored; an empty text hashes like any other.
pub fn seed_from_text(text: &str) -> u64 {
    let text = text.trim();
    text.parse::<u64>()
        .unwrap_or_else(|_| fnv1a(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::Rng;

    #[test]
    fn fnv1a_matches_reference_vectors() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn pass_streams_differ_by_name_and_seed_and_repeat() {
        let a = pass_rng(1, "caves").next_u64();
        assert_eq!(a, pass_rng(1, "caves").next_u64());
        assert_ne!(a, pass_rng(1, "ores").next_u64());
        assert_ne!(a, pass_rng(2, "caves").next_u64());
    }

    #[test]
    fn seeds_from_text() {
        assert_eq!(seed_from_text("42"), 42);
        assert_eq!(seed_from_text(" 18446744073709551615 "), u64::MAX);
        assert_ne!(seed_from_text("18446744073709551616"), 0);
        assert_eq!(
            seed_from_text("for the worthy"),
            seed_from_text("for the worthy")
        );
        assert_ne!(
            seed_from_text("for the worthy"),
            seed_from_text("for the worth")
        );
        assert_ne!(seed_from_text("-1"), u64::MAX);
    }

    #[test]
    fn hash3_bits_are_balanced() {
        let ones: u32 = (0..4096u64).map(|i| hash3(7, i, i / 3).count_ones()).sum();
        let mean = ones as f64 / 4096.0;
        assert!((mean - 32.0).abs() < 0.5, "mean ones {mean}");
    }
}
