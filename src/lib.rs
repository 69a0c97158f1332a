//! `mctsbot`: a Monte-Carlo Tree Search bot for Ultimate Tic-Tac-Toe and Light Riders
//! (Tron), speaking the TheAIGames / riddles.io engine protocol. The local engine,
//! `arena`, is a package of its own in the same workspace.
//!
//! One room per concern:
//! - [`game`]: players, outcomes and the kinds of game, shared by everything below.
//! - [`protocol`]: engine lines parsed with `nom` into typed commands, and the answers.
//! - [`timeman`]: how many milliseconds a move may take, from the timebank.
//! - [`search`]: the generic MCTS core (sequential and simultaneous-move trees).
//! - [`uttt`]: Ultimate Tic-Tac-Toe rules on bitboards.
//! - [`tron`]: Light Riders rules on bitboards and the space evaluation.
//! - [`cli`]: the bot's command-line helpers.
//! - [`bot`]: the glue: options → searcher per game (`bot::uttt`, `bot::tron`), and one
//!   session loop that turns engine commands into searches and answers.
//! - [`json`]: the little JSON that `bench` writes.
//! - [`mod@bench`]: fixed-position search benchmarks (`mctsbot bench`).

pub mod bench;
pub mod bot;
pub mod cli;
pub mod game;
pub mod json;
pub mod protocol;
pub mod search;
pub mod timeman;
pub mod tron;
pub mod uttt;
