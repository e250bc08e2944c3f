//! RON's syntax and type errors in a preset's words: the field they are in, and for a
//! value of the wrong kind what the field takes (`surface.octaves: expected a whole number,
//! found 1e3` rather than "Invalid digit 'e'").

use super::Preset;
use super::locate::{field_at, offset_of, value_text};
use ron::Value;

/// The default preset as RON values: what kind of value each field takes.
fn defaults() -> Option<Value> {
    let text = ron::to_string(&Preset::default()).ok()?;
    ron::from_str(&text).ok()
}

/// The default value at a dotted path (list entries beyond the default's take its first).
fn value_at<'a>(mut v: &'a Value, path: &str) -> Option<&'a Value> {
    for segment in path.split('.') {
        let mut parts = segment.split('[');
        let name = parts.next()?;
        let Value::Map(map) = v else { return None };
        v = map.get(&Value::String(name.to_string()))?;
        for index in parts {
            let i: usize = index.trim_end_matches(']').parse().ok()?;
            let Value::Seq(items) = v else { return None };
            v = items.get(i).or_else(|| items.first())?;
        }
    }
    Some(v)
}

/// What a field of this default takes, and whether `written` is of that kind.
fn kind(default: &Value, written: &str) -> (&'static str, bool) {
    let w = written.trim();
    match default {
        Value::Number(n) if is_float(n) => (
            "a number such as 0.5",
            w.parse::<f64>().is_ok() || ["inf", "-inf", "NaN"].contains(&w),
        ),
        Value::Number(_) => ("a whole number such as 12", w.parse::<u64>().is_ok()),
        Value::String(_) => (
            "text in double quotes",
            w.starts_with('"') || w.starts_with("r\"") || w.starts_with("r#"),
        ),
        Value::Map(_) => ("a section in parentheses, ( ... )", w.starts_with('(')),
        Value::Seq(_) => ("a list in brackets, [ ... ]", w.starts_with('[')),
        Value::Bool(_) => ("true or false", w == "true" || w == "false"),
        Value::Unit => (
            "one of its named choices",
            w.chars().next().is_some_and(char::is_alphabetic),
        ),
        _ => ("", true),
    }
}

fn is_float(n: &ron::value::Number) -> bool {
    matches!(n, ron::value::Number::F32(_) | ron::value::Number::F64(_))
}

/// The message for RON error `message` at 1-based `line`, `col` of `text`.
pub(super) fn explain(text: &str, line: usize, col: usize, message: &str) -> String {
    let at = offset_of(text, line, col);
    // An error at a field's name (an unknown field) is about that field, not the one
    // before it: walk past the name and its colon.
    let key_len = text[at..]
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len() - at);
    let after_key = text[at + key_len..].trim_start();
    let at = if key_len > 0 && after_key.starts_with(':') {
        text.len() - after_key.len() + 1
    } else {
        at
    };
    let field = field_at(text, at);
    if field.is_empty() {
        return message.to_string();
    }
    let written = value_text(text, at, &field);
    let expected = defaults()
        .as_ref()
        .and_then(|d| value_at(d, &field).map(|v| kind(v, written.as_deref().unwrap_or(""))));
    match (expected, written) {
        (Some((what, false)), Some(w)) if !what.is_empty() => {
            format!("{field}: expected {what}, found {w}")
        }
        _ => format!("{field}: {message}"),
    }
}
