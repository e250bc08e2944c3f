//! `strata serve` killed with SIGKILL during play, then `strata serve --load` of its save:
//! the world is the last autosave's (at most one interval lost) and the bots rejoin with
//! the characters it kept. Then SIGTERM stops the second server with a save. Loopback
//! only; every wait is bounded.

mod serving;

use serving::{after, serve, wait_for};
use std::time::{Duration, Instant};
use strata::net::bots::{self, BotOptions};
use strata::net::chars::Characters;
use strata::net::client::JoinOptions;

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
        known_servers: None,
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
