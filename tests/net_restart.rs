//! `strata serve` killed with SIGKILL during play, then `strata serve --load` of its save:
//! the world is the last autosave's (at most one interval lost) and the bots rejoin with
//! the characters it kept. Then SIGTERM stops the second server with a save. Loopback
//! only; every wait is bounded.

use std::io::BufRead;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};
use strata::net::bots::{self, BotOptions};
use strata::net::chars::Characters;
use strata::net::client::JoinOptions;

/// A `strata serve` with these arguments, and its log lines as they come.
fn serve(args: &[&str]) -> (Child, Receiver<String>) {
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
fn wait_for(rx: &Receiver<String>, what: &str, secs: f64, seen: &mut Vec<String>) -> String {
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
fn after<'a>(line: &'a str, key: &str) -> &'a str {
    let rest = &line[line.find(key).unwrap_or_else(|| panic!("{key} in {line}")) + key.len()..];
    rest.split([' ', ')']).next().unwrap()
}

#[test]
fn a_killed_server_comes_back_from_its_autosave_with_the_characters() {
    let dir = std::env::temp_dir().join(format!("strata-net-restart-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let save = dir.join("w.strata");
    let save_s = save.to_str().unwrap();
    let home = dir.to_str().unwrap();
    let mut log = Vec::new();
    let (mut first, rx) = serve(&[
        "--size",
        "300x150",
        "--seed",
        "3",
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--save",
        save_s,
        "--autosave",
        "2",
        "--home",
        home,
    ]);
    let line = wait_for(&rx, "serving", 120.0, &mut log);
    let addr = after(&line, " on ").to_string();
    let opts = BotOptions {
        addr: addr.clone(),
        count: 2,
        seconds: 5.0,
        settle: 1.0,
        seed: 9,
        ..BotOptions::default()
    };
    let reports = bots::run(&opts).unwrap();
    assert!(reports.iter().all(|r| r.hash.is_some()), "{reports:?}");
    // The next autosave after the bots left (the saves during play are passed over),
    // then SIGKILL.
    while let Ok(line) = rx.try_recv() {
        log.push(line);
    }
    let saved = wait_for(&rx, "saved", 10.0, &mut log);
    let hash = after(&saved, "world hash ").to_string();
    first.kill().unwrap();
    first.wait().unwrap();
    let chars = Characters::new(strata::launch::characters_dir(&save));
    let kept = chars
        .get("bot1", &bots::password_of("bot1"))
        .unwrap()
        .expect("bot1 kept");
    // Back from the save.
    let (mut second, rx) = serve(&[
        "--load",
        save_s,
        "--bind",
        "127.0.0.1",
        "--port",
        "0",
        "--autosave",
        "60",
        "--home",
        home,
    ]);
    let loaded = wait_for(&rx, "loaded", 120.0, &mut log);
    assert_eq!(
        after(&loaded, "world hash "),
        hash,
        "the last autosave's world"
    );
    let line = wait_for(&rx, "serving", 120.0, &mut log);
    let addr = after(&line, " on ").to_string();
    let join = JoinOptions {
        addr,
        name: "bot1".into(),
        password: bots::password_of("bot1"),
        server_password: String::new(),
    };
    let mut c = bots::join_one(&join, Duration::from_secs(60)).unwrap();
    assert_eq!(c.character(), Some(&kept), "rejoined with its character");
    assert_eq!(
        c.view_hash().map(|h| format!("{h:016x}")),
        Some(hash.clone()),
        "its view is the loaded world"
    );
    c.close();
    // SIGTERM: a save, then the exit.
    #[cfg(unix)]
    {
        // SAFETY: signalling our own child by its id.
        unsafe {
            libc::kill(second.id() as i32, libc::SIGTERM);
        }
        wait_for(&rx, "saved", 20.0, &mut log);
        let start = Instant::now();
        while second.try_wait().unwrap().is_none() {
            assert!(start.elapsed() < Duration::from_secs(20), "still running");
            std::thread::sleep(Duration::from_millis(50));
        }
    }
    let _ = second.kill();
    let _ = std::fs::remove_dir_all(&dir);
}
