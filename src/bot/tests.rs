//! The flag tests: every flag in the options' table either changes what the bot builds
//! or is listed with the reason it does not.

use super::options::{flag_names, Config};
use super::player::{GamePlayer, Settings};
use super::{tron, uttt};
use crate::tron::TronState;
use crate::uttt::Board;

/// What `args` make the bot build: the UTTT tree's settings, the Light Riders
/// searcher's (settings and evaluator), and both games' clocks.
fn built(args: &[&str]) -> String {
    let config = Config::from_args(args).unwrap();
    let settings = Settings::default();
    let uttt_player = uttt::UtttPlayer::new(1);
    let tron_player = tron::TronPlayer::new(1);
    let searcher = tron::TronSearcher::new(
        &config.tron,
        TronState::light_riders_start(),
        0,
        1,
        config.common.threads,
    );
    let uttt_search = uttt::new_search(&config, Board::new(), 1);
    format!(
        "{uttt_search:?}\n{searcher:?}\n{:?}\n{:?}",
        uttt_player.time_control(&settings, &config),
        tron_player.time_control(&settings, &config),
    )
}

/// Every search option, each with the options it is measured against (the option
/// must change what is built from there). `--no-endgame` changes what the player does
/// rather than the searcher; the bot's Light Riders tests check it.
const SEARCH_FLAGS: &[(&[&str], &[&str])] = &[
    (&[], &["--threads", "2"]),
    (&[], &["--c", "0.7"]),
    (&[], &["--expand-visits", "3"]),
    (&[], &["--max-nodes", "1000"]),
    (&[], &["--final", "robust"]),
    (&[], &["--final", "secure"]),
    (&[], &["--no-solver"]),
    (&[], &["--uttt-search", "alphabeta"]),
    (&["--uttt-search", "alphabeta"], &["--eval", "simple"]),
    (&["--uttt-search", "alphabeta"], &["--eval", "advanced"]),
    (
        &["--uttt-search", "alphabeta"],
        &["--eval-weights", "1,1,1,1,1,1,1,1,1,1,1,1,1,1"],
    ),
    (&["--uttt-search", "alphabeta"], &["--uttt-depth", "7"]),
    (&[], &["--uttt-search", "minimax-uct"]),
    (&[], &["--playout", "win-first"]),
    (&[], &["--win-at-once", "off"]),
    (&["--uttt-eval", "playout"], &["--win-at-once", "off"]),
    (&[], &["--uttt-eval", "nn"]),
    (&[], &["--uttt-eval", "playout"]),
    (&["--uttt-eval", "nn"], &["--uttt-eval", "blend:0.5"]),
    (&[], &["--uttt-eval", "blend:0.5"]),
    (&[], &["--rave", "0.1"]),
    (&["--rave", "0.1"], &["--rave", "1"]),
    (&["--rave", "0.1"], &["--grave", "50"]),
    (&[], &["--prior", "10,0.3"]),
    // The network's own prior visits (10) give way to those asked.
    (&["--uttt-eval", "blend:0.5"], &["--prior", "5,0.2"]),
    (&[], &["--contempt", "0.1"]),
    (&[], &["--no-prior"]),
    (&[], &["--ept", "50,0.7"]),
    (&["--ept", "50,0.7"], &["--eval", "connecting"]),
    (&[], &["--safety-ms", "60"]),
    (&[], &["--time-horizon", "12"]),
    (&[], &["--tron-search", "alphabeta"]),
    (&[], &["--tron-variant", "suct"]),
    (&[], &["--tron-variant", "suct-tuned"]),
    (&[], &["--tron-variant", "duct-max"]),
    (&[], &["--tron-variant", "duct-mix"]),
    (&[], &["--tron-variant", "ducb1t-mix"]),
    (&[], &["--tron-variant", "exp3"]),
    (&[], &["--tron-variant", "rm"]),
    (&[], &["--tron-c", "0.7"]),
    (&["--tron-variant", "suct"], &["--tron-c", "0.7"]),
    (&["--tron-variant", "exp3"], &["--tron-gamma", "0.2"]),
    (&["--tron-variant", "rm"], &["--tron-gamma", "0.2"]),
    (&[], &["--tron-final", "mix"]),
    (&[], &["--tron-final", "secure"]),
    (&[], &["--tron-final", "max-robust"]),
    (&["--tron-variant", "duct-mix"], &["--tron-final", "max"]),
    (&["--tron-variant", "suct"], &["--tron-final", "secure"]),
    (&[], &["--tron-playout", "random"]),
    (&[], &["--tron-playout", "ngram"]),
    (&[], &["--tron-playout", "lgr"]),
    (&[], &["--tron-playout", "lgrf"]),
    (&[], &["--tron-playout", "ngram-lgr"]),
    (&["--tron-playout", "ngram"], &["--tron-epsilon", "0.1"]),
    (
        &["--tron-playout", "ngram"],
        &["--tron-ngram-extraction", "sequential"],
    ),
    (&["--tron-cutoff", "none"], &["--tron-selection", "ulm"]),
    (&["--tron-cutoff", "none"], &["--tron-selection", "pb"]),
    (
        &["--tron-cutoff", "none", "--tron-variant", "suct"],
        &["--tron-selection", "lean-lgrf"],
    ),
    (&[], &["--tron-separation", "5"]),
    (&[], &["--tron-cutoff", "voronoi"]),
    (&[], &["--tron-cutoff", "chambers"]),
    (&[], &["--tron-cutoff", "none"]),
    (&["--tron-cutoff", "space"], &["--tron-cutoff-steps", "4"]),
    (&["--tron-cutoff", "space"], &["--tron-eval-scale", "100"]),
    (&[], &["--tron-eval-weights", "0,0,0,2975"]),
    (&[], &["--tron-pes"]),
    (&[], &["--tron-contempt", "0"]),
    (&["--tron-variant", "suct"], &["--tron-contempt", "0"]),
    (&["--tron-variant", "suct"], &["--tron-pes"]),
    (&[], &["--tron-max-nodes", "1000"]),
    (&[], &["--tron-expand-visits", "1"]),
];

/// Options that choose what runs rather than how it searches.
/// `--ponder` changes when the bot searches: the bot's UTTT tests check it.
/// `--tron-early-stop` changes when the search answers: the options' tests check its
/// values, `search::early_stop`'s what it does, the Light Riders searcher's when it
/// decides. `--tron-side-by-side` changes how long a round is searched: the options'
/// tests check its values, the Light Riders player's its budget.
/// `--protocol` chooses the dialect: the CodinGame tests (`codingame.rs`, the bot's
/// UTTT tests) check it. `--end-rule` is the engine's rule, not the search's: the
/// bot's UTTT tests check that it decides what the search proves. The `--battle-*` flags
/// set CodinGame's Tron Battle player, not the engines' searches built here: the options'
/// tests check their values and the Tron Battle player's tests play each setting.
/// `--random-turns` answers CodinGame's first turns at random before any search (a
/// testing aid that makes series differ), and `--random-symmetry` plays the game through a
/// symmetry of the board (another): the CodinGame player's tests check both.
const OTHER_FLAGS: &[&str] = &[
    "--battle-rivals",
    "--battle-eval",
    "--battle-fill",
    "--game",
    "--protocol",
    "--end-rule",
    "--seed",
    "--no-endgame",
    "--tron-early-stop",
    "--tron-side-by-side",
    "--ponder",
    "--random-turns",
    "--random-symmetry",
];

#[test]
fn every_search_flag_changes_what_is_built() {
    for (base, flag) in SEARCH_FLAGS {
        let with_flag: Vec<&str> = base.iter().chain(flag.iter()).copied().collect();
        assert_ne!(
            built(base),
            built(&with_flag),
            "{flag:?} after {base:?} changes nothing"
        );
    }
}

#[test]
fn every_flag_is_covered() {
    for flag in flag_names() {
        assert!(
            SEARCH_FLAGS.iter().any(|(_, f)| f[0] == flag) || OTHER_FLAGS.contains(&flag),
            "{flag} is parsed but in neither SEARCH_FLAGS nor OTHER_FLAGS"
        );
    }
    for (_, flag) in SEARCH_FLAGS {
        assert!(flag_names().contains(&flag[0]), "{flag:?} is not a flag");
    }
}
