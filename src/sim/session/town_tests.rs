//! The town's newcomers against the session: the Dryad after the Eye, a newcomer whose
//! condition is an item held, a newcomer's shop, and a save keeping them.

use super::tests::{landed, log_lines, notices, run, walled_house};
use super::*;
use crate::content::town::Town;

/// The Guide housed and a second house shown free beside his: `(session, the free
/// house's housing query)`.
fn two_houses(mut s: Session) -> (Session, Intent) {
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    let ask = walled_house(&mut s, px + 2, py);
    s.act(LOCAL, ask);
    assert!(!s.guide().homeless());
    let ask2 = walled_house(&mut s, px + 16, py);
    s.act(LOCAL, ask2);
    (s, ask2)
}

/// A right-click on the townsperson `name`, the player moved beside it.
pub(super) fn click_on(s: &mut Session, name: &str) -> Changes {
    let n = s.folk(name).expect("here").clone();
    let (nx, ny) = n.body.centre();
    s.me_mut().body.pos = (nx - 2.0, n.body.pos.1);
    s.me_mut().body.vel = (0.0, 0.0);
    let at = Intent::Place {
        x: nx.floor() as i64,
        y: ny.floor() as i64,
        pressed: true,
    };
    s.step(&[(LOCAL, at)])
}

#[test]
fn the_dryad_comes_only_after_the_eye_and_to_a_free_house_and_sells() {
    let mut s = landed();
    // The Eye down but only the Guide's house: she does not come.
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    let ask = walled_house(&mut s, px + 2, py);
    s.act(LOCAL, ask);
    s.world.progress.eye_defeated = 1;
    run(&mut s, 150, &[]);
    assert!(s.folk("Dryad").is_none(), "no free house");
    // A free house but the Eye never defeated: she does not come.
    s.world.progress.eye_defeated = 0;
    let ask2 = walled_house(&mut s, px + 16, py);
    s.act(LOCAL, ask2);
    run(&mut s, 150, &[]);
    assert!(s.folk("Dryad").is_none(), "the Eye still lives");
    // Both: she arrives in the free house.
    s.world.progress.eye_defeated = 1;
    let c = run(&mut s, 150, &[]);
    let d = s.folk("Dryad").cloned().expect("the Dryad arrived");
    assert!(
        d.home.is_some_and(|h| h.0 > (px + 16) as f32),
        "{:?}",
        d.home
    );
    assert!(
        notices(&c).contains(&"The Dryad has arrived! (right-click to trade)".to_string()),
        "{:?}",
        notices(&c)
    );
    assert!(
        c.events
            .iter()
            .any(|e| matches!(e, Event::FolkArrived { name: "Dryad", .. }))
    );
    let said = notices(&s.act(LOCAL, ask2));
    assert!(
        said.iter().any(|t| t.ends_with("The Dryad lives here.")),
        "{said:?}"
    );
    // Her shop: a right-click opens it; a ware bought takes its price in coins.
    let c = click_on(&mut s, "Dryad");
    assert!(c.events.contains(&Event::ShopOpened { player: LOCAL }));
    assert_eq!(s.me().shop, Some("Dryad"));
    let content = Arc::clone(&s.content);
    let shop = content.town.shop("Dryad").expect("she sells");
    let ware = shop.sells[0];
    let price = shop.price(ware).unwrap();
    let coins = &content.town.coins;
    s.me_mut().inventory.add("silver_coin", 5);
    let (before, had) = (
        crate::sim::coins::worth(&s.me().inventory, coins),
        s.me().inventory.count(ware),
    );
    s.act(LOCAL, Intent::Buy(0));
    assert_eq!(s.me().inventory.count(ware), had + 1);
    assert_eq!(
        crate::sim::coins::worth(&s.me().inventory, coins),
        before - price
    );
    // A save keeps her in her house; the Merchant has not come.
    let back = Session::from_save(s.world.clone(), s.player_state(LOCAL));
    assert_eq!(back.folk("Dryad").and_then(|n| n.home), d.home);
    assert!(back.folk("Merchant").is_none());
}

/// The built-in content with the shipped newcomers replaced by `newcomers` (town text).
fn with_newcomers(newcomers: &str) -> Arc<Content> {
    let mut c = Content::builtin();
    let start = crate::content::town::TOWN_RON
        .find("    newcomers: [")
        .unwrap();
    let end = start
        + crate::content::town::TOWN_RON[start..]
            .find("\n    ],")
            .unwrap()
        + 7;
    let text = format!(
        "{}    newcomers: [{newcomers}],{}",
        &crate::content::town::TOWN_RON[..start],
        &crate::content::town::TOWN_RON[end..]
    );
    c.town = Town::parse(&text, "test town.ron", &c.catalog).unwrap();
    Arc::new(c)
}

#[test]
fn a_newcomer_whose_condition_is_an_item_held_comes_once_it_is_held_and_sells() {
    // Stand-ins for the weapons' items: gel for a bomb, a wooden sword for a bow.
    let content = with_newcomers(
        r#"(name: "Demolitionist", when: [Has("gel")], sells: [(item: "torch", price: 300)]),
        (name: "Arms Dealer", when: [Carries(100), Has("wooden_sword")], talk: ["Arrows!"]),"#,
    );
    let s = landed();
    let (world, light) = (s.world.clone(), s.light.clone());
    let mut s = Session::start_with(content, world, light, Some(s.player_state(LOCAL)), false);
    s.me_mut().inventory.remove("gel", 999);
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    let (mut s, _) = two_houses(s);
    s.me_mut().inventory.add("wooden_sword", 1);
    run(&mut s, 150, &[]);
    assert_eq!(s.town().count(), 1, "no gel held, no silver: no one comes");
    s.me_mut().inventory.add("gel", 1);
    let c = run(&mut s, 150, &[]);
    assert!(s.folk("Demolitionist").is_some());
    assert!(
        notices(&c)
            .iter()
            .any(|t| t.starts_with("The Demolitionist has arrived!"))
    );
    // His shop, by his own prices; he buys as the Merchant does.
    click_on(&mut s, "Demolitionist");
    assert_eq!(s.me().shop, Some("Demolitionist"));
    s.me_mut().inventory.add("silver_coin", 3);
    let torches = s.me().inventory.count("torch");
    let content = Arc::clone(&s.content);
    let worth = |s: &Session| crate::sim::coins::worth(&s.me().inventory, &content.town.coins);
    let before = worth(&s);
    s.act(LOCAL, Intent::Buy(0));
    assert_eq!(s.me().inventory.count("torch"), torches + 1);
    assert_eq!(worth(&s), before - 300);
    // One at a time, into a free house: the Arms Dealer waits for another one, however
    // much silver is carried.
    s.me_mut().inventory.add("silver_coin", 2);
    run(&mut s, 150, &[]);
    assert!(s.folk("Arms Dealer").is_none());
    // Without a shop a right-click hears his line.
    let ask3 = walled_house(&mut s, px + 30, py);
    s.act(LOCAL, ask3);
    run(&mut s, 150, &[]);
    assert!(s.folk("Arms Dealer").is_some());
    s.act(LOCAL, Intent::Close);
    let c = click_on(&mut s, "Arms Dealer");
    assert_eq!(s.me().shop, None);
    let said = super::tests::notices(&c);
    assert!(
        said.contains(&"Arms Dealer: Arrows!".to_string()),
        "{said:?}"
    );
}

#[test]
fn a_homeless_guide_takes_the_house_the_player_stands_in_before_a_newcomer_can() {
    // A newcomer whose rule the player meets (a stand-in: a wooden sword and a silver coin).
    let content = with_newcomers(
        r#"(name: "Arms Dealer", when: [Carries(100), Has("wooden_sword")], talk: ["Arrows!"]),"#,
    );
    let s = landed();
    let (world, light) = (s.world.clone(), s.light.clone());
    let mut s = Session::start_with(content, world, light, Some(s.player_state(LOCAL)), false);
    let (px, py) = (s.me().body.pos.0 as usize, s.me().body.pos.1 as usize);
    // A house built and never shown with X; the player stands in it.
    walled_house(&mut s, px + 2, py);
    assert!(s.guide().homeless());
    s.me_mut().body.pos = ((px + 8) as f32 + 0.5, py as f32);
    s.me_mut().inventory.add("wooden_sword", 1);
    s.me_mut().inventory.add("silver_coin", 1);
    let c = run(&mut s, 150, &[]);
    assert!(
        !s.guide().homeless(),
        "the Guide stayed out of the free house"
    );
    assert!(
        log_lines(&c)
            .iter()
            .any(|l| l.starts_with("the Guide moves into the house")),
        "{:?}",
        log_lines(&c)
    );
    assert!(
        s.folk("Arms Dealer").is_none(),
        "the newcomer took the Guide's house"
    );
    // A second house, shown: the newcomer comes to that one.
    let ask = walled_house(&mut s, px + 16, py);
    s.act(LOCAL, ask);
    run(&mut s, 150, &[]);
    assert!(s.folk("Arms Dealer").is_some());
}
