//! Peak memory of a bot, measured when it is ended. A test binary of its own: a child
//! forked from a large process (a test binary whose other tests hold search trees)
//! starts with that process's resident size, which would hide the bots' own peaks.

use arena::process::{BotProcess, Reply};
use std::time::{Duration, Instant};

#[test]
fn ending_a_bot_reports_its_peak_memory() {
    // 20 MB held in a shell variable, then the bot waits for its input to close.
    let mut big = BotProcess::spawn(
        "x=$(head -c 20000000 /dev/zero | tr '\\0' a); echo ready; read line",
        None,
    )
    .unwrap();
    assert!(matches!(
        big.receive(Instant::now(), 10_000),
        Reply::Line { .. }
    ));
    let big_kib = big.kill().expect("reaped by us");
    assert!(big_kib > 19_000, "peak {big_kib} KiB");
    // One that ignores the closed stdin is killed after the grace period.
    let started = Instant::now();
    let mut small = BotProcess::spawn("exec sleep 30", None).unwrap();
    let small_kib = small.kill().expect("reaped by us");
    assert!(
        small_kib > 0 && small_kib < big_kib / 4,
        "peak {small_kib} KiB"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(small.kill(), None, "a reaped bot is not waited for again");
}
