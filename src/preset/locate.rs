//! Finding where a field is written in preset text, so range errors can point at a
//! line and column (RON reports positions only for syntax and type errors).

/// Does `name:` appear as a field in the text (outside comments)?
pub(super) fn text_names_field(text: &str, name: &str) -> bool {
    find_ident(text, name, 0).is_some()
}

/// Finds where a dotted field path (`caves.fill`, `ores.table[1].threshold`) is written,
/// as a 1-based line and column, by finding each segment in turn after the previous one.
/// `None` when the field was left to its default.
pub fn locate_field(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    for segment in path.split('.') {
        let name = segment.split('[').next().unwrap_or(segment);
        from = find_ident(text, name, from)?;
        if let Some(index) = segment
            .split('[')
            .nth(1)
            .and_then(|s| s.trim_end_matches(']').parse::<usize>().ok())
        {
            // Skip to the index-th `(` after the list's opening bracket.
            let mut depth = 0usize;
            let mut seen = 0usize;
            let mut found = None;
            for (i, ch) in text[from..].char_indices() {
                match ch {
                    '[' | '(' if depth == 0 && ch == '[' => depth = 1,
                    '(' if depth == 1 => {
                        if seen == index {
                            found = Some(from + i);
                            break;
                        }
                        seen += 1;
                        depth = 2;
                    }
                    '(' | '[' if depth >= 1 => depth += 1,
                    ')' | ']' if depth >= 2 => depth -= 1,
                    ']' if depth == 1 => break,
                    _ => {}
                }
            }
            from = found?;
        }
    }
    let line = text[..from].matches('\n').count() + 1;
    let col = from - text[..from].rfind('\n').map_or(0, |i| i + 1) + 1;
    Some((line, col))
}

/// Byte offset of `name` written as a field (`name` then optional blanks then `:`), at or
/// after `from`, skipping `//` comments.
fn find_ident(text: &str, name: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        if text[i..].starts_with("//") {
            i += text[i..].find('\n').unwrap_or(text.len() - i);
            continue;
        }
        if text[i..].starts_with(name) {
            let before_ok =
                i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
            let rest = text[i + name.len()..].trim_start();
            if before_ok && rest.starts_with(':') {
                return Some(i);
            }
        }
        i += text[i..].chars().next().map_or(1, char::len_utf8);
    }
    None
}
