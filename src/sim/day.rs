//! Day and night: the time of day (0..1, 0 is midnight, 0.5 noon) moves on with play, and
//! sets how strong sunlight is ([`sun_level`]) and the sky's tint at night ([`night`]).
//! Daylight is the [`Rules::daylight`] share of the day centred on noon; sunlight fades
//! over [`TWILIGHT`] of the day at dawn and dusk, down to [`Rules::moonlight`].

use crate::content::rules::Rules;

/// Time of day a new world starts at: early morning (0 and 1 are midnight).
pub const MORNING: f32 = 0.3;

/// Share of the day over which dawn and dusk fade (a minute of a 24-minute day).
pub const TWILIGHT: f32 = 1.0 / 24.0;

/// The time of day `dt` seconds after `t`, wrapping round at midnight.
pub fn advance(t: f32, dt: f32, rules: &Rules) -> f32 {
    let dt = if dt.is_finite() { dt.max(0.0) } else { 0.0 };
    let next = (t + dt / rules.day_seconds()).rem_euclid(1.0);
    // rem_euclid may round up to exactly 1.0 for a tiny negative; keep it in 0..1.
    if next >= 1.0 { 0.0 } else { next }
}

/// How much of the night it is: 0 in full day, 1 in full night, between at dawn and dusk.
pub fn night(t: f32, rules: &Rules) -> f32 {
    let half = rules.daylight / 2.0;
    // Distance from noon, 0..0.5.
    let d = (t.rem_euclid(1.0) - 0.5).abs();
    ((d - half) / TWILIGHT + 0.5).clamp(0.0, 1.0)
}

/// Is it night (more night than day)?
pub fn is_night(t: f32, rules: &Rules) -> bool {
    night(t, rules) > 0.5
}

/// Sunlight's light level at time `t`: [`crate::sim::light::SUN`] by day, moonlight at night.
pub fn sun_level(t: f32, rules: &Rules) -> u8 {
    let sun = crate::sim::light::SUN as f32;
    let moon = rules.moonlight.min(crate::sim::light::SUN) as f32;
    (sun - (sun - moon) * night(t, rules)).round() as u8
}

/// The clock as players read it (`06:30`), 0 being midnight.
pub fn clock(t: f32) -> String {
    let minutes = (t.rem_euclid(1.0) * 24.0 * 60.0) as u32 % (24 * 60);
    format!("{:02}:{:02}", minutes / 60, minutes % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn noon_is_day_midnight_is_night_and_dawn_is_between() {
        let r = Rules::default();
        assert_eq!(night(0.5, &r), 0.0);
        assert_eq!(night(0.0, &r), 1.0);
        assert_eq!(sun_level(0.5, &r), crate::sim::light::SUN);
        assert_eq!(sun_level(0.0, &r), r.moonlight);
        let dawn = 0.5 - r.daylight / 2.0;
        assert!((night(dawn, &r) - 0.5).abs() < 1e-4);
        assert!(sun_level(dawn, &r) > r.moonlight && sun_level(dawn, &r) < 15);
        // Mornings brighten, evenings darken.
        for i in 0..40 {
            let t = 0.1 + i as f32 * 0.01;
            assert!(night(t + 0.005, &r) <= night(t, &r));
            assert!(night(1.0 - t - 0.005, &r) <= night(1.0 - t, &r));
        }
        assert!(!is_night(MORNING, &r), "a new world starts by day");
    }

    #[test]
    fn a_day_lasts_the_configured_minutes() {
        let r = Rules {
            day_minutes: 2.0,
            ..Rules::default()
        };
        let mut t = 0.5;
        for _ in 0..120 {
            t = advance(t, 1.0, &r);
        }
        assert!((t - 0.5).abs() < 1e-3, "{t}");
        assert!(
            (advance(0.9, 30.0, &r) - 0.15).abs() < 1e-4,
            "wraps at midnight"
        );
        assert_eq!(advance(0.4, f32::NAN, &r), 0.4);
        assert_eq!(advance(0.4, -5.0, &r), 0.4);
        // Of the 24 default minutes, 15 are day.
        let r = Rules::default();
        let day = (0..1440)
            .filter(|&m| !is_night(m as f32 / 1440.0, &r))
            .count();
        assert!((899..=901).contains(&day), "{day} minutes of day");
        assert_eq!(clock(0.5), "12:00");
        assert_eq!(clock(0.3), "07:12");
    }
}
