//! What the tests of `strata serve` share: a server as a child process and its log.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// A `strata serve` with these arguments, and its log lines as they come.
pub fn serve(args: &[&str]) -> (Child, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_strata"))
        .arg("serve")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let err = child.stderr.take().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(err).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

/// The first line containing `what` within `secs`, and every line seen before it.
pub fn wait_for(rx: &Receiver<String>, what: &str, secs: f64, seen: &mut Vec<String>) -> String {
    let start = Instant::now();
    while start.elapsed().as_secs_f64() < secs {
        if let Ok(line) = rx.recv_timeout(Duration::from_millis(100)) {
            seen.push(line.clone());
            if line.contains(what) {
                return line;
            }
        }
    }
    panic!("no '{what}' within {secs} s; the log: {seen:#?}");
}

/// The text after `key` up to the next space or ')'.
pub fn after<'a>(line: &'a str, key: &str) -> &'a str {
    let rest = &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
    rest.split([' ', ')']).next().unwrap()
}
