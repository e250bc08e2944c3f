//! Finding fields in preset text, so errors can point at a line and column and name the
//! field (RON reports positions only for syntax and type errors, and names no field).
//!
//! The text is walked as RON's lexer would: `//` and nested `/* */` comments and string
//! literals are skipped, brackets nest, and every `name:` is a field of the innermost
//! parenthesised section, its path the sections' fields and list indices above it
//! (`ores.table[1].threshold`). Columns count characters, as RON's do.

/// One field written in the text: its dotted path and the byte offset of its name.
struct Field {
    path: String,
    at: usize,
}

/// A bracket the walk is inside: a section or tuple `(`/`{`, or a list `[`.
struct Frame {
    list: bool,
    /// Section: the field being written (its path segment). List: the element index.
    field: Option<String>,
    index: usize,
}

/// The path of the place the walk is at.
fn path_of(stack: &[Frame]) -> String {
    let mut path = String::new();
    for f in stack {
        if f.list {
            path.push_str(&format!("[{}]", f.index));
        } else if let Some(name) = &f.field {
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(name);
        } else {
            break;
        }
    }
    path
}

/// Byte length of a comment or string literal starting at `i`, if one does.
fn skip_len(text: &str, i: usize) -> Option<usize> {
    let rest = &text[i..];
    if rest.starts_with("//") {
        return Some(rest.find('\n').unwrap_or(rest.len()));
    }
    if rest.starts_with("/*") {
        // Block comments nest in RON.
        let (mut depth, mut j) = (0usize, 0usize);
        while j < rest.len() {
            if rest[j..].starts_with("/*") {
                depth += 1;
                j += 2;
            } else if rest[j..].starts_with("*/") {
                depth -= 1;
                j += 2;
                if depth == 0 {
                    return Some(j);
                }
            } else {
                j += rest[j..].chars().next().map_or(1, char::len_utf8);
            }
        }
        return Some(rest.len());
    }
    if rest.starts_with('"') {
        let mut escaped = false;
        for (j, c) in rest.char_indices().skip(1) {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => return Some(j + 1),
                _ => {}
            }
        }
        return Some(rest.len());
    }
    // Raw strings: r"...", r#"..."#, ...
    if let Some(after_r) = rest.strip_prefix('r') {
        let hashes = after_r.len() - after_r.trim_start_matches('#').len();
        if after_r[hashes..].starts_with('"') {
            let close = format!("\"{}", "#".repeat(hashes));
            let body = 1 + hashes + 1;
            return Some(
                rest[body..]
                    .find(&close)
                    .map_or(rest.len(), |k| body + k + close.len()),
            );
        }
    }
    None
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Walks the text up to byte `until`, listing its fields, and returns the path of the
/// place it stopped at.
fn walk(text: &str, until: usize, fields: &mut Vec<Field>) -> String {
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < text.len().min(until) {
        if let Some(n) = skip_len(text, i) {
            i += n;
            continue;
        }
        let c = text[i..].chars().next().unwrap_or(' ');
        match c {
            '(' | '{' | '[' => stack.push(Frame {
                list: c == '[',
                field: None,
                index: 0,
            }),
            ')' | '}' | ']' => {
                stack.pop();
            }
            ',' => {
                if let Some(f) = stack.last_mut().filter(|f| f.list) {
                    f.index += 1;
                }
            }
            c if is_ident_char(c) && !text[..i].ends_with(is_ident_char) => {
                let end = text[i..]
                    .find(|c: char| !is_ident_char(c))
                    .map_or(text.len(), |k| i + k);
                let after = text[end..].trim_start();
                let is_field = after.starts_with(':') && !after.starts_with("::");
                if let Some(top) = stack.last_mut().filter(|f| is_field && !f.list) {
                    top.field = Some(text[i..end].to_string());
                    fields.push(Field {
                        path: path_of(&stack),
                        at: i,
                    });
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += c.len_utf8();
    }
    path_of(&stack)
}

/// 1-based line and column (in characters) of byte offset `at`.
pub(super) fn line_col(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |k| k + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// Byte offset of a 1-based line and character column (clamped to the text).
pub(super) fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut at = 0;
    for _ in 1..line {
        match text[at..].find('\n') {
            Some(k) => at += k + 1,
            None => return text.len(),
        }
    }
    text[at..]
        .char_indices()
        .nth(col.saturating_sub(1))
        .map_or(text.len(), |(k, _)| at + k)
}

/// Is the top-level field `name` written in the text (not in a comment or a string)?
pub(super) fn text_names_field(text: &str, name: &str) -> bool {
    let mut fields = Vec::new();
    walk(text, text.len(), &mut fields);
    fields.iter().any(|f| f.path == name)
}

/// The path of the field being written at byte offset `at` ("" outside any field).
pub(super) fn field_at(text: &str, at: usize) -> String {
    walk(text, at, &mut Vec::new())
}

/// The value written after the colon of the field whose name starts at or before `at`:
/// up to the next comma, closing bracket or line end, for messages.
pub(super) fn value_text(text: &str, at: usize, field: &str) -> Option<String> {
    let mut fields = Vec::new();
    walk(text, at, &mut fields);
    let f = fields.iter().rev().find(|f| f.path == field)?;
    let colon = f.at + text[f.at..].find(':')? + 1;
    let rest = text[colon..].trim_start();
    let end = rest.find([',', ')', ']', '\n']).unwrap_or(rest.len());
    let value: String = rest[..end].trim_end().chars().take(40).collect();
    Some(value)
}

/// Finds where a dotted field path (`caves.fill`, `ores.table[1].threshold`) is written,
/// as a 1-based line and column. `None` when the field was left to its default.
pub fn locate_field(text: &str, path: &str) -> Option<(usize, usize)> {
    let mut fields = Vec::new();
    walk(text, text.len(), &mut fields);
    let f = fields.iter().find(|f| f.path == path)?;
    Some(line_col(text, f.at))
}
